"""One fuzz case: what it is (`Case`), how it runs (`run_case`), what came of it (`Outcome`).

A case is a module's source text and a *script* of steps run against it:

* ``("call", "ARGS, KWARGS")``: evaluate the text in the module's namespace (fresh objects for
  each side), call the original entry function and the compiled one on them, each under
  `symcompile.runtime.oracle.observe`, from the same module state (the module's globals are put back
  as they were before the compiled call), and compare the observations, exception messages
  and the module's globals after the call;
* ``("exec", "STATEMENT")``: run a statement in the module's namespace (rebind a global, a
  helper...);
* ``("edit", "NEW SOURCE")``: write new text over the module's file (the functions in memory
  stay as they were imported).

The entry function is compiled with ``symcompile.symbolic(entry, **case.options)`` before the
first step. While a call runs, the module global ``ENTRY`` is the function being called (so a
hostile argument can call it again). The NumPy kind runs its own check (`gen_numpy`).

What can go wrong, in `Finding.category`: ``difference`` (an observable difference),
``internal_error`` (a SymbolicError saying "internal error in symcompile"), ``refusal`` (any
other SymbolicError where the original ran, except a refusal that says the file changed, which
the edits kind accepts), ``crash`` (the API raised an exception of another kind outside a call,
or the worker died) and ``hang`` (the case ran past its timeout while compiling or running
compiled code, which `runner` decides; or a compiled call, compiling included, took more than
`SLOW_SECONDS` and twenty times the original's time).
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import re
import tempfile
import textwrap
import time
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import symcompile
from symcompile.errors import SymbolicError
from symcompile.runtime.oracle import (
    NAN_SIGN_DIFFERS,
    Observation,
    _nan_signs_vary,
    explain_difference,
    explain_observation_difference,
    observe,
)
from tests.source_module import import_source

INTERNAL = "internal error in symcompile"
# words of a SymbolicError that refuses because the function's file was edited
CHANGED_FILE = re.compile(r"edited|changed|does not match|no longer", re.IGNORECASE)

# a compiled call (its compiling included) this much slower than the original is a finding
SLOW_SECONDS = 3.0

Step = tuple[str, str]
Phase = Callable[[str], None]


@dataclass
class Case:
    """A module (`source`), the steps run against it and the `symbolic` options of its entry."""

    kind: str
    seed: int
    source: str
    steps: list[Step]
    options: dict[str, Any] = field(default_factory=dict)
    entry: str = "main"
    timeout: float = 20.0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Finding:
    category: str
    detail: str
    step: int = -1

    def signature(self) -> str:
        """What tells findings apart: the category and the shape of the detail's first line
        (for a difference: what differs and the exceptions raised; otherwise the line with
        numbers, quoted text and names of generated variables left out)."""
        head = self.detail.strip().splitlines()[0] if self.detail.strip() else ""
        if self.category == "difference":
            raised = re.findall(r"(original|compiled) raised (\w+)", head)
            return f"{self.category}: {head.split(':')[0]}" + "".join(
                f", {side} raised {name}" for side, name in raised)
        head = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", head)
        head = re.sub(r"0x[0-9a-f]+|\b\d[\d.e+-]*\b", "N", head)
        head = re.sub(r"\b[a-z]\d+\b", "v", head)
        return f"{self.category}: {head[:120]}"


@dataclass
class Outcome:
    """What one case came to: the calls compared, refusals accepted, and its first finding."""

    calls: int = 0
    accepted_refusals: int = 0
    unstable: int = 0  # calls whose original did not repeat itself (not compared)
    finding: Finding | None = None


# ------------------------------------------------------------------------------------------
# modules
# ------------------------------------------------------------------------------------------

_numbers = itertools.count()


def load(source: str, directory: Path) -> tuple[types.ModuleType, Path]:
    """Write `source` to a new file in `directory` and import it (so `inspect.getsource`
    works); the module and its file."""
    path = directory / f"symcompile_fuzz_{os.getpid()}_{next(_numbers)}.py"
    return import_source(source, path, keep=False), path


def write_edit(path: Path, text: str) -> None:
    """Write `text` over `path` and move its modification time on (so caches see the edit)."""
    before = path.stat().st_mtime
    path.write_text(text, encoding="utf-8")
    os.utime(path, (before + 2, before + 2))


# ------------------------------------------------------------------------------------------
# judging one call
# ------------------------------------------------------------------------------------------


def _normal_message(text: str | None) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0x…", text or "")


def symbolic_error(obs: Observation) -> str | None:
    """The message of the SymbolicError the call raised (while iterating too), if any."""
    for exc_type, message in ((obs.exc_type, obs.exc_message),
                              (obs.iter_exc_type, obs.iter_exc_message)):
        if exc_type is not None and issubclass(exc_type, SymbolicError):
            return message or ""
    return None


def judge(original: Observation, compiled: Observation, accept_changed_file: bool = False,
          ) -> Finding | str | None:
    """A finding for the compiled call's observation against the original's; "accepted"
    for a refusal that says the file changed (where accepted); None when they agree."""
    refused = symbolic_error(compiled)
    if refused is not None and symbolic_error(original) is None:
        if INTERNAL in refused:
            return Finding("internal_error", refused)
        if accept_changed_file and CHANGED_FILE.search(refused):
            return "accepted"
        return Finding("refusal", refused)
    found = explain_observation_difference(original, compiled)
    if found:
        return Finding("difference", found)
    for name in ("exc_message", "iter_exc_message"):
        o, c = getattr(original, name), getattr(compiled, name)
        if _normal_message(o) != _normal_message(c):
            return Finding("difference", f"exception message differs: original {o!r}; "
                                         f"compiled {c!r}")
    return None


def module_state(namespace: dict[str, Any]) -> dict[str, Any]:
    """The module's globals a call may rebind (dunders and ENTRY left out)."""
    return {k: v for k, v in namespace.items() if not k.startswith("__") and k != "ENTRY"}


def _same_function(a: Any, b: Any) -> bool:
    """Two functions made by the same definition (a lambda a call made afresh on each side)."""
    return (isinstance(a, types.FunctionType) and isinstance(b, types.FunctionType)
            and a.__qualname__ == b.__qualname__
            and explain_difference(a.__defaults__, b.__defaults__) is None)


def state_difference(original: dict[str, Any], compiled: dict[str, Any]) -> str | None:
    if original.keys() != compiled.keys():
        return (f"module globals after the call differ: original has {sorted(original)}; "
                f"compiled has {sorted(compiled)}")
    for name in original:
        if _same_function(original[name], compiled[name]):
            continue
        found = explain_difference(original[name], compiled[name], name)
        if found:
            return f"module globals after the call differ: {found}"
    return None


# ------------------------------------------------------------------------------------------
# running a case
# ------------------------------------------------------------------------------------------


def _no_phase(_: str) -> None:
    return None


def _arguments(text: str, namespace: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    args, kwargs = eval(f"({text})", namespace)  # noqa: S307 - the campaign's own text
    return tuple(args), dict(kwargs)


def _observe_original(text: str, namespace: dict[str, Any], original: Any,
                      ) -> tuple[Observation, dict[str, Any]]:
    namespace["ENTRY"] = original
    args, kwargs = _arguments(text, namespace)
    return observe(original, args, kwargs), module_state(namespace)


def _restore(namespace: dict[str, Any], state: dict[str, Any]) -> None:
    namespace.clear()
    namespace.update(state)


def _compare_call(case: Case, text: str, namespace: dict[str, Any], original: Any,
                  compiled: Any, phase: Phase) -> Finding | str | None:
    """Observe the original and the compiled call from the same module state and judge. A
    difference counts only if the original, run again from that state, agrees with itself
    (hashes of ids, addresses in reprs... are not differences), and a NaN's sign only where
    the original's own code, cold and warmed up, gives one sign (as `assert_equivalent`
    decides); otherwise "unstable"."""
    before = dict(namespace)
    phase("original")
    start = time.perf_counter()
    o, after_original = _observe_original(text, namespace, original)
    original_took = time.perf_counter() - start
    _restore(namespace, before)
    namespace["ENTRY"] = compiled
    args, kwargs = _arguments(text, namespace)
    phase("compiled")
    start = time.perf_counter()
    c = observe(compiled, args, kwargs)
    took = time.perf_counter() - start
    phase("harness")
    if took > max(SLOW_SECONDS, 20 * original_took + 1):
        return Finding("hang", f"slow: the compiled call (compiling included) took {took:.1f} s, "
                               f"the original {original_took:.2f} s")
    verdict = judge(o, c, accept_changed_file=case.kind == "edits")
    if verdict is None:
        found = state_difference(after_original, module_state(namespace))
        verdict = Finding("difference", found) if found else None
    if isinstance(verdict, Finding) and verdict.category == "difference":
        after_compiled = dict(namespace)
        _restore(namespace, before)
        phase("original")
        again, after_again = _observe_original(text, namespace, original)
        unstable = judge(o, again) is not None or state_difference(after_original, after_again)
        if not unstable and NAN_SIGN_DIFFERS in verdict.detail:
            _restore(namespace, before)
            unstable = _nan_signs_vary(original, *_arguments(text, namespace))
        phase("harness")
        _restore(namespace, after_compiled)
        if unstable:
            return "unstable"
    return verdict


def run_generic(case: Case, directory: Path, phase: Phase = _no_phase) -> Outcome:
    """Run `case`'s steps (see the module docstring); stop at the first finding."""
    outcome = Outcome()
    phase("harness")
    module, path = load(case.source, directory)
    namespace = vars(module)
    original = namespace[case.entry]
    phase("compiled")
    try:
        compiled = symcompile.symbolic(original, **case.options)
    except Exception as exc:  # noqa: BLE001 - every exception here is a finding
        category = "internal_error" if INTERNAL in str(exc) else "crash"
        outcome.finding = Finding(category, f"symbolic() raised {type(exc).__name__}: {exc}")
        return outcome
    for index, (what, text) in enumerate(case.steps):
        phase("harness")
        if what == "exec":
            exec(text, namespace)  # noqa: S102 - the campaign's own text
        elif what == "edit":
            write_edit(path, text)
        else:
            verdict = _compare_call(case, text, namespace, original, compiled, phase)
            outcome.calls += 1
            if verdict == "accepted":
                outcome.accepted_refusals += 1
            elif verdict == "unstable":
                outcome.unstable += 1
            elif isinstance(verdict, Finding):
                verdict.step = index
                outcome.finding = verdict
                return outcome
    phase("harness")
    return outcome


def check_function(kind: str) -> Callable[[Case, Path, Phase], Outcome]:
    """How cases of `kind` run: the kind's own `check`, or `run_generic`."""
    module = importlib.import_module(f"tests.fuzz.gen_{kind}")
    return getattr(module, "check", run_generic)


def run_case(case: Case, directory: Path, phase: Phase = _no_phase) -> Outcome:
    """Run `case`; an exception escaping the harness is a crash finding (with its traceback)."""
    try:
        return check_function(case.kind)(case, directory, phase)
    except Exception as exc:  # noqa: BLE001 - reported as a crash
        category = "internal_error" if INTERNAL in str(exc) else "crash"
        return Outcome(finding=Finding(category, f"{type(exc).__name__}: {exc}\n"
                                                 f"{traceback.format_exc()}"))


def generate(kind: str, seed: int) -> Case:
    return importlib.import_module(f"tests.fuzz.gen_{kind}").generate(seed)


# ------------------------------------------------------------------------------------------
# reproductions
# ------------------------------------------------------------------------------------------


def replay(case: Case) -> Outcome:
    """Run `case` in this process; raise AssertionError describing its finding, if any."""
    with tempfile.TemporaryDirectory() as name:
        outcome = run_case(case, Path(name))
    if outcome.finding is not None:
        raise AssertionError(f"{outcome.finding.category} at step {outcome.finding.step}:\n"
                             f"{outcome.finding.detail}")
    return outcome


def reproduction(case: Case, finding: Finding) -> str:
    """A standalone script (run from the repository root) that replays `case`."""
    detail = textwrap.indent(finding.detail.strip(), "    ")
    detail = detail.replace(chr(92), chr(92) * 2).replace(chr(34) * 3, chr(39) * 3)
    steps = "".join(f"    ({what!r}, {text!r}),\n" for what, text in case.steps)
    return (
        f'"""Fuzz finding ({case.kind}, seed {case.seed}): {finding.category}.\n\n'
        f"{detail}\n\n"
        f"Run from the repository root: python <this file>\n"
        f'"""\n\n'
        f"import os\nimport sys\n\nsys.path.insert(0, os.getcwd())\n\n"
        f"from tests.fuzz.core import Case, replay  # noqa: E402\n\n"
        f"SOURCE = {case.source!r}\n\n"
        f"STEPS = [\n{steps}]\n\n"
        f"CASE = Case(kind={case.kind!r}, seed={case.seed!r}, source=SOURCE, steps=STEPS,\n"
        f"            options={case.options!r}, entry={case.entry!r}, extra={case.extra!r})\n\n"
        f"if __name__ == '__main__':\n"
        f"    print('--- module ---')\n"
        f"    print(SOURCE)\n"
        f"    replay(CASE)\n"
        f"    print('no finding: the case passes now')\n"
    )
