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
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import threading
import weakref
from typing import Any, Callable, Iterator, Protocol

# per thread, `compiling`: the ids of the functions it is compiling now
_local = threading.local()
# how many `symcompile.disable()` blocks are open now (in any thread)
_disable_depth = 0


def disabled() -> bool:
    """True inside `disable()` or when the environment sets SYMCOMPILE_DISABLE (not 0)."""
    return _disable_depth > 0 or os.environ.get("SYMCOMPILE_DISABLE", "0") not in ("", "0")


def change_disable_depth(step: int) -> None:
    """One more (`step` 1) or one fewer (-1) `disable()` block open; the caller holds its lock."""
    global _disable_depth
    _disable_depth += step


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
    return enter
