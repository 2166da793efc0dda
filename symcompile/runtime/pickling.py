"""Pickling compiled code: by reference, never the generated code itself.

A `@symbolic` function is a plain Python function, and `pickle` stores a function by its
module and qualified name: one decorated where it is defined pickles like any function and
unpickles, in any process, as the compiled function its module makes (compiled again there on
its first call). A compiled object (`symbolic(net)`) is a bound method of such a function; a
bound method pickles as `getattr(obj, name)`, which would give back the plain `__call__`.
`register()` (run when `symcompile` is imported) makes `pickle` and `copy` store it as the
object plus the options it was compiled with, and `compiled_object` compiles it again on
loading. cloudpickle (what dask falls back to, and Ray uses) stores every bound method as
`MethodType(function, self)` ahead of `copyreg`, and the function of a compiled object by value,
which its compiled state refuses: `register_cloudpickle` gives it the same reduction (done for
`cloudpickle` by `register()` when it is installed), refusing an object whose class it would
send by value (without the source compiling it again needs). What cannot be pickled by
reference raises a `pickle.PicklingError` saying why.
"""

from __future__ import annotations

import copyreg
import importlib
import importlib.util
import pickle
import types
from collections.abc import MutableMapping
from typing import Any, Callable, Sequence

from ..errors import SymbolicError
from ..passes import pipeline
from ..passes.pipeline import Pass
from . import api, compiler


def compiled_object(obj: object, passes: Sequence[Pass] | None, guards: bool, fastmath: bool,
                    comments: bool, check: bool) -> Any:
    """`symbolic(obj, ...)` again: what a pickled compiled object loads as; a SymbolicError
    saying why where it cannot be compiled (its `__call__`'s source cannot be read here)."""
    options = compiler.Options(passes=pipeline.PASSES if passes is None else tuple(passes),
                               guards=guards, fastmath=fastmath, comments=comments)
    try:
        return api.compiled_object(obj, options, check)
    except SymbolicError as error:
        kind = type(obj)
        raise SymbolicError(
            f"cannot load the compiled object {kind.__module__}.{kind.__qualname__} in this "
            f"process: it is compiled again where it is loaded, and {error.message}",
            hint="define its class in a module this process can import (cloudpickle, which "
                 "dask and Ray use, sends a class defined in __main__, a script's or a "
                 "notebook's, by value: its source stays behind)") from error


def _reachable(value: object) -> bool:
    """Whether `pickle` can store `value` by its module and qualified name."""
    module_name = getattr(value, "__module__", None)
    names = getattr(value, "__qualname__", "").split(".")
    if module_name is None or "<locals>" in names:
        return False
    try:
        found: object = importlib.import_module(module_name)
        for name in names:
            found = getattr(found, name)
    except (ImportError, AttributeError):
        return False
    return found is value


def _passes_by_reference(passes: tuple[Pass, ...], what: str) -> tuple[Pass, ...] | None:
    """The passes to store (None: the default pipeline); PicklingError for one that cannot be
    found again by module and name."""
    if passes == pipeline.PASSES:
        return None
    for run in passes:
        if not _reachable(run):
            raise pickle.PicklingError(
                f"cannot pickle {what}: its pass {run!r} cannot be found again by module and "
                f"name (define the pass at the top level of a module)")
    return passes


Reduction = tuple[Callable[..., Any], tuple[Any, ...]]


def _compiled_object_reduction(method: types.MethodType) -> Reduction | None:
    """How a compiled object is stored: the object and its options (None: `method` is not a
    compiled object)."""
    state = api.state_of(method.__func__)
    options = state.cache.options if state is not None else None
    if state is None or options is None or options.compiled_object is None:
        return None
    what = f"the compiled object {method.__self__!r}"
    passes = _passes_by_reference(options.passes, what)
    return compiled_object, (method.__self__, passes, options.guards, options.fastmath,
                             options.comments, state.check)


def _reduce_method(method: types.MethodType) -> Reduction:
    """How `pickle` and `copy` store a bound method: a compiled object as the object and its
    options; any other method as Python does (`getattr(obj, name)`)."""
    reduction = _compiled_object_reduction(method)
    if reduction is None:
        return method.__reduce__()  # type: ignore[return-value]  # typeshed: str | tuple
    return reduction


class _CloudpickleMethods:
    """A cloudpickle reducer for bound methods: a compiled object's reduction, else
    cloudpickle's own (`previous`)."""

    def __init__(self, previous: Callable[[types.MethodType], Reduction]) -> None:
        self.previous = previous

    def __call__(self, method: types.MethodType) -> Reduction:
        reduction = _compiled_object_reduction(method)
        if reduction is None:
            return self.previous(method)
        kind = type(method.__self__)
        if kind.__module__ == "__main__" or not _reachable(kind):
            raise pickle.PicklingError(
                f"cannot pickle the compiled object {method.__self__!r} with cloudpickle: its "
                f"class {kind.__module__}.{kind.__qualname__} is defined in __main__ or found by "
                f"no module and name, so cloudpickle sends it by value, with its code but not "
                f"its source, and the other process compiles `__call__` again from its source: "
                f"define the class in a module the other process can import")
        return reduction


def _dispatch_table(module: types.ModuleType) -> MutableMapping[type, Any] | None:
    table = getattr(getattr(module, "Pickler", None), "dispatch_table", None)
    return table if isinstance(table, MutableMapping) else None


def register_cloudpickle(module: types.ModuleType) -> None:
    """Make a cloudpickle (`cloudpickle`, or a copy of it such as `ray.cloudpickle`) store
    compiled objects by reference, as `pickle` does; other bound methods as before. Its pickler
    stores a bound method as `MethodType(function, self)` (its own reducer, ahead of `copyreg`)
    and a function no module-level name reaches by value: the compiled state would refuse."""
    table = _dispatch_table(module)
    if table is None:
        raise TypeError(f"{module.__name__} has no Pickler.dispatch_table to register with")
    previous = table.get(types.MethodType)
    if previous is None or isinstance(previous, _CloudpickleMethods):
        return
    table[types.MethodType] = _CloudpickleMethods(previous)


def register() -> None:
    """Make `pickle` and `copy` store compiled objects by reference (process-wide; other
    bound methods are stored as before), and cloudpickle if it is installed (a version without
    a dispatch table is left alone: there compiled objects refuse, saying why)."""
    copyreg.pickle(types.MethodType, _reduce_method)
    if importlib.util.find_spec("cloudpickle") is not None:
        cloudpickle = importlib.import_module("cloudpickle")
        if _dispatch_table(cloudpickle) is not None:
            register_cloudpickle(cloudpickle)
