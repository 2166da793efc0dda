"""The public API: `@symbolic`, `source`, `compiled_function`, `disable`, `clear_cache`.

This module is the public face of the runtime. `@symbolic` returns a real Python function, not
a wrapper object: its `__code__` starts as a small stub with the original signature that
compiles on the first call, and is then replaced by the compiled code itself. A call of a
compiled `@symbolic` function is therefore a plain call of the generated code, with no
Python-level layer in between.

The replacement code needs as many free variables as the function's closure has cells. A
compiled version with objects bound in cells of its own grows the public function's closure
first (`loader.install`); where that is impossible, the installed code forwards the call.

The versions, and the guard and type-miss policy that finds a call's version, live in a
bounded cache (`cache.FunctionCache`); each version is made by `compiler.compile_version`.
Forwarding code reaches its target weakly (`callpath.py`), so that a dropped function is freed
with its versions, and each version's `linecache` entry goes with its generated function.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import threading
import types
import weakref
from typing import Any, Callable, Iterator, Sequence, TypeVar, overload

from ..analysis import objects
from ..analysis.attributes import static_attribute
from ..backend import loader
from ..errors import SymbolicError
from ..passes import pipeline
from ..passes.pipeline import Pass
from . import cache, callpath, compiler, disk_cache
from .cache import GENERAL, MAX_STALE_RECOMPILES, MAX_TYPE_MISSES, CacheInfo
from .compiler import Version

__all__ = ["GENERAL", "MAX_STALE_RECOMPILES", "MAX_TYPE_MISSES", "SymbolicFunction", "Version",
           "cache_info", "clear_cache", "compiled_function", "disable", "is_symbolic", "source",
           "symbolic", "version_for"]

F = TypeVar("F", bound=Callable[..., Any])

_registry: weakref.WeakSet[SymbolicFunction] = weakref.WeakSet()
_registry_lock = threading.Lock()


class SourceText:
    """`f.source` before any version of `f` is compiled: a stand-in that compiles the general
    version when read (`str(f.source)`, printing, `in`, `==`, `len`, str methods), after which
    `f.source` is that version's source, a real `str`. (A function's attributes are plain
    values: nothing runs when one is read, so a string cannot be made on first access.)
    """

    __slots__ = ("_state",)

    def __init__(self, state: SymbolicFunction) -> None:
        self._state = state

    def __str__(self) -> str:
        return self._state.general_version().source

    def __repr__(self) -> str:
        return str(self)

    def __eq__(self, other: object) -> bool:
        return str(self) == (str(other) if isinstance(other, SourceText) else other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __contains__(self, part: str) -> bool:
        return part in str(self)

    def __len__(self) -> int:
        return len(str(self))

    def __getattr__(self, name: str) -> Any:
        return getattr(str(self), name)


class SymbolicFunction:
    """The public face of one `@symbolic` function: the function users call (`wrapper`),
    which code it runs (`install`), and its public methods. Its versions, and the policy that
    finds the one a call runs, live in `cache` (a `cache.FunctionCache`), whose entry methods
    the stub and the checks on entry call into."""

    def __init__(self, original: types.FunctionType, options: compiler.Options,
                 static_argnames: Sequence[str] = (), check: bool = False,
                 disk: bool = False) -> None:
        self.original = original
        self.check = check
        kept = disk_cache.DiskCache(original) if disk and not check else None
        self.cache = cache.FunctionCache(original, options, static_argnames, self, kept)
        self.stubs: dict[int, types.CodeType] = {}
        self.wrapper = self._make_wrapper()
        with _registry_lock:
            _registry.add(self)
            self.reinstall()

    def _make_wrapper(self) -> types.FunctionType:
        original = self.original
        code = original.__code__ if self.cache.pass_through \
            else self._stub(len(self.cache.scope.closure))
        wrapper = types.FunctionType(code, original.__globals__, original.__name__,
                                     original.__defaults__, original.__closure__)
        wrapper.__kwdefaults__ = original.__kwdefaults__
        functools.update_wrapper(wrapper, original)
        vars(wrapper).update(original=original, source=self._shown_source(),
                             recompile=self.recompile, versions=self.cache.listing,
                             _symcompile=self)
        return wrapper

    def _shown_source(self) -> str | SourceText:
        """What `f.source` holds: the installed version's source; before any call the general
        version's, once compiled; until then a `SourceText` (a generator's is its own text).
        Read under the cache's lock."""
        if self.cache.pass_through:
            return self.cache.source.function.text
        general = self.cache.store.slots.get(GENERAL)
        shown = self.cache.installed() or (general.untyped if general is not None else None)
        return SourceText(self) if shown is None else shown.source

    def _forwarding(self, free_count: int, target: Callable[..., Any]) -> types.CodeType:
        """Code calling `target`, for a public function whose closure has `free_count` cells
        (the original's scope padded with empty cells)."""
        scope = self.cache.scope
        padded = dataclasses.replace(scope, padding=free_count - len(scope.closure))
        return loader.forwarding_code(self.cache.source.function.node.args, padded, target,
                                      self.cache.tidy)

    def _stub(self, free_count: int) -> types.CodeType:
        """The compiling stub, for a public function whose closure has `free_count` cells."""
        if free_count not in self.stubs:
            target = callpath.WeakCall(self.cache, "first_call")
            self.stubs[free_count] = self._forwarding(free_count, target)
        return self.stubs[free_count]

    def closure_size(self) -> int:
        return len(self.wrapper.__closure__ or ())

    def install(self) -> None:
        """Point the public function at the right code: original, stub or compiled (called
        under the cache's lock)."""
        current = self.wrapper.__closure__ or ()
        installed = self.cache.installed()
        target: Callable[..., Any]
        if callpath.disabled() or self.cache.pass_through:
            target = self.original
            code, closure = self.original.__code__, self.original.__closure__ or ()
        elif self.check:
            target, closure = callpath.WeakCall(self.cache, "checked_call"), current
            code = self._forwarding(len(current), target)
        elif installed is None:
            target, closure = callpath.WeakCall(self.cache, "first_call"), current
            code = self._stub(len(current))
        else:
            function = installed.loaded()
            target = weakref.proxy(function)  # the cache holds it while installed
            code, closure = function.__code__, function.__closure__ or ()
            if _runs_as(code, closure, self.original):
                code = self.original.__code__
        vars(self.wrapper)["source"] = self._shown_source()
        try:
            loader.install(self.wrapper, code, closure, self._stub)
        except loader.LayoutError:
            # the closure cannot change here: keep it, and forward the call to the target
            forward = self._forwarding(len(current), target)
            loader.install(self.wrapper, forward, current, self._stub)

    def reinstall(self) -> None:
        with self.cache.lock:
            self.install()

    def __reduce__(self) -> str:
        raise callpath.refused_pickling(self.original)

    def general_version(self) -> Version:
        """The version for any arguments (compiled if needed); `f.source` shows it until a
        call installs a version."""
        version = self.cache.general_version()
        with self.cache.lock:
            vars(self.wrapper)["source"] = self._shown_source()
        return version

    def clear(self) -> None:
        """Forget every compiled version; the next call compiles again."""
        self.cache.clear()
        self.reinstall()  # (`f.source` too: no version is left to show)

    def recompile(self) -> None:
        """Compile again now, reading the current values of the globals the compiler uses."""
        self.cache.recompile()


# -------------------------------------------------------------- public API


def _runs_as(code: types.CodeType, closure: tuple[types.CellType, ...],
             original: types.FunctionType) -> bool:
    """Whether a version's code is the original's over again (no rewrite changed it): the same
    instructions, constants, names, file and cells; its columns and qualified name may differ,
    and it is compiled nested. Such a version installs the original's own code object: a call
    then runs exactly what the original runs, the same object with the same specializations, so
    nothing but timing noise can separate the two (~30 ns helpers run with a fresh copy measured
    0.95x-1.08x of the original in whole runs of `python -m benchmarks real`)."""
    other, cells = original.__code__, original.__closure__ or ()
    if (code.co_filename, code.co_name) != (other.co_filename, other.co_name) \
            or len(closure) != len(cells) or any(a is not b for a, b in zip(closure, cells)):
        return False
    nested = inspect.CO_NESTED
    return code.replace(co_flags=code.co_flags & ~nested | other.co_flags & nested,
                        co_linetable=other.co_linetable, co_firstlineno=other.co_firstlineno,
                        co_qualname=other.co_qualname) == other


@overload
def symbolic(func: F, /) -> F: ...
@overload
def symbolic(*, passes: Sequence[Pass] | None = None, guards: bool = True,
             static_argnames: Sequence[str] = (), fastmath: bool = False,
             check: bool = False, comments: bool = False, cache: bool = False,
             ) -> Callable[[F], F]: ...


def symbolic(func: Any = None, /, *, passes: Sequence[Pass] | None = None,
             guards: bool = True, static_argnames: Sequence[str] = (),
             fastmath: bool = False, check: bool = False, comments: bool = False,
             cache: bool = False) -> Any:
    """Compile `func` to optimized Python on its first call; later calls run the compiled code.

    Use bare (`@symbolic`) or with options (`@symbolic(guards=False)`). The result is a plain
    function with the original's name, docstring and signature, plus `.source` (a `str`: the
    generated source of the installed version, the one calls run; before any call, reading it
    compiles the version for any arguments, see `SourceText`), `.original` (the undecorated function, also `__wrapped__`), `.recompile()` and
    `.versions()` (every cached version with what it checks on entry: `cache.CachedVersion`).

    Options:
      passes: the passes to run, replacing the default pipeline `symcompile.passes.pipeline.PASSES`.
      guards: the compiled code checks on entry that the globals it inlined or folded still
        hold the values it was compiled with, and recompiles when one was rebound. With
        `guards=False` those values are frozen until `f.recompile()`.
      static_argnames: parameters to specialize on: one version is compiled (and cached) for
        each value they take, with the value written into the code. `symcompile.source(f,
        *args)` shows the version some arguments select.
      fastmath: also apply the rewrites that are true for real numbers but not for floats
        (`x + 0.0 → x` is wrong for -0.0, `x - x → 0.0` for inf and NaN); see the rules
        ledger in the docs for each one.
      check: run the original and the compiled function on copies of the arguments at every
        call and compare them (values by bits, exceptions, output, mutation); on a difference
        raise `symcompile.CheckError` naming the first pass that changes the result. Slow (three
        runs per call): a tool for finding compiler bugs.
      comments: end each generated statement with a comment saying which line of yours it
        came from and what the passes did to it (`# line 12: return g (lines 9-12: inline
        add ×3; ...)`).
      cache: keep compiled versions on disk (in `SYMCOMPILE_CACHE_DIR`, by default the user's
        cache directory, `~/.cache/symcompile`) and read them back in later processes while
        the function, its inlined callees and the globals it relied on are unchanged
        (`runtime.disk_cache`; `symcompile.cache_info(f).disk` says what happened, and why a
        version was not kept). Not with `check`; compiled objects are not kept (their weights
        live in the process).

    A call with arguments of type bool, int, float or complex may get a version compiled for
    those exact types (where a rewrite depends on them); it checks them on entry, and other
    types run a version that takes any.
    """
    chosen = pipeline.PASSES if passes is None else tuple(passes)
    options = compiler.Options(passes=chosen, guards=guards, fastmath=fastmath, comments=comments)
    static = tuple(static_argnames)
    if func is None:
        return functools.partial(_decorate, options=options, static_argnames=static, check=check,
                                 disk=cache)
    return _decorate(func, options, static, check, cache)


def _decorate(func: Any, options: compiler.Options, static_argnames: Sequence[str] = (),
              check: bool = False, disk: bool = False) -> Any:
    if isinstance(func, (staticmethod, classmethod)):
        return type(func)(_decorate(func.__func__, options, static_argnames, check, disk))
    if isinstance(func, types.MethodType):
        return types.MethodType(_decorate(func.__func__, options, static_argnames, check, disk),
                                func.__self__)
    state = state_of(func)
    if state is not None:
        func = state.original
    if objects.call_method(func) is not None and not static_argnames:
        compiled = compiled_object(func, options, check, disk)
        if compiled is not None:
            return compiled
    if not isinstance(func, types.FunctionType):
        raise SymbolicError(
            f"@symbolic compiles Python functions; got {type(func).__name__} {func!r}",
            hint="decorate a function written in Python (def or lambda)",
        )
    return SymbolicFunction(func, options, static_argnames, check, disk).wrapper


def compiled_object(obj: object, options: compiler.Options, check: bool = False,
                    disk: bool = False) -> types.MethodType | None:
    """A callable object compiled: its `__call__` (a `@symbolic` one's original), compiled with
    the object as a static argument and bound to it; None if `__call__` takes no argument."""
    method = objects.call_method(obj)
    if method is None:
        return None
    method = getattr(state_of(method), "original", method)
    self_name = next(iter(inspect.signature(method).parameters), None)
    if self_name is None:
        return None
    kind = type(obj)
    called = compiler.CompiledObject(kind, objects.class_call(kind))
    compiled = SymbolicFunction(
        method, dataclasses.replace(options, compiled_object=called), (self_name,), check, disk)
    return types.MethodType(compiled.wrapper, obj)


def _version_for(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any], caller: str,
                 ) -> Version:
    """The compiled version of a `@symbolic` function (or bound method) these arguments
    select; TypeError if they do not fit its signature."""
    versions = _symbolic_state(func, caller).cache
    bound_self = (func.__self__,) if isinstance(func, types.MethodType) else ()
    return versions.selected_version(*versions.key_for((*bound_self, *args), kwargs))


def version_for(func: Any, /, *args: Any, **kwargs: Any) -> Version:
    """The version of a `@symbolic` function (or compiled object) these arguments select, with
    what compiling it made: its source, IR before and after, pass log, assumptions (a version
    read from the disk cache has none of these: the same is compiled again, not installed)."""
    found = _version_for(func, args, kwargs, "version_for")
    if found.from_disk is None:
        return found
    versions = _symbolic_state(func, "version_for").cache
    bound_self = (func.__self__,) if isinstance(func, types.MethodType) else ()
    _, static, kinds = versions.key_for((*bound_self, *args), kwargs)
    return versions.compiled_again(found, static, kinds)


def state_of(func: Any) -> SymbolicFunction | None:
    """The state behind a `@symbolic` function or a bound method of one; read without running
    code of `func`'s class (see `attributes`)."""
    state = static_attribute(func, "_symcompile")
    return state if isinstance(state, SymbolicFunction) else None


def _symbolic_state(func: Any, caller: str) -> SymbolicFunction:
    state = state_of(func)
    if state is None:
        raise TypeError(f"{caller}() expects a @symbolic function; got {func!r} "
                        f"(decorate it with @symcompile.symbolic first)")
    return state


def is_symbolic(func: Any) -> bool:
    """Whether `func` is a `@symbolic` function (or a compiled object, a bound method of one)."""
    return state_of(func) is not None


def cache_info(func: Any) -> CacheInfo:
    """The cache of compiled versions of a `@symbolic` function: hits (calls that came through
    Python and found their version; calls of the installed version are plain calls, not
    counted), misses (compilations), its size now and at most (`cache.MAX_VERSIONS`, least
    recently used dropped first), and why each compilation happened, the last 32. With
    `cache=True`, also what the disk cache did for each (`disk`: `disk hit: FILE`, or `disk
    miss: ` and why: first use, which callee or global changed, not cacheable because ...)."""
    return _symbolic_state(func, "cache_info").cache.info()


def source(func: Any, *args: Any, **kwargs: Any) -> str:
    """The generated source of the version of `func` that these arguments select."""
    return _version_for(func, args, kwargs, "source").source


def compiled_function(func: Any, *args: Any, **kwargs: Any) -> types.FunctionType:
    """The generated function itself for these arguments (what a call of `func` runs)."""
    return _version_for(func, args, kwargs, "compiled_function").loaded()


def clear_cache() -> None:
    """Forget every compiled version of every `@symbolic` function; calls compile again."""
    with _registry_lock:
        states = list(_registry)
    for state in states:
        state.clear()


def _change_disable_depth(step: int) -> None:
    with _registry_lock:
        callpath.change_disable_depth(step)
        states = list(_registry)
    for state in states:
        state.reinstall()


@contextlib.contextmanager
def disable() -> Iterator[None]:
    """Run `@symbolic` functions as their original Python inside this block (process-wide).

    Also usable as a decorator. Setting the environment variable SYMCOMPILE_DISABLE=1 has the
    same effect for the whole process.
    """
    try:
        _change_disable_depth(+1)
        yield
    finally:
        _change_disable_depth(-1)
