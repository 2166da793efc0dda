"""Check mode: run the original and the compiled function side by side on every call.

`@symbolic(check=True)` installs the cache's `checked_call` instead of the compiled code, which
calls `checked_call` here. Each call runs
the original and the compiled version on deep copies of the arguments, under the differential
oracle (`oracle.py`: values by type and bits, exception types, printed output, warnings,
mutation of the arguments, aliasing). If they agree, the compiled version runs once more on the
real arguments and its result is returned, so the caller sees one call's effects. If they
differ, the pipeline is cut short pass by pass to find the first pass whose rewrites change the
result, and `CheckError` names it, with the rules it applied and both outcomes.

The function therefore runs three times per call: check mode is for finding a compiler bug,
for functions whose effects are on their arguments and their printed output. It can only
compare deterministic functions: on a difference the original runs once more, and if its two
runs differ too (random numbers, the time, state kept between calls) `CheckError` says so
instead of blaming a pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import SymbolicError
from . import oracle

if TYPE_CHECKING:
    from .cache import FunctionCache
    from .compiler import Version


class CheckError(SymbolicError):
    """In check mode, the compiled function behaved differently from the original."""


def _describe(observation: oracle.Observation) -> str:
    if observation.outcome == "raise":
        return f"raised {observation.exc_type.__name__}: {observation.exc_message}"  # type: ignore[union-attr]
    return f"returned {observation.value!r}"


def first_changing_pass(state: FunctionCache, version: Version, args: tuple[Any, ...],
                        kwargs: dict[str, Any], original: oracle.Observation) -> tuple[str, list[str]]:
    """The first pass of the pipeline whose output, compiled as `version` was (for the same
    argument types), no longer matches the original on these arguments; and its rules."""
    key, static, _ = state.key_for(args, kwargs)
    kinds = dict(version.ir.argument_types) if version.ir is not None else {}
    passes = state.options.passes
    for count in range(1, len(passes) + 1):
        trial = state.trial(passes[:count])
        made = trial.version(key, static, kinds)
        run = oracle.observe(lambda *a, **k: trial.run(made, a, k), args, kwargs)
        if oracle.explain_observation_difference(original, run):
            name = passes[count - 1].__name__
            rules = [str(note) for step in made.log if step.name == name
                     for note in step.notes if note.kind == "changed"]
            return name, list(dict.fromkeys(rules))
    return "the generated code itself (every pass alone matches)", []


def checked_call(state: FunctionCache, version: Version,
                 args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Compare `version` with the original on copies of the arguments, then run it for real."""
    def compiled(*call_args: Any, **call_kwargs: Any) -> Any:
        return state.run(version, call_args, call_kwargs)

    original = oracle.observe(state.original, args, kwargs)
    difference = oracle.explain_observation_difference(original, oracle.observe(compiled, args, kwargs))
    if difference is None:
        return compiled(*args, **kwargs)
    call = ", ".join([*map(repr, args), *(f"{key}={value!r}" for key, value in kwargs.items())])
    again = oracle.explain_observation_difference(original, oracle.observe(state.original, args, kwargs))
    if again is not None:
        raise CheckError(
            f"check mode: {state.original.__qualname__}({call}) is not deterministic: two runs "
            f"of the original on the same arguments differ ({again.strip().splitlines()[0]}), "
            f"so check mode cannot compare it with the compiled code",
            filename=state.source.function.filename, lineno=state.source.function.node.lineno,
            hint="leave check=True off for this function (it reads random numbers, the time, "
                 "or state that changes from call to call), or make it deterministic: pass "
                 "the random generator or the changing state in as an argument")
    culprit, rules = first_changing_pass(state, version, args, kwargs, original)
    raise CheckError(
        f"check mode: {state.original.__qualname__}({call}) differs from the original: "
        f"{difference.strip()}\n  original: {_describe(original)}\n"
        f"  first pass that changes the result: {culprit}"
        + (f" (rules: {'; '.join(rules)})" if rules else ""),
        filename=state.source.function.filename, lineno=state.source.function.node.lineno,
        hint="this is a bug in symcompile; please report it with the function and these "
             "arguments. Meanwhile leave that pass out: @symbolic(passes=[...])")
