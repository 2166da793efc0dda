"""Differential oracle: run a function, record everything observable, compare two runs.

Every differential test in the project, and check mode (`@symbolic(check=True)`), goes
through this module.  The contract
of ``symcompile`` is that a compiled function is *observably identical* to the
original, so an :class:`Observation` records everything a caller could see:

* the outcome: a returned value, a raised exception (its type, its message --
  ``str(exc)``, object addresses aside -- and the types of its ``__cause__`` and
  ``__context__``), or -- when the result is an iterator
  such as a generator -- the items it yields (up to :data:`ITERATION_CAP`) and
  the exception, if any, raised while iterating;
* text written to ``sys.stdout`` and ``sys.stderr``, and for iterators how much
  of it had been written at each step (so eager vs. lazy printing differs);
* the warnings issued, in order: category and message text (every one, under
  the "always" filter, so their number is compared too);
* the arguments after the call (so mutation of arguments is compared);
* aliasing: which objects in the result *are* (``is``) mutable objects reachable
  from the arguments, and which result arrays share memory with argument arrays.

Values are compared by :func:`same_value`, which is exact and type-strict:
``1``, ``1.0`` and ``True`` all differ; floats are compared by bits except that
a NaN equals any NaN of the same sign (so ``0.0`` and ``-0.0`` differ, and so do
``nan`` and ``-nan``; :func:`assert_equivalent` accepts NaNs of either sign only
where the original itself gives either); numpy scalars and arrays must agree in
type, dtype, shape and bits (NaN payloads and signs aside: NumPy's own scalar
and array loops give different signs to ``nan * -nan``).
:func:`explain_difference` says where the first difference is.

Typical use::

    from symcompile.runtime.oracle import assert_equivalent
    assert_equivalent(f, compiled_f, (1.0, 2.0))
"""

from __future__ import annotations

import contextlib
import copy
import io
import math
import re
import types
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "ITERATION_CAP",
    "Observation",
    "assert_equivalent",
    "explain_difference",
    "explain_observation_difference",
    "observe",
    "same_value",
]

#: At most this many items are taken from an iterator returned by the function.
ITERATION_CAP = 1000

# Objects of these types have no observable identity worth tracking: a compiled
# function may legitimately return an equal-but-distinct float where the
# original returned its argument (``x * 1`` -> ``x``), or rebuild a tuple.
# (Objects inside tuples are still tracked.)
_IMMUTABLE_ATOMS: tuple[type, ...] = (
    tuple,
    int,
    float,
    complex,
    bool,
    str,
    bytes,
    type(None),
    type(Ellipsis),
    type(NotImplemented),
    range,
    slice,
    frozenset,
    np.generic,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.ModuleType,
)

_TooHardError = getattr(getattr(np, "exceptions", np), "TooHardError", Exception)

_MAX_WALK_DEPTH = 6
_MAX_WALK_NODES = 10_000


# --------------------------------------------------------------------------
# value comparison
# --------------------------------------------------------------------------


def same_value(a: Any, b: Any) -> bool:
    """Exact, type-strict equality (see the module docstring)."""
    return explain_difference(a, b) is None


def explain_difference(a: Any, b: Any, path: str = "value") -> str | None:
    """Return ``None`` if ``a`` and ``b`` are the same value, else a description
    of the first difference found, prefixed by its ``path`` (e.g. ``value[1]``)."""
    return _diff(a, b, path, set())


def _short(x: Any, limit: int = 200) -> str:
    try:
        text = repr(x)
    except Exception as exc:  # pragma: no cover - repr itself broken
        text = f"<unrepresentable {type(x).__name__}: {type(exc).__name__}>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def _tname(x: Any) -> str:
    t = type(x)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


NAN_SIGN_DIFFERS = "sign of NaN differs"


def _float_diff(a: float, b: float, path: str) -> str | None:
    if math.isnan(a) or math.isnan(b):
        if not (math.isnan(a) and math.isnan(b)):
            return f"{path}: {a!r} vs {b!r} (NaN on one side only)"
        if math.copysign(1.0, a) != math.copysign(1.0, b):
            return f"{path}: {a!r} vs {b!r} ({NAN_SIGN_DIFFERS})"
        return None
    if a != b:
        return f"{path}: {a!r} vs {b!r}"
    if math.copysign(1.0, a) != math.copysign(1.0, b):
        return f"{path}: {a!r} vs {b!r} (sign of zero differs)"
    return None


def _diff(a: Any, b: Any, path: str, active: set[tuple[int, int]]) -> str | None:
    if type(a) is not type(b):
        return f"{path}: type {_tname(a)} vs {_tname(b)} ({_short(a)} vs {_short(b)})"
    if a is b:
        return None

    if isinstance(a, bool) or a is None or a is Ellipsis or a is NotImplemented:
        return None if a == b else f"{path}: {a!r} vs {b!r}"
    if isinstance(a, int):
        return None if a == b else f"{path}: {_short(a)} vs {_short(b)}"
    if isinstance(a, float):
        return _float_diff(a, b, path)
    if isinstance(a, complex):
        return _float_diff(a.real, b.real, path + ".real") or _float_diff(a.imag, b.imag, path + ".imag")
    if isinstance(a, (str, bytes, bytearray, range, slice)):
        return None if a == b else f"{path}: {_short(a)} vs {_short(b)}"
    if isinstance(a, np.ndarray):
        return _array_diff(a, b, path, active)
    if isinstance(a, np.generic):
        return _numpy_scalar_diff(a, b, path, active)
    if isinstance(a, (types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType)):
        # Generators are compared through what they yield, by observe(); as
        # plain values only their type is compared.
        return None

    key = (id(a), id(b))
    if key in active:  # recursive structure: assume equal on the cycle
        return None
    active.add(key)
    try:
        if isinstance(a, (list, tuple)):
            if len(a) != len(b):
                return f"{path}: length {len(a)} vs {len(b)} ({_short(a)} vs {_short(b)})"
            for index, (x, y) in enumerate(zip(a, b)):
                found = _diff(x, y, f"{path}[{index}]", active)
                if found:
                    return found
            return None
        if isinstance(a, dict):
            if len(a) != len(b):
                return f"{path}: {len(a)} keys vs {len(b)} keys ({_short(a)} vs {_short(b)})"
            # Dict iteration order is observable, so keys are compared in order.
            for index, ((ka, va), (kb, vb)) in enumerate(zip(a.items(), b.items())):
                found = _diff(ka, kb, f"{path}.keys()[{index}]", active)
                if found:
                    return found
                found = _diff(va, vb, f"{path}[{ka!r}]", active)
                if found:
                    return found
            return None
        if isinstance(a, (set, frozenset)):
            return _set_diff(a, b, path, active)
        if isinstance(a, BaseException):
            return _diff(a.args, b.args, path + ".args", active)
        return _generic_diff(a, b, path, active)
    finally:
        active.discard(key)


def _set_diff(a: set | frozenset, b: set | frozenset, path: str, active: set[tuple[int, int]]) -> str | None:
    # Set iteration order is an implementation detail; compare as multisets of
    # strictly-equal elements (``{1}`` and ``{1.0}`` are == but differ here).
    if len(a) != len(b):
        return f"{path}: {len(a)} elements vs {len(b)} elements ({_short(a)} vs {_short(b)})"
    unmatched = list(b)
    for x in a:
        for position, y in enumerate(unmatched):
            if _diff(x, y, path, active) is None:
                del unmatched[position]
                break
        else:
            return f"{path}: element {_short(x)} has no counterpart in {_short(b)}"
    return None


def _generic_diff(a: Any, b: Any, path: str, active: set[tuple[int, int]]) -> str | None:
    cls = type(a)
    if isinstance(a, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, type)):
        return None if a is b else f"{path}: different objects {_short(a)} vs {_short(b)}"
    if cls.__eq__ is object.__eq__ and hasattr(a, "__dict__"):
        # Plain objects without their own equality: compare their state.
        return _diff(vars(a), vars(b), path + ".__dict__", active)
    try:
        equal = a == b
        if isinstance(equal, np.ndarray):
            equal = bool(equal.all())
        equal = bool(equal)
    except Exception as exc:
        return f"{path}: cannot compare {_tname(a)} values ({type(exc).__name__}: {exc})"
    return None if equal else f"{path}: {_short(a)} vs {_short(b)}"


def _numpy_scalar_diff(a: np.generic, b: np.generic, path: str, active: set[tuple[int, int]]) -> str | None:
    if a.dtype != b.dtype:  # pragma: no cover - same type implies same dtype for builtin scalars
        return f"{path}: dtype {a.dtype} vs {b.dtype}"
    return _array_diff(np.asarray(a), np.asarray(b), path, active, scalar=True)


def _array_diff(
    a: np.ndarray, b: np.ndarray, path: str, active: set[tuple[int, int]], scalar: bool = False
) -> str | None:
    what = "numpy scalar" if scalar else "array"
    if a.dtype != b.dtype:
        return f"{path}: {what} dtype {a.dtype} vs {b.dtype}"
    if a.shape != b.shape:
        return f"{path}: array shape {a.shape} vs {b.shape}"
    if not scalar and a.flags.writeable != b.flags.writeable:
        return f"{path}: array writeable flag {a.flags.writeable} vs {b.flags.writeable}"
    kind = a.dtype.kind
    if kind in "fc":
        parts = [("", a, b)] if kind == "f" else [(".real", a.real, b.real), (".imag", a.imag, b.imag)]
        for suffix, x, y in parts:
            x_nan = np.isnan(x)
            y_nan = np.isnan(y)
            # Same value and same sign bit <=> same bits, for non-NaN floats.
            same = (x_nan & y_nan) | (~x_nan & ~y_nan & (x == y) & (np.signbit(x) == np.signbit(y)))
            if not np.all(same):
                where = tuple(int(i) for i in np.argwhere(~np.asarray(same))[0])
                xv = x[where] if where else x[()]
                yv = y[where] if where else y[()]
                loc = "" if scalar else f" at index {where}"
                return f"{path}{suffix}: {what} differs{loc}: {xv!r} vs {yv!r} ({_short(a)} vs {_short(b)})"
        return None
    if kind == "O":
        for index in np.ndindex(a.shape):
            found = _diff(a[index], b[index], f"{path}[{index}]", active)
            if found:
                return found
        return None
    try:
        equal = bool(np.array_equal(a, b))
    except Exception as exc:  # pragma: no cover - exotic dtypes
        return f"{path}: cannot compare arrays ({type(exc).__name__}: {exc})"
    if not equal:
        return f"{path}: {what} values differ ({_short(a)} vs {_short(b)})"
    return None


# --------------------------------------------------------------------------
# observation
# --------------------------------------------------------------------------


@dataclass
class Observation:
    """Everything observable about one call (see the module docstring).

    ``outcome`` is ``"return"``, ``"raise"`` or ``"iterate"`` (the function
    returned an iterator, which was consumed into ``items``)."""

    func_name: str
    inputs: tuple[tuple[Any, ...], dict[str, Any]]
    outcome: str
    value: Any = None
    exc_type: type[BaseException] | None = None
    exc_message: str | None = None
    exc_chain: tuple[type | None, type | None] = (None, None)
    iterator_type: type | None = None
    items: list[Any] = field(default_factory=list)
    truncated: bool = False
    iter_exc_type: type[BaseException] | None = None
    iter_exc_message: str | None = None
    iter_exc_chain: tuple[type | None, type | None] = (None, None)
    stdout: str = ""
    stderr: str = ""
    stdout_marks: list[int] = field(default_factory=list)
    warnings: list[type[Warning]] = field(default_factory=list)
    warning_messages: list[str] = field(default_factory=list)
    args_after: tuple[Any, ...] = ()
    kwargs_after: dict[str, Any] = field(default_factory=dict)
    aliases: list[tuple[str, str]] = field(default_factory=list)
    shared_memory: list[tuple[str, str]] = field(default_factory=list)

    @property
    def result_is_argument(self) -> list[bool]:
        """For each positional argument: is the returned value that very object?"""
        return [("result", f"args[{i}]") in self.aliases for i in range(len(self.args_after))]

    @property
    def result_is_keyword_argument(self) -> dict[str, bool]:
        """For each keyword argument: is the returned value that very object?"""
        return {k: ("result", f"kwargs[{k!r}]") in self.aliases for k in self.kwargs_after}

    @property
    def returned(self) -> bool:
        """True when the call finished without raising (iterators included)."""
        return self.outcome != "raise"

    def describe(self) -> str:
        """A one-line summary of the outcome, for error messages."""
        if self.outcome == "return":
            return f"returned {_short(self.value)}"
        if self.outcome == "raise":
            return f"raised {self.exc_type.__name__}: {self.exc_message}"  # type: ignore[union-attr]
        tail = ""
        if self.iter_exc_type is not None:
            tail = f", then raised {self.iter_exc_type.__name__}: {self.iter_exc_message}"
        elif self.truncated:
            tail = f", truncated at {ITERATION_CAP} items"
        return f"returned {self.iterator_type.__name__} yielding {_short(self.items)}{tail}"  # type: ignore[union-attr]


def _is_tracked(obj: Any) -> bool:
    return not isinstance(obj, _IMMUTABLE_ATOMS)


def _occurrences(roots: list[tuple[str, Any]]) -> Iterator[tuple[str, Any, str | None]]:
    """Yield ``(path, object, first_path)`` for every place an object occurs under
    ``roots`` (through lists, tuples, dict values and object arrays), depth-first
    in order; ``first_path`` is where a tracked (mutable) object occurred first,
    or ``None`` at its first occurrence.  Repeated objects are not descended into."""
    first: dict[int, str] = {}
    count = 0
    for root_path, root in roots:
        stack: list[tuple[str, Any, int]] = [(root_path, root, 0)]
        while stack and count < _MAX_WALK_NODES:
            path, obj, depth = stack.pop()
            count += 1
            tracked = _is_tracked(obj)
            if tracked and id(obj) in first:
                yield path, obj, first[id(obj)]
                continue
            if tracked:
                first[id(obj)] = path
            yield path, obj, None
            if depth >= _MAX_WALK_DEPTH:
                continue
            children: list[tuple[str, Any]] = []
            if isinstance(obj, (list, tuple)):
                children = [(f"{path}[{i}]", x) for i, x in enumerate(obj)]
            elif isinstance(obj, dict):
                children = [(f"{path}[{k!r}]", v) for k, v in obj.items()]
            elif isinstance(obj, np.ndarray) and obj.dtype.kind == "O" and obj.size <= 100:
                children = [(f"{path}[{i}]", obj[i]) for i in np.ndindex(obj.shape)]
            stack.extend((p, x, depth + 1) for p, x in reversed(children))


def _chain(exc: BaseException) -> tuple[type | None, type | None]:
    """Types of an exception's explicit cause and implicit context (None if absent)."""
    cause = type(exc.__cause__) if exc.__cause__ is not None else None
    context = type(exc.__context__) if exc.__context__ is not None else None
    return cause, context


def _shares_memory(x: np.ndarray, y: np.ndarray) -> bool:
    try:
        # (the stubs of NumPy 2.4 allow only -1 and 0 as max_work, those of 2.5 any int)
        return bool(np.shares_memory(x, y, max_work=100_000))  # type: ignore[arg-type, unused-ignore]
    except _TooHardError:  # pragma: no cover - huge strided arrays only
        return bool(np.may_share_memory(x, y))


def _aliasing(result_root: Any, result_path: str, args: tuple, kwargs: dict) -> tuple[list, list]:
    """Identity structure of (arguments, result) and result/argument memory sharing.

    The first list has ``(path, earlier_path)`` for every repeated occurrence of
    a mutable object: ``("result", "args[0]")`` means the result *is* the first
    argument; ``("result[1]", "result[0]")`` that the result holds one object
    twice; ``("args[1][0]", "args[0]")`` that an argument now holds another.
    The second has ``(result path, argument path)`` for arrays sharing memory."""
    roots = [(f"args[{i}]", x) for i, x in enumerate(args)] + [(f"kwargs[{k!r}]", v) for k, v in kwargs.items()]
    aliases: list[tuple[str, str]] = []
    arg_arrays: list[tuple[str, np.ndarray]] = []
    for path, obj, earlier in _occurrences(roots + [(result_path, result_root)]):
        if earlier is not None:
            aliases.append((path, earlier))
        if isinstance(obj, np.ndarray) and not path.startswith(result_path):
            arg_arrays.append((path, obj))
    shared: list[tuple[str, str]] = []
    for path, obj, _ in _occurrences([(result_path, result_root)]):
        if isinstance(obj, np.ndarray):
            for arg_path, arr in arg_arrays:
                if _shares_memory(obj, arr):
                    shared.append((path, arg_path))
    return aliases, shared


def observe(func: Callable[..., Any], args: tuple[Any, ...] = (), kwargs: Mapping[str, Any] | None = None) -> Observation:
    """Call ``func`` on a deep copy of ``args``/``kwargs`` and record everything
    observable about the call.  The caller's ``args`` and ``kwargs`` are not
    touched, so the same inputs can be observed repeatedly."""
    kwargs = dict(kwargs or {})
    # One deepcopy for both, so objects shared between arguments stay shared.
    call_args, call_kwargs = copy.deepcopy((tuple(args), kwargs))
    inputs = copy.deepcopy((tuple(args), kwargs))
    obs = Observation(func_name=getattr(func, "__qualname__", repr(func)), inputs=inputs, outcome="return")
    out = io.StringIO()
    err = io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                result = func(*call_args, **call_kwargs)
            except (Exception, SystemExit) as exc:
                obs.outcome = "raise"
                obs.exc_type = type(exc)
                obs.exc_message = str(exc)
                obs.exc_chain = _chain(exc)
                result = None
            obs.stdout_marks.append(len(out.getvalue()))
            if obs.outcome == "return" and isinstance(result, Iterator):
                obs.outcome = "iterate"
                obs.iterator_type = type(result)
                try:
                    for item in result:
                        obs.items.append(item)
                        obs.stdout_marks.append(len(out.getvalue()))
                        if len(obs.items) >= ITERATION_CAP:
                            obs.truncated = True
                            break
                except (Exception, SystemExit) as exc:
                    obs.iter_exc_type = type(exc)
                    obs.iter_exc_message = str(exc)
                    obs.iter_exc_chain = _chain(exc)
                finally:
                    close = getattr(result, "close", None)
                    if obs.truncated and callable(close):
                        with contextlib.suppress(Exception):
                            close()
            elif obs.outcome == "return":
                obs.value = result
    obs.stdout = out.getvalue()
    obs.stderr = err.getvalue()
    obs.warnings = [w.category for w in caught]
    obs.warning_messages = [str(w.message) for w in caught]
    obs.args_after = call_args
    obs.kwargs_after = call_kwargs
    if obs.outcome == "return":
        obs.aliases, obs.shared_memory = _aliasing(result, "result", call_args, call_kwargs)
    elif obs.outcome == "iterate":
        obs.aliases, obs.shared_memory = _aliasing(obs.items, "items", call_args, call_kwargs)
    return obs


def _text_diff(name: str, a: str, b: str) -> str | None:
    if a == b:
        return None
    position = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, position - 30)
    return (
        f"{name} differs at character {position}:\n"
        f"    original: {a[start:position + 40]!r}\n"
        f"    compiled: {b[start:position + 40]!r}\n"
        f"  full original {name}: {_short(a, 1000)}\n"
        f"  full compiled {name}: {_short(b, 1000)}"
    )


# an object's address in a message (`<Foo object at 0x7f...>`): each run has its own copies
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _same_message(a: str | None, b: str | None) -> bool:
    """Whether two exception messages are the same, object addresses aside."""
    return a == b or (a is not None and b is not None
                      and _ADDRESS.sub("0x", a) == _ADDRESS.sub("0x", b))


def _chain_diff(o_chain: tuple, c_chain: tuple, o: Observation, c: Observation) -> str:
    def name(t: type | None) -> str:
        return "none" if t is None else t.__name__

    return (
        "exception chaining differs (type of __cause__, type of __context__): "
        f"original ({name(o_chain[0])}, {name(o_chain[1])}); compiled ({name(c_chain[0])}, {name(c_chain[1])})\n"
        f"  original {o.describe()}\n  compiled {c.describe()}"
    )


def explain_observation_difference(original: Observation, compiled: Observation) -> str | None:
    """Return ``None`` if the two observations are indistinguishable, else a
    description of the first difference (outcome, value or exception type and
    message, stdout/stderr, warnings, argument mutation, aliasing)."""
    o, c = original, compiled
    if o.outcome != c.outcome:
        return f"outcome differs: original {o.describe()}; compiled {c.describe()}"
    if o.outcome == "raise":
        if o.exc_type is not c.exc_type:
            return f"exception type differs: original {o.describe()}; compiled {c.describe()}"
        if not _same_message(o.exc_message, c.exc_message):
            return f"exception message differs: original {o.describe()}; compiled {c.describe()}"
        if o.exc_chain != c.exc_chain:
            return _chain_diff(o.exc_chain, c.exc_chain, o, c)
    elif o.outcome == "return":
        found = explain_difference(o.value, c.value, "result")
        if found:
            return f"return value differs: {found}\n  original {o.describe()}\n  compiled {c.describe()}"
    else:
        if o.iterator_type is not c.iterator_type:
            return f"iterator type differs: original {o.describe()}; compiled {c.describe()}"
        found = explain_difference(o.items, c.items, "items")
        if found:
            return f"yielded items differ: {found}\n  original {o.describe()}\n  compiled {c.describe()}"
        if o.truncated != c.truncated:
            return f"iterator length differs: original {o.describe()}; compiled {c.describe()}"
        if o.iter_exc_type is not c.iter_exc_type or \
                not _same_message(o.iter_exc_message, c.iter_exc_message):
            return f"exception during iteration differs: original {o.describe()}; compiled {c.describe()}"
        if o.iter_exc_chain != c.iter_exc_chain:
            return _chain_diff(o.iter_exc_chain, c.iter_exc_chain, o, c)
    for name in ("stdout", "stderr"):
        found = _text_diff(name, getattr(o, name), getattr(c, name))
        if found:
            return found
    if o.stdout_marks != c.stdout_marks:
        return (
            "stdout interleaving with iteration differs (characters printed by the call and after "
            f"each item): original {o.stdout_marks}; compiled {c.stdout_marks}"
        )
    if o.warnings != c.warnings or o.warning_messages != c.warning_messages:
        ow = [f"{w.__name__}: {m}" for w, m in zip(o.warnings, o.warning_messages)]
        cw = [f"{w.__name__}: {m}" for w, m in zip(c.warnings, c.warning_messages)]
        return f"warnings differ:\n  original {ow}\n  compiled {cw}"
    found = explain_difference(o.args_after, c.args_after, "args")
    if found:
        return f"arguments after the call differ (mutation): {found}"
    found = explain_difference(o.kwargs_after, c.kwargs_after, "kwargs")
    if found:
        return f"keyword arguments after the call differ (mutation): {found}"
    if o.aliases != c.aliases:
        return (
            "aliasing differs ((result part, argument it *is*) pairs):\n"
            f"  original {o.aliases}\n  compiled {c.aliases}"
        )
    if o.shared_memory != c.shared_memory:
        return (
            "array memory sharing differs ((result array, argument array it shares memory with) pairs):\n"
            f"  original {o.shared_memory}\n  compiled {c.shared_memory}"
        )
    return None


def assert_equivalent(
    original: Callable[..., Any],
    compiled: Callable[..., Any],
    args: tuple[Any, ...] = (),
    kwargs: Mapping[str, Any] | None = None,
) -> Observation:
    """Observe ``original`` and ``compiled`` on (copies of) the same inputs and
    raise ``AssertionError`` describing the first observable difference.
    Exception messages are compared too (object addresses aside).  Returns the
    original's observation."""
    o = observe(original, args, kwargs)
    c = observe(compiled, args, kwargs)
    found = explain_observation_difference(o, c)
    if found and NAN_SIGN_DIFFERS in found and _nan_signs_vary(original, args, kwargs):
        found = None
    if found:
        name = getattr(original, "__qualname__", repr(original))
        raise AssertionError(
            f"{name}{_format_call(args, kwargs)}: compiled function is not equivalent to the original\n  {found}"
        )
    return o


# CPython 3.11+ specializes an operation after this many runs at most (3.11: 8, 3.13: 2)
_WARM_UP_CALLS = 16


def _nan_signs_vary(func: Callable[..., Any], args: tuple[Any, ...],
                    kwargs: Mapping[str, Any] | None) -> bool:
    """Whether the original itself gives NaNs of other signs on the same arguments: `a * b` and
    `a + b` of two NaNs of different signs give the right one's sign until the adaptive
    interpreter specializes the operation, the left one's after. Compares a fresh copy of its
    code, unspecialized, with that copy after warming up."""
    code = getattr(func, "__code__", None)
    if not isinstance(code, types.CodeType):
        return False
    fresh = types.FunctionType(code.replace(), func.__globals__, func.__name__,
                               func.__defaults__, func.__closure__)
    fresh.__kwdefaults__ = func.__kwdefaults__
    cold = observe(fresh, args, kwargs)
    for _ in range(_WARM_UP_CALLS):
        observe(fresh, args, kwargs)
    found = explain_observation_difference(cold, observe(fresh, args, kwargs))
    return found is not None and NAN_SIGN_DIFFERS in found


def _format_call(args: tuple[Any, ...], kwargs: Mapping[str, Any] | None) -> str:
    parts = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in (kwargs or {}).items()]
    return "(" + ", ".join(parts) + ")"
