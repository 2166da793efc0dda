"""The public API: `@symbolic`, `source`, `compiled_function`, `disable`, `clear_cache`.

This module ties the pipeline together (front end → passes → code generation → loader) and owns
the call path. `@symbolic` returns a real Python function, not a wrapper object: its `__code__`
starts as a small stub with the original signature that compiles on the first call, and is then
replaced by the compiled code itself. A call of a compiled `@symbolic` function is therefore a
plain call of the generated code, with no Python-level layer in between.

The replacement code needs as many free variables as the function's closure has cells. A
compiled version with objects bound in cells of its own grows the public function's closure
first (`loader.install`); where that is impossible, the installed code forwards the call.

The versions live in a bounded cache (`cache.py`). Compiling runs outside any lock, since the
passes may run user code that calls the function; such a call runs the original Python.
Forwarding code reaches its target weakly (`callpath.py`), so that a dropped function is freed
with its versions, and each version's `linecache` entry goes with its generated function.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import os
import threading
import types
import weakref
from typing import Any, Callable, Hashable, Iterator, Sequence, TypeVar, overload

from .. import ir
from ..analysis import objects, value_types
from ..analysis.attributes import static_attribute
from ..backend import codegen, loader
from ..errors import SymbolicError
from ..frontend import build as frontend
from ..passes import notes, pipeline
from ..passes.pipeline import Pass, PassRun
from . import cache, callpath, check
from .cache import CacheInfo

F = TypeVar("F", bound=Callable[..., Any])

# the key of the general, type-agnostic version in a function's cache of compiled versions
GENERAL: Hashable = ()

# after this many recompiles forced by changed globals, stop relying on globals at all
MAX_STALE_RECOMPILES = 5

# the argument types a version may be specialized for (exact types, not subclasses)
SPECIALIZED_TYPES = (bool, int, float, complex)
# after this many calls with other argument types than the installed version's, install the
# version that takes any types
MAX_TYPE_MISSES = 5

_registry: weakref.WeakSet[SymbolicFunction] = weakref.WeakSet()
_registry_lock = threading.Lock()
_disable_depth = 0


def disabled() -> bool:
    """True inside `disable()` or when the environment sets SYMCOMPILE_DISABLE (not 0)."""
    return _disable_depth > 0 or os.environ.get("SYMCOMPILE_DISABLE", "0") not in ("", "0")


@dataclasses.dataclass
class CompiledVersion:
    """One compiled version of a function: the generated function and how it was made."""

    function: types.FunctionType
    source: str
    ir: ir.Function | None = None
    log: list[PassRun] = dataclasses.field(default_factory=list)
    filename: str | None = None
    note: str = ""


class SourceText:
    """The generated source of a `@symbolic` function, compiled on first use; reads like a str.

    `str(f.source)` is the plain string; printing it, `in`, `==`, `len` and str methods work.
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
    """The state behind one `@symbolic` function: its source, cache of versions and call path.

    No user code runs under `lock`: one thread compiles each version, outside it (`pending`),
    and stores it under it. A call of the function from code the compiler runs, or needing a
    version another thread is compiling, runs the original Python (see `callpath`)."""

    def __init__(self, original: types.FunctionType, passes: Sequence[Pass], guards: bool,
                 static_argnames: Sequence[str] = (), fastmath: bool = False,
                 check: bool = False, comments: bool = False,
                 compiled_object: type | None = None) -> None:
        self.original = original
        # for a compiled object, its class: `original` is the class's `__call__` (what a
        # `@symbolic` one compiles), whose first parameter is the object (a static argument),
        # whose structure the passes may read (see `objects`); `called`: what the class holds
        self.compiled_object = compiled_object
        self.called = objects.class_call(compiled_object) if compiled_object else None
        self.passes = tuple(passes)
        self.guards = guards
        self.fastmath = fastmath
        self.check = check
        self.comments = comments
        self.signature = inspect.signature(original)
        self.static_argnames = _checked_static_argnames(self.signature, static_argnames, original)
        self.stale_recompiles = 0
        self.type_misses = 0
        self.installed_key: Hashable | None = None
        self.source = frontend.read_function_source(original)
        self.scope = loader.Scope.of(original)
        self.pass_through = bool(original.__code__.co_flags & frontend.PASS_THROUGH_FLAGS)
        self.cache: cache.VersionCache[CompiledVersion] = cache.VersionCache()
        self.lock = threading.Lock()
        # the compilations in progress, by (key, for any types)
        self.pending: dict[tuple[Hashable, bool], threading.Event] = {}
        self.stubs: dict[int, types.CodeType] = {}
        self.wrapper = self._make_wrapper()
        with _registry_lock:
            _registry.add(self)
            self.reinstall()

    def _make_wrapper(self) -> types.FunctionType:
        original = self.original
        code = original.__code__ if self.pass_through else self._stub(len(self.scope.closure))
        wrapper = types.FunctionType(code, original.__globals__, original.__name__,
                                     original.__defaults__, original.__closure__)
        wrapper.__kwdefaults__ = original.__kwdefaults__
        functools.update_wrapper(wrapper, original)
        wrapper.original = original  # type: ignore[attr-defined]
        wrapper.source = SourceText(self)  # type: ignore[attr-defined]
        wrapper.recompile = self.recompile  # type: ignore[attr-defined]
        wrapper._symcompile = self  # type: ignore[attr-defined]
        return wrapper

    # ------------------------------------------------------------ call path

    @callpath.entry
    def _first_call(self, *args: Any, **kwargs: Any) -> Any:
        """The stub's target: compile, install, then run this call."""
        if disabled():
            return self.original(*args, **kwargs)
        version = self.selected_version(*self.key_for(args, kwargs), wait=False)
        return self._run(version, args, kwargs)

    def _run(self, version: CompiledVersion, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call `version`. It checks its static values on entry by identity, but the cache
        finds it by type and bits: an equal value held by another object is passed on as the
        very object it was compiled with (its code starts by assigning that value anyway)."""
        assumptions = version.ir.assumptions if version.ir is not None else ()
        static = {a.name: a.value for a in assumptions if a.argument and not a.of_type}
        if static:
            bound = self.signature.bind(*args, **kwargs)
            bound.apply_defaults()
            bound.arguments.update(static)
            args, kwargs = bound.args, bound.kwargs
        return version.function(*args, **kwargs)

    def key_for(self, args: tuple[Any, ...], kwargs: dict[str, Any],
                ) -> tuple[Hashable, dict[str, Any], dict[str, ir.ArgumentType]]:
        """The cache key of the version these arguments select (see `cache.static_key`), the
        static values written into it, and the types of the other arguments (those of
        `SPECIALIZED_TYPES`, and the kinds of NumPy arrays of numbers: `ir.ArrayKind`). A
        mutable static value is passed as it is, like any other argument.

        Raises TypeError, as the function would, when the arguments do not fit."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        key = tuple((name, cache.static_key(bound.arguments[name]))
                    for name in self.static_argnames)
        values = {name: bound.arguments[name] for name, part in key if part != cache.PASSED_AS_IS}
        kinds: dict[str, ir.ArgumentType] = {}
        shape_owners: dict[tuple[int, ...], str] = {}  # each shape's first argument
        for name, value in bound.arguments.items():
            if name in values or self.signature.parameters[name].kind in (
                    inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                continue
            if type(value) in SPECIALIZED_TYPES:
                kinds[name] = type(value)
            elif (kind := value_types.array_kind(value)) is not None:
                owner = shape_owners.setdefault(value.shape, name)
                symbols = tuple(f"{owner}[{axis}]" for axis in range(kind.ndim))
                kinds[name] = dataclasses.replace(kind, shape=symbols)
        return key, values, kinds

    def _padded(self, free_count: int) -> loader.Scope:
        """The original's scope, padded with empty cells up to `free_count` free variables."""
        return dataclasses.replace(self.scope, padding=free_count - len(self.scope.closure))

    def _forwarding(self, free_count: int, target: Callable[..., Any]) -> types.CodeType:
        return loader.forwarding_code(self.source.node.args, self._padded(free_count), target)

    def _stub(self, free_count: int) -> types.CodeType:
        """The compiling stub, for a public function whose closure has `free_count` cells."""
        if free_count not in self.stubs:
            target = callpath.WeakCall(self, "_first_call")
            self.stubs[free_count] = self._forwarding(free_count, target)
        return self.stubs[free_count]

    def _install(self) -> None:
        """Point the public function at the right code: original, stub or compiled."""
        current = self.wrapper.__closure__ or ()
        slot = self.cache.slots.get(self.installed_key)
        installed = slot.selected if slot is not None else None
        if disabled() or self.pass_through:
            target: Callable[..., Any] = self.original
            code, closure = self.original.__code__, self.original.__closure__ or ()
        elif self.check:
            target, closure = callpath.WeakCall(self, "_checked_call"), current
            code = self._forwarding(len(current), target)
        elif installed is None:
            target, closure = callpath.WeakCall(self, "_first_call"), current
            code = self._stub(len(current))
        else:
            target = weakref.proxy(installed.function)  # the cache holds it while installed
            code, closure = installed.function.__code__, installed.function.__closure__ or ()
        try:
            loader.install(self.wrapper, code, closure, self._stub)
        except loader.LayoutError:
            # the closure cannot change here: keep it, and forward the call to the target
            forward = self._forwarding(len(current), target)
            loader.install(self.wrapper, forward, current, self._stub)

    def reinstall(self) -> None:
        with self.lock:
            self._install()

    # ---------------------------------------------------------------- cache

    @property
    def versions(self) -> dict[Hashable, CompiledVersion]:
        """The version each key's calls run now (a copy)."""
        with self.lock:
            return {key: s.selected for key, s in self.cache.slots.items() if s.selected}

    @property
    def untyped(self) -> dict[Hashable, CompiledVersion]:
        """Each key's version for arguments of any type, where compiled (a copy)."""
        with self.lock:
            return {key: s.untyped for key, s in self.cache.slots.items() if s.untyped}

    def _obtained(self, key: Hashable, static: dict[str, Any], kinds: dict[str, ir.ArgumentType],
                  reason: str | None, untyped: bool, wait: bool) -> CompiledVersion:
        """The version for `key` (the one for any types with `untyped`), compiled here unless
        another thread is compiling it; then wait for that one, or with `wait=False` (a call:
        it must never wait for code that may be waiting for it) raise `callpath.Busy`."""
        while True:
            with self.lock:
                slot = self.cache.get(key)
                found = None if slot is None else slot.untyped if untyped else slot.selected
                if found is not None:
                    self.cache.hits += 1
                    return found
                busy = self.pending.get((key, untyped))
                if busy is None:
                    done = self.pending[(key, untyped)] = threading.Event()
                    break
            if not wait:
                raise callpath.Busy
            if callpath.compiling(self):
                raise self._reentered()
            busy.wait()
        try:
            made = self._compile(static, kinds, reason or self._miss_reason(static))
            return self._store(key, static, made, untyped)
        finally:
            with self.lock:
                del self.pending[(key, untyped)]
            done.set()

    def _store(self, key: Hashable, static: dict[str, Any], made: CompiledVersion,
               untyped: bool) -> CompiledVersion:
        """Keep `made` for `key` (unless a version is there already: then that one is used);
        the first version stored is the one installed."""
        with self.lock:
            slot = self.cache.slot(key, static)
            if untyped:
                slot.untyped = made if slot.untyped is None else slot.untyped
                found = slot.untyped
            else:
                if slot.selected is None:
                    slot.selected = made
                    if slot.untyped is None and not _relied_types(made):
                        slot.untyped = made
                    if self.installed_key in (None, key):
                        self.installed_key = key
                        self._install()
                found = slot.selected
            self.cache.evict(keep=self.installed_key)
            return found

    def version(self, key: Hashable, static: dict[str, Any], kinds: dict[str, ir.ArgumentType],
                reason: str | None = None, wait: bool = True) -> CompiledVersion:
        """The compiled version for `key` (made with the `static` argument values), compiling
        it once if needed for arguments of the types `kinds` (`reason`: why it is needed, by
        default the static values that differ from the installed version's). The first
        version compiled is the one installed. `wait`: see `_obtained`."""
        return self._obtained(key, static, kinds, reason, untyped=False, wait=wait)

    def _miss_reason(self, static: dict[str, Any]) -> str:
        with self.lock:
            installed = self.cache.slots.get(self.installed_key)
        return "first call" if installed is None else cache.static_change(installed.static, static)

    def selected_version(self, key: Hashable, static: dict[str, Any],
                         kinds: dict[str, ir.ArgumentType], wait: bool = True) -> CompiledVersion:
        """The version a call with these arguments runs."""
        found = self.version(key, static, kinds, wait=wait)
        relied = _relied_types(found)
        if all(kinds.get(name) == kind for name, kind in relied.items()):
            return found
        return self.untyped_version(key, static, cache.type_change(relied, kinds), wait=wait)

    def untyped_version(self, key: Hashable, static: dict[str, Any],
                        reason: str = "the version for any argument types", wait: bool = True,
                        ) -> CompiledVersion:
        """The version for `key` that takes arguments of any type, compiling it if needed."""
        return self._obtained(key, static, {}, reason, untyped=True, wait=wait)

    def general_version(self) -> CompiledVersion:
        if self.static_argnames:
            raise TypeError(
                f"{self.original.__qualname__} specializes on {', '.join(self.static_argnames)}: "
                f"it has no version without arguments; use symcompile.source(f, *args) to see "
                f"the version some arguments select")
        return self.untyped_version(GENERAL, {})

    def clear(self) -> None:
        """Forget every compiled version; the next call compiles again."""
        with self.lock:
            self.installed_key = None
            self.type_misses = 0
            self._install()  # first, so that no call is forwarded to a version dropped
            self.cache.clear()

    def recompile(self) -> None:
        """Compile again now, reading the current values of the globals the compiler uses."""
        self.clear()
        self.stale_recompiles = 0
        if not self.static_argnames:
            self.version(GENERAL, {}, {})

    @callpath.entry
    def _stale_call(self, *args: Any, **kwargs: Any) -> Any:
        """Where a failed guard sends the call: a global the compiled code relied on has been
        rebound (or deleted), or a static argument has another value. Run the version for
        these arguments and the globals as they are now, compiling it if needed."""
        if self.compiled_object is not None and not self._calls_original(args[0]):
            # the object's class or its `__call__` changed: run what calling it runs now
            # (`symbolic(obj)` again compiles that)
            return args[0](*args[1:], **kwargs)
        key, static, kinds = self.key_for(args, kwargs)
        with self.lock:
            slot = self.cache.get(key)
            held = slot.versions() if slot is not None else []
        stale = {id(version): why for version in held if (why := self._stale_because(version))}
        reason = self._drop_stale(key, stale) if stale else None
        if slot is not None and slot.selected is not None and id(slot.selected) not in stale:
            with self.lock:
                self.cache.hits += 1
            return self._run(slot.selected, args, kwargs)
        return self._run(self.version(key, static, kinds, reason, wait=False), args, kwargs)

    def _drop_stale(self, key: Hashable, stale: dict[int, str]) -> str:
        """Forget the versions for `key` whose globals changed (ids in `stale`); the reason."""
        with self.lock:
            self.stale_recompiles += 1
            slot = self.cache.get(key)
            if slot is not None:
                slot.selected = None if id(slot.selected) in stale else slot.selected
                slot.untyped = None if id(slot.untyped) in stale else slot.untyped
            last = self.stale_recompiles == MAX_STALE_RECOMPILES
        reason = next(iter(stale.values()))
        return reason + (f" ({MAX_STALE_RECOMPILES} times: from now on compiled without "
                         f"relying on globals)" if last else "")

    def _calls_original(self, value: object) -> bool:
        """Whether calling the compiled object `value` still runs the code compiled."""
        return not any(objects.fails(fact) for fact in
                       objects.call_facts(value, self.called, self.compiled_object))

    @callpath.entry
    def _checked_call(self, *args: Any, **kwargs: Any) -> Any:
        """In check mode, every call: compare the compiled version with the original first."""
        version = self.version(*self.key_for(args, kwargs), wait=False)  # what the call would run
        return check.checked_call(self, version, args, kwargs)

    @callpath.entry
    def _type_miss(self, *args: Any, **kwargs: Any) -> Any:
        """Where a failed type check sends the call: an argument's type is not the one the
        version was compiled for. Run the version for any types; after `MAX_TYPE_MISSES` such
        calls, install that version instead."""
        key, static, kinds = self.key_for(args, kwargs)
        with self.lock:
            slot = self.cache.slots.get(key)
            relied = _relied_types(slot.selected) if slot and slot.selected else {}
        untyped = self.untyped_version(key, static, cache.type_change(relied, kinds), wait=False)
        with self.lock:
            self.type_misses += 1
            slot = self.cache.get(key)
            if self.type_misses >= MAX_TYPE_MISSES and slot is not None \
                    and slot.selected is not untyped:
                slot.selected = untyped
                if key == self.installed_key:
                    self._install()
        return self._run(untyped, args, kwargs)

    def _stale_because(self, version: CompiledVersion) -> str | None:
        """Why the version no longer fits: a global it relies on was rebound or deleted, or an
        object fact failed; None if every assumption still holds."""
        namespace = frontend.namespace_of(self.original)
        assumptions = version.ir.assumptions if version.ir is not None else ()
        for assumption in assumptions:
            if assumption.fails_when is not None:
                if objects.fails(assumption):
                    return f"{assumption.name} changed ({assumption.reason})"
                continue
            found, value = namespace.lookup(assumption.name)
            if not assumption.argument and not (found and value is assumption.value):
                return f"global {assumption.name} {'rebound' if found else 'deleted'}"
        return None

    # -------------------------------------------------------------- compiling

    def _as_written(self, note: str) -> CompiledVersion:
        """A version that runs the original code: the whole function kept opaque."""
        return CompiledVersion(self.original, self.source.text, note=note)

    def _compile(self, static: dict[str, Any], kinds: dict[str, ir.ArgumentType],
                 reason: str) -> CompiledVersion:
        """A new version (outside the lock: the passes may run user code), counted a miss."""
        if callpath.compiling(self):
            raise self._reentered()
        with self.lock:
            self.cache.compiled(reason)
        if self.pass_through:
            return self._as_written("generator or coroutine: passed through unchanged")
        if not self.source.checked:
            return self._as_written("too deeply nested for symcompile to check that its file "
                                    "still holds the code that runs: runs as written")
        if (reader := frontend.frame_reader(self.source.node, self.original)) is not None:
            return self._as_written(f"reads a frame's locals ({reader}): runs as written")
        try:
            with callpath.marked_compiling(self):
                return self._compile_ir(static, kinds)
        except SymbolicError:
            raise
        except RecursionError:
            return self._as_written("too deeply nested for symcompile: runs as written")
        except Exception as exc:
            raise self._error(
                f"internal error in symcompile: {type(exc).__name__}: {exc}",
                "this is a bug in symcompile; please report it with the function's source. "
                "Meanwhile run the function as plain Python: remove @symbolic or use "
                "symcompile.disable()",
            ) from exc

    def _compile_ir(self, static: dict[str, Any], kinds: dict[str, ir.ArgumentType]) -> CompiledVersion:
        # a function whose globals keep changing under it is compiled without relying on any
        resolve_globals = self.stale_recompiles < MAX_STALE_RECOMPILES
        # nor on argument types when they keep changing
        kinds = kinds if self.type_misses < MAX_TYPE_MISSES else {}
        options = {"source": self.source, "resolve_globals": resolve_globals, "static": static,
                   "argument_types": kinds, "fastmath": self.fastmath,
                   "frozen_globals": not self.guards,  # (no check on entry: none at calls)
                   "weigh_types": True}  # rely on the kinds only where it pays (cost model)
        resolve_objects = self.compiled_object is not None and resolve_globals
        _, after, log = pipeline.optimize(self.original, self.passes, resolve_objects=resolve_objects,
                                          **options)  # type: ignore[arg-type]
        relied = objects.holds_during_call(after) if resolve_objects else None
        if resolve_objects and relied is None:
            # code the compiler cannot see (or a store) could change the objects mid-call
            _, after, log = pipeline.optimize(self.original, self.passes, **options)  # type: ignore[arg-type]
        elif relied:  # the objects hold if the arguments' kinds and the globals are as compiled
            after = after.assuming(*relied)
        if self.compiled_object is not None:
            after = after.assuming(*objects.call_facts(*static.values(), self.called,
                                                       self.compiled_object))
        comments = notes.comments_for(after, [note for run in log for note in run.notes],
                                      self.source.lines) if self.comments else None
        spell = functools.partial(frontend.unmangle_names, private_class=self.scope.private_class)
        generated = codegen.render_function(after, self._stale_call, guard_globals=self.guards,
                                            type_miss=self._type_miss, comments=comments,
                                            spell_names=spell)
        bindings = generated.bindings
        closure = {**self.scope.closure, **after.shared_cells}  # inlined closures' cells too
        # pad to the public function's closure, which can grow but never shrink
        padding = len(self.wrapper.__closure__ or ()) - len(set(closure) | set(bindings))
        scope = dataclasses.replace(self.scope, closure=closure, bindings=bindings,
                                    padding=max(padding, 0))
        function, filename = loader.load(generated.source, scope, generated.lines)
        function.__doc__ = self.original.__doc__
        weakref.finalize(function, loader.forget_source, filename)
        return CompiledVersion(function, generated.source, after, log, filename)

    def _reentered(self) -> SymbolicError:
        return self._error("its compiled code was asked for while it was being compiled",
                           "code the compiler runs (a pass given with passes=, a __getattr__...)"
                           " may call the function, not ask for its compiled code")

    def _error(self, message: str, hint: str) -> SymbolicError:
        node = self.source.node
        line = self.source.lines[node.lineno - 1] if node.lineno <= len(self.source.lines) else ""
        return SymbolicError(f"cannot compile {self.original.__qualname__!r}: {message}",
                             filename=self.source.filename, lineno=node.lineno,
                             col=node.col_offset, source_line=line, hint=hint)


def _relied_types(version: CompiledVersion) -> dict[str, ir.ArgumentType]:
    """The argument types a version relies on (checked on its entry)."""
    assumptions = version.ir.assumptions if version.ir is not None else ()
    return {a.name: a.value for a in assumptions if a.of_type}  # type: ignore[misc]


# -------------------------------------------------------------- public API


@overload
def symbolic(func: F, /) -> F: ...
@overload
def symbolic(*, passes: Sequence[Pass] | None = None, guards: bool = True,
             static_argnames: Sequence[str] = (), fastmath: bool = False,
             check: bool = False, comments: bool = False) -> Callable[[F], F]: ...


def symbolic(func: Any = None, /, *, passes: Sequence[Pass] | None = None,
             guards: bool = True, static_argnames: Sequence[str] = (),
             fastmath: bool = False, check: bool = False, comments: bool = False) -> Any:
    """Compile `func` to optimized Python on its first call; later calls run the compiled code.

    Use bare (`@symbolic`) or with options (`@symbolic(guards=False)`). The result is a plain
    function with the original's name, docstring and signature, plus `.source` (the generated
    source), `.original` (the undecorated function, also `__wrapped__`) and `.recompile()`.

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

    A call with arguments of type bool, int, float or complex may get a version compiled for
    those exact types (where a rewrite depends on them); it checks them on entry, and other
    types run a version that takes any.
    """
    chosen = pipeline.PASSES if passes is None else tuple(passes)
    options = {"passes": chosen, "guards": guards, "static_argnames": tuple(static_argnames),
               "fastmath": fastmath, "check": check, "comments": comments}
    if func is None:
        return functools.partial(_decorate, **options)
    return _decorate(func, **options)


def _checked_static_argnames(signature: inspect.Signature, names: Sequence[str],
                             func: types.FunctionType) -> tuple[str, ...]:
    if isinstance(names, str):
        names = (names,)
    for name in names:
        parameter = signature.parameters.get(name)
        if parameter is None or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise TypeError(f"static_argnames: {name!r} is not a named parameter of "
                            f"{func.__qualname__}{signature}")
    return tuple(names)


def _decorate(func: Any, passes: Sequence[Pass], guards: bool = True,
              static_argnames: tuple[str, ...] = (), fastmath: bool = False,
              check: bool = False, comments: bool = False) -> Any:
    options = {"passes": passes, "guards": guards, "static_argnames": static_argnames,
               "fastmath": fastmath, "check": check, "comments": comments}
    if isinstance(func, (staticmethod, classmethod)):
        return type(func)(_decorate(func.__func__, **options))
    if isinstance(func, types.MethodType):
        return types.MethodType(_decorate(func.__func__, **options), func.__self__)
    state = _state_of(func)
    if state is not None:
        func = state.original
    method = objects.call_method(func)
    if method is not None and not static_argnames:
        # a callable object: its `__call__` (a `@symbolic` one's original), compiled with the
        # object as a static argument
        method = getattr(_state_of(method), "original", method)
        self_name = next(iter(inspect.signature(method).parameters), None)
        if self_name is not None:
            compiled = SymbolicFunction(method, passes, guards, (self_name,), fastmath, check,
                                        comments, compiled_object=type(func))
            return types.MethodType(compiled.wrapper, func)
    if not isinstance(func, types.FunctionType):
        raise SymbolicError(
            f"@symbolic compiles Python functions; got {type(func).__name__} {func!r}",
            hint="decorate a function written in Python (def or lambda)",
        )
    return SymbolicFunction(func, passes, guards, static_argnames, fastmath, check,
                            comments).wrapper


def _version_for(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any], caller: str,
                 ) -> CompiledVersion:
    """The compiled version of a `@symbolic` function (or bound method) these arguments
    select; TypeError if they do not fit its signature."""
    state = _symbolic_state(func, caller)
    bound_self = (func.__self__,) if isinstance(func, types.MethodType) else ()
    return state.selected_version(*state.key_for((*bound_self, *args), kwargs))


def _state_of(func: Any) -> SymbolicFunction | None:
    """The state behind a `@symbolic` function or a bound method of one; read without running
    code of `func`'s class (see `attributes`)."""
    state = static_attribute(func, "_symcompile")
    return state if isinstance(state, SymbolicFunction) else None


def _symbolic_state(func: Any, caller: str) -> SymbolicFunction:
    state = _state_of(func)
    if state is None:
        raise TypeError(f"{caller}() expects a @symbolic function; got {func!r} "
                        f"(decorate it with @symcompile.symbolic first)")
    return state


def is_symbolic(func: Any) -> bool:
    """Whether `func` is a `@symbolic` function (or a compiled object, a bound method of one)."""
    return _state_of(func) is not None


def cache_info(func: Any) -> CacheInfo:
    """The cache of compiled versions of a `@symbolic` function: hits (calls that came through
    Python and found their version; calls of the installed version are plain calls, not
    counted), misses (compilations), its size now and at most (`cache.MAX_VERSIONS`, least
    recently used dropped first), and why each compilation happened, the last 32."""
    state = _symbolic_state(func, "cache_info")
    with state.lock:
        return state.cache.info()


def source(func: Any, *args: Any, **kwargs: Any) -> str:
    """The generated source of the version of `func` that these arguments select."""
    return _version_for(func, args, kwargs, "source").source


def compiled_function(func: Any, *args: Any, **kwargs: Any) -> types.FunctionType:
    """The generated function itself for these arguments (what a call of `func` runs)."""
    return _version_for(func, args, kwargs, "compiled_function").function


def clear_cache() -> None:
    """Forget every compiled version of every `@symbolic` function; calls compile again."""
    with _registry_lock:
        states = list(_registry)
    for state in states:
        state.clear()


def _change_disable_depth(step: int) -> None:
    global _disable_depth
    with _registry_lock:
        _disable_depth += step
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
