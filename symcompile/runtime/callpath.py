"""What the code of a `@symbolic` function calls into (`cache.FunctionCache`'s entry methods:
first call, failed guard, failed type check, check mode), and the rules that keep it safe.

- `symcompile.disable()` and SYMCOMPILE_DISABLE=1 make every call run the original (`disabled`).

- The targets are reached weakly (`WeakCall`): forwarding code holds its target in its
  constants, which the cycle collector does not traverse, so a strong reference there would
  keep a dropped function, its versions and their IR alive forever.
- Neither the code nor the state behind it is ever pickled (`refused_pickling`): a `@symbolic`
  function is pickled by reference to its module (runtime/pickling.py).
- A call never waits for a compilation (`entry`): compiling runs user code (a pass given with
  `passes=`, a `__getattr__`...), which may call the function, from this thread or another one
  it waits for. Such a call, and any call needing a version another thread is compiling now
  (`Busy`), runs the original Python instead.
- An exception leaving the code a call runs shows the user's frames only (`tidied`): on a first
  call the forwarding code drops its own frame and the call path's from the traceback, so it
  reads as a later call's does (user's call, compiled function, what it called); so does a
  compiled version whose check on entry failed (`return recompile(a, b)`, see
  `loader.load`), for the version that ran instead. Exceptions from symcompile's own code (the
  compiler's) keep every frame.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import threading
import types
import weakref
from typing import Any, Callable, Iterator, Protocol, TypeVar

# per thread, `compiling`: the ids of the functions it is compiling now
_local = threading.local()
# how many `symcompile.disable()` blocks are open now (in any thread)
_disable_depth = 0
# the code of the call path's own frames, between the forwarding code and the code it runs
_PATH_CODES: set[types.CodeType] = set()

F = TypeVar("F", bound=Callable[..., Any])


def disabled() -> bool:
    """True inside `disable()` or when the environment sets SYMCOMPILE_DISABLE (not 0)."""
    return _disable_depth > 0 or os.environ.get("SYMCOMPILE_DISABLE", "0") not in ("", "0")


def change_disable_depth(step: int) -> None:
    """One more (`step` 1) or one fewer (-1) `disable()` block open; the caller holds its lock."""
    global _disable_depth
    _disable_depth += step


def on_call_path(function: F) -> F:
    """Mark `function` a step of the call path: a traceback through it leaves its frame out
    (see `tidied`)."""
    _PATH_CODES.add(function.__code__)
    return function


def tidied(traceback: types.TracebackType | None,
           filename: str) -> types.TracebackType | None:
    """The traceback of an exception leaving forwarding code or a failed check on entry (its
    first frame), without that frame and the call path's frames after it when the code they
    led to is the user's (from `filename`: the compiled version or the original); otherwise
    as it is. Exact: a frame is left out only by its code object."""
    inner = traceback.tb_next if traceback is not None else None
    while inner is not None and inner.tb_frame.f_code in _PATH_CODES:
        inner = inner.tb_next
    if inner is None or inner.tb_frame.f_code.co_filename != filename:
        return traceback
    return inner


class HasOriginal(Protocol):
    original: Callable[..., Any]


class Busy(Exception):
    """Another thread is compiling the version a call needs."""


def refused_pickling(original: Callable[..., Any] | None) -> pickle.PicklingError:
    """The error for pickling a `@symbolic` function by value (its compiled state, or code
    calling into it: what cloudpickle reaches in a function it cannot find by reference)."""
    module = getattr(original, "__module__", None)
    qualname = getattr(original, "__qualname__", "")
    if "<locals>" in qualname.split("."):
        why = ("this one is defined inside a function: decorate a function defined at the top "
               "level of a module")
    elif module == "__main__":
        why = ("this one is defined in `__main__` (a script or notebook), which another process "
               "does not share (cloudpickle, which dask and Ray use, sends such a function by "
               "value): define it in a module the other process can import")
    else:
        why = ("it must be found there: decorate it where it is defined, at the top level of a "
               "module")
    name = f"{module}.{qualname}" if original is not None else "a freed @symbolic function"
    return pickle.PicklingError(
        f"cannot pickle the compiled state of {name}: a @symbolic function is pickled by "
        f"reference to its module and qualified name, and {why}; its compiled code is never "
        f"pickled")


class WeakCall:
    """Calls a method of an object reached through a weak reference (the public function
    holds its state, so the state outlives every call of its code)."""

    __slots__ = ("target", "name")

    def __init__(self, target: object, name: str) -> None:
        self.target = weakref.ref(target)
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        target = self.target()
        if target is None:
            raise ReferenceError("the @symbolic function behind this code was freed")
        return getattr(target, self.name)(*args, **kwargs)

    def __reduce__(self) -> str:
        raise refused_pickling(getattr(self.target(), "original", None))


on_call_path(WeakCall.__call__)


def compiling(state: object) -> bool:
    """Whether this thread is compiling `state` now."""
    return id(state) in getattr(_local, "compiling", ())


@contextlib.contextmanager
def marked_compiling(state: object) -> Iterator[None]:
    """This thread compiles `state` inside the block."""
    active: set[int] = _local.__dict__.setdefault("compiling", set())
    active.add(id(state))
    try:
        yield
    finally:
        active.discard(id(state))


def entry(method: Callable[..., Any]) -> Callable[..., Any]:
    """An entry method: it runs the original Python instead when this thread is compiling the
    function or the version it needs is being compiled by another thread (`Busy`)."""
    @functools.wraps(method)
    def enter(state: HasOriginal, *args: Any, **kwargs: Any) -> Any:
        if compiling(state):
            return state.original(*args, **kwargs)
        try:
            return method(state, *args, **kwargs)
        except Busy:
            return state.original(*args, **kwargs)
    on_call_path(method)
    return on_call_path(enter)
