"""The compiled versions of one `@symbolic` function, and the policy that finds the one a call
runs: keys, size bound, statistics, guards, type misses (`FunctionCache`).

A call's version is found by the values of the function's static arguments (`static_key`).
Each key holds the version compiled for the argument types of the call that made it and, where
that one relies on them, the version for any types (`Slot`). At most `MAX_VERSIONS` versions
are kept; the least recently used key goes first, never the one whose version is installed as
the function's code. A dropped version is freed with its IR and its `linecache` entry once
nothing else holds its function. Versions are made by `compiler.compile_version`; the public
function (`api.SymbolicFunction`) is told when the installed one changes (`Public`).

Calls that run the installed version never reach this module (they are plain calls of the
generated code), so `hits` counts only the calls that came through Python: a static value or
argument type other than the installed version's, a global rebound, `symcompile.source`.
`misses` counts compilations, and `reasons` says why each one happened. Compiling runs outside
any lock, since the passes may run user code that calls the function; such a call runs the
original Python (`callpath`).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import inspect
import struct
import threading
import types
from typing import Any, Generic, Hashable, Iterator, Protocol, Sequence, TypeVar

import numpy as np

from .. import ir
from ..analysis import methods, objects, value_types
from ..backend import loader
from ..errors import SymbolicError
from ..frontend import build as frontend
from ..ir.nodes import ArgumentType
from ..passes.pipeline import Pass
from . import callpath, check, compiler, disk_cache
from .compiler import Version

# the most versions one function keeps (about 20-60 kB each for small functions)
MAX_VERSIONS = 64
# the most recent reasons for compiling kept per function
MAX_REASONS = 32

# the key of the general, type-agnostic version in a function's cache of compiled versions
GENERAL: Hashable = ()
# after this many recompiles forced by changed globals, stop relying on globals at all
MAX_STALE_RECOMPILES = 5
# the argument types a version may be specialized for (exact types, not subclasses)
SPECIALIZED_TYPES = (bool, int, float, complex)
# after this many calls with other argument types than the installed version's, install the
# version that takes any types
MAX_TYPE_MISSES = 5

# static values of these types may change while a version runs, or be equal to another object
# that the code must then use: the code is not specialized on them, they are passed as they are
MUTABLE_TYPES = (list, dict, set, bytearray, np.ndarray)
# the key of such a value: any of them selects the same version
PASSED_AS_IS = "mutable: passed as it is"
# static values keyed by value: equal values of these exact types are interchangeable
_VALUE_TYPES = (type(None), bool, int, str, bytes, type(Ellipsis))

V = TypeVar("V")


def static_key(value: object) -> Hashable:
    """How the cache tells static values apart: by exact type and bits for numbers, strings,
    bytes, None and tuples of these (never by `==`: `1`, `1.0` and `True` differ, so do `0.0`
    and `-0.0`, and NaNs of either sign); `PASSED_AS_IS` for a mutable container or array; any
    other object by identity (its `==` is the user's code, and the compiled code may read more
    of it than `==` compares). Keys are made of builtin values only: comparing them runs no
    user code."""
    if isinstance(value, complex) and type(value) is complex:
        return ("complex", static_key(value.real), static_key(value.imag))
    if isinstance(value, float) and type(value) is float:  # every bit: a NaN's sign counts
        return ("float", struct.pack("<d", value))
    if isinstance(value, tuple) and type(value) is tuple:
        items = tuple(static_key(item) for item in value)
        # a tuple holding a mutable value is mutable through it: passed as it is too
        return PASSED_AS_IS if PASSED_AS_IS in items else ("tuple", items)
    if type(value) in _VALUE_TYPES:
        return (type(value).__name__, value)
    if isinstance(value, MUTABLE_TYPES):
        return PASSED_AS_IS
    return ("object", id(value))


def describe_value(value: object, limit: int = 40) -> str:
    """A short repr for a message."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def static_change(old: dict[str, object], new: dict[str, object]) -> str:
    """Why a call needs another version than the one installed: which static values differ."""
    changed = [name for name in new
               if name in old and static_key(old[name]) != static_key(new[name])]
    return "; ".join(f"static argument {name} changed: {describe_value(old[name])} → "
                     f"{describe_value(new[name])}" for name in changed) or "new static values"


def _named(kind: ArgumentType | None) -> str:
    if kind is None:
        return "another type"
    return kind.__name__ if isinstance(kind, type) else str(kind)


def type_change(relied: dict[str, ArgumentType], kinds: dict[str, ArgumentType]) -> str:
    """Why a call needs the version for any types: its arguments' types that differ."""
    changed = [f"{name} is {_named(kinds.get(name))}, compiled for {_named(kind)}"
               for name, kind in relied.items() if kinds.get(name) != kind]
    return "argument types changed: " + "; ".join(changed) if changed \
        else "the version for any argument types"


def entry_condition(assumption: ir.Assumption) -> str:
    """What a version checks on entry for one assumption, in words: `type(x) is float`,
    `n is 3`, `global add is <function add at 0x...>`, or an object fact (`layer.W is as
    compiled`)."""
    if assumption.of_type and isinstance(assumption.value, (type, ir.ArrayKind)):
        return f"type({assumption.name}) is {_named(assumption.value)}"
    if assumption.argument:
        return f"{assumption.name} is {describe_value(assumption.value)}"
    if assumption.fails_when is not None:
        return f"not {ir.format_expr(assumption.fails_when)} ({assumption.reason})"
    return f"global {assumption.name} is {describe_value(assumption.value)}"


@dataclasses.dataclass(frozen=True)
class CachedVersion:
    """One cached version of a `@symbolic` function, as `f.versions()` lists it."""

    static: dict[str, object]    # the static argument values it was compiled for
    conditions: tuple[str, ...]  # what it checks on entry (`entry_condition`); () for none
    source: str                  # its generated source
    installed: bool              # whether it is the public function's code now
    any_types: bool              # whether it takes arguments of any type (no type checks)


@dataclasses.dataclass(frozen=True)
class CacheInfo:
    """What `symcompile.cache_info(f)` says about a function's compiled versions."""

    hits: int          # calls that came through Python and found their version compiled
    misses: int        # compilations
    size: int          # versions held now
    max_size: int      # the most versions held (least recently used dropped first)
    reasons: tuple[str, ...]  # why each compilation happened, oldest first (the last 32)
    # with `cache=True`: versions read from disk, compiled for want of a fitting entry, and
    # what happened each time, oldest first (`disk hit: FILE`, `disk miss: WHY`)
    disk_hits: int = 0
    disk_misses: int = 0
    disk: tuple[str, ...] = ()


@dataclasses.dataclass
class Slot(Generic[V]):
    """The versions for one key: `selected` runs calls with these static values; `untyped`
    takes arguments of any type (it may be `selected` itself)."""

    static: dict[str, object]
    selected: V | None = None
    untyped: V | None = None

    def versions(self) -> list[V]:
        found = [] if self.selected is None else [self.selected]
        if self.untyped is not None and self.untyped is not self.selected:
            found.append(self.untyped)
        return found


class VersionCache(Generic[V]):
    """Slots by key, least recently used first, holding at most `max_size` versions.

    Not thread-safe by itself: the owner guards it with its lock (no user code runs here)."""

    def __init__(self, max_size: int = MAX_VERSIONS) -> None:
        self.slots: collections.OrderedDict[Hashable, Slot[V]] = collections.OrderedDict()
        self.max_size = max_size
        self.hits = 0
        self.misses = 0
        self.reasons: collections.deque[str] = collections.deque(maxlen=MAX_REASONS)

    def get(self, key: Hashable) -> Slot[V] | None:
        """The slot for `key` (now the most recently used), or None."""
        slot = self.slots.get(key)
        if slot is not None:
            self.slots.move_to_end(key)
        return slot

    def slot(self, key: Hashable, static: dict[str, object]) -> Slot[V]:
        """The slot for `key`, made empty if there is none."""
        found = self.get(key)
        if found is None:
            found = self.slots[key] = Slot(static)
        return found

    def discard(self, key: Hashable) -> None:
        self.slots.pop(key, None)

    def compiled(self, reason: str) -> None:
        """Count a compilation and say why it happened."""
        self.misses += 1
        self.reasons.append(reason)

    def __len__(self) -> int:
        return sum(len(slot.versions()) for slot in self.slots.values())

    def __iter__(self) -> Iterator[V]:
        for slot in self.slots.values():
            yield from slot.versions()

    def evict(self, keep: Hashable) -> None:
        """Drop the least recently used keys (never `keep`) until at most `max_size` remain."""
        size = len(self)
        for key in [key for key in self.slots if key != keep]:
            if size <= self.max_size:
                return
            size -= len(self.slots.pop(key).versions())

    def clear(self) -> None:
        self.slots.clear()

    def info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, len(self), self.max_size, tuple(self.reasons))


class Public(Protocol):
    """The public function a cache's versions are installed in (`api.SymbolicFunction`)."""

    def install(self) -> None:
        """Point the public function at the right code (called under the cache's lock)."""

    def closure_size(self) -> int:
        """How many cells the public function's closure has now."""


class FunctionCache:
    """The versions of one `@symbolic` function, and the policy that finds a call's version.

    No user code runs under `lock`: one thread compiles each version, outside it (`pending`),
    and stores it under it. A call of the function from code the compiler runs, or needing a
    version another thread is compiling, runs the original Python (see `callpath`). The entry
    methods (`first_call`, `stale_call`, `type_miss`, `checked_call`) are what the public
    function's code calls into when it is not the installed version's."""

    def __init__(self, original: types.FunctionType, options: compiler.Options,
                 static_argnames: Sequence[str] = (), public: Public | None = None,
                 disk: disk_cache.DiskCache | None = None) -> None:
        self.original = original
        self.disk = disk  # `@symbolic(cache=True)`: versions kept between processes
        self.options = options
        self.public = public
        self.signature = inspect.signature(original)
        self.static_argnames = _checked_static_argnames(self.signature, static_argnames, original)
        self.stale_recompiles = 0
        self.type_misses = 0
        self.installed_key: Hashable | None = None
        self.source = compiler.Source.of(original)
        self.scope = loader.Scope.of(original)
        # a traceback through a call's compiled code reads as one through the user's code
        self.tidy = functools.partial(callpath.tidied, filename=original.__code__.co_filename)
        self.pass_through = bool(original.__code__.co_flags & frontend.PASS_THROUGH_FLAGS)
        self.store: VersionCache[Version] = VersionCache()
        self.lock = threading.Lock()
        # the compilations in progress, by (key, for any types)
        self.pending: dict[tuple[Hashable, bool], threading.Event] = {}

    def trial(self, passes: Sequence[Pass]) -> FunctionCache:
        """The same function's versions with other passes, installed nowhere (check mode)."""
        options = compiler.Options(passes=tuple(passes), guards=self.options.guards,
                                   fastmath=self.options.fastmath)
        return FunctionCache(self.original, options, self.static_argnames)

    # ------------------------------------------------------------ calls

    @callpath.entry
    def first_call(self, *args: Any, **kwargs: Any) -> Any:
        """The compiling stub's target: compile, install, then run this call."""
        if callpath.disabled():
            return self.original(*args, **kwargs)
        version = self.selected_version(*self.key_for(args, kwargs), wait=False)
        return self.run(version, args, kwargs)

    @callpath.on_call_path
    def run(self, version: Version, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call `version`. It checks its static values on entry by identity, but the cache
        finds it by type and bits: an equal value held by another object is passed on as the
        very object it was compiled with (its code starts by assigning that value anyway)."""
        static = {a.name: a.value for a in version.assumptions if a.argument and not a.of_type}
        if static:
            bound = self.signature.bind(*args, **kwargs)
            bound.apply_defaults()
            bound.arguments.update(static)
            args, kwargs = bound.args, bound.kwargs
        return version.loaded()(*args, **kwargs)

    def key_for(self, args: tuple[Any, ...], kwargs: dict[str, Any],
                ) -> tuple[Hashable, dict[str, Any], dict[str, ArgumentType]]:
        """The cache key of the version these arguments select (see `static_key`), the static
        values written into it, and the types of the other arguments (those of
        `SPECIALIZED_TYPES`, and the kinds of NumPy arrays of numbers: `ir.ArrayKind`). A
        mutable static value is passed as it is, like any other argument.

        Raises TypeError, as the function would, when the arguments do not fit."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        key = tuple((name, static_key(bound.arguments[name])) for name in self.static_argnames)
        values = {name: bound.arguments[name] for name, part in key if part != PASSED_AS_IS}
        kinds: dict[str, ArgumentType] = {}
        shape_owners: dict[tuple[int, ...], str] = {}  # each shape's first argument
        for name, value in bound.arguments.items():
            if name in values or self.signature.parameters[name].kind in (
                    inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                continue
            if type(value) in SPECIALIZED_TYPES:
                kinds[name] = type(value)
            elif (cls := methods.receiver_class(value)) is not None:
                kinds[name] = cls  # (whose methods inline_calls may inline behind checks)
            elif (kind := value_types.array_kind(value)) is not None:
                owner = shape_owners.setdefault(value.shape, name)
                symbols = tuple(f"{owner}[{axis}]" for axis in range(kind.ndim))
                kinds[name] = dataclasses.replace(kind, shape=symbols)
        return key, values, kinds

    # ------------------------------------------------------------ versions

    def installed(self) -> Version | None:
        """The version installed as the public function's code (read under `lock`)."""
        slot = self.store.slots.get(self.installed_key)
        return slot.selected if slot is not None else None

    @property
    def versions(self) -> dict[Hashable, Version]:
        """The version each key's calls run now (a copy)."""
        with self.lock:
            return {key: s.selected for key, s in self.store.slots.items() if s.selected}

    @property
    def untyped(self) -> dict[Hashable, Version]:
        """Each key's version for arguments of any type, where compiled (a copy)."""
        with self.lock:
            return {key: s.untyped for key, s in self.store.slots.items() if s.untyped}

    def listing(self) -> list[CachedVersion]:
        """Every cached version with its entry conditions, least recently used key first."""
        with self.lock:
            installed = self.installed()
            held = [(slot, version) for slot in self.store.slots.values()
                    for version in slot.versions()]
        return [CachedVersion(dict(slot.static), tuple(map(entry_condition, version.assumptions)),
                              version.source, version is installed, not _relied_types(version))
                for slot, version in held]

    def info(self) -> CacheInfo:
        with self.lock:
            info = self.store.info()
        if self.disk is None:
            return info
        return dataclasses.replace(info, disk_hits=self.disk.hits, disk_misses=self.disk.misses,
                                   disk=tuple(self.disk.events))

    def _obtained(self, key: Hashable, static: dict[str, Any], kinds: dict[str, ArgumentType],
                  reason: str | None, untyped: bool, wait: bool) -> Version:
        """The version for `key` (the one for any types with `untyped`), compiled here unless
        another thread is compiling it; then wait for that one, or with `wait=False` (a call:
        it must never wait for code that may be waiting for it) raise `callpath.Busy`."""
        while True:
            with self.lock:
                slot = self.store.get(key)
                found = None if slot is None else slot.untyped if untyped else slot.selected
                if found is not None:
                    self.store.hits += 1
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

    def _store(self, key: Hashable, static: dict[str, Any], made: Version,
               untyped: bool) -> Version:
        """Keep `made` for `key` (unless a version is there already: then that one is used);
        the first version stored is the one installed."""
        with self.lock:
            slot = self.store.slot(key, static)
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
            self.store.evict(keep=self.installed_key)
            return found

    def _install(self) -> None:
        if self.public is not None:
            self.public.install()

    def version(self, key: Hashable, static: dict[str, Any], kinds: dict[str, ArgumentType],
                reason: str | None = None, wait: bool = True) -> Version:
        """The compiled version for `key` (made with the `static` argument values), compiling
        it once if needed for arguments of the types `kinds` (`reason`: why it is needed, by
        default the static values that differ from the installed version's). The first
        version compiled is the one installed. `wait`: see `_obtained`."""
        return self._obtained(key, static, kinds, reason, untyped=False, wait=wait)

    def _miss_reason(self, static: dict[str, Any]) -> str:
        with self.lock:
            installed = self.store.slots.get(self.installed_key)
        return "first call" if installed is None else static_change(installed.static, static)

    def selected_version(self, key: Hashable, static: dict[str, Any],
                         kinds: dict[str, ArgumentType], wait: bool = True) -> Version:
        """The version a call with these arguments runs."""
        found = self.version(key, static, kinds, wait=wait)
        relied = _relied_types(found)
        if all(kinds.get(name) == kind for name, kind in relied.items()):
            return found
        return self.untyped_version(key, static, type_change(relied, kinds), wait=wait)

    def untyped_version(self, key: Hashable, static: dict[str, Any],
                        reason: str = "the version for any argument types", wait: bool = True,
                        ) -> Version:
        """The version for `key` that takes arguments of any type, compiling it if needed."""
        return self._obtained(key, static, {}, reason, untyped=True, wait=wait)

    def general_version(self) -> Version:
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
            self.store.clear()

    def recompile(self) -> None:
        """Compile again now, reading the current values of the globals the compiler uses."""
        self.clear()
        self.stale_recompiles = 0
        if not self.static_argnames:
            self.version(GENERAL, {}, {})

    # ------------------------------------------------------------ guards and type misses

    @callpath.entry
    def stale_call(self, *args: Any, **kwargs: Any) -> Any:
        """Where a failed guard sends the call: a global the compiled code relied on has been
        rebound (or deleted), or a static argument has another value. Run the version for
        these arguments and the globals as they are now, compiling it if needed."""
        called = self.options.compiled_object
        if called is not None and not _calls_original(args[0], called):
            # the object's class or its `__call__` changed: run what calling it runs now
            # (`symbolic(obj)` again compiles that)
            return args[0](*args[1:], **kwargs)
        key, static, kinds = self.key_for(args, kwargs)
        with self.lock:
            slot = self.store.get(key)
            held = slot.versions() if slot is not None else []
        stale = {id(version): why for version in held if (why := self._stale_because(version))}
        reason = self._drop_stale(key, stale) if stale else None
        if slot is not None and slot.selected is not None and id(slot.selected) not in stale:
            with self.lock:
                self.store.hits += 1
            return self.run(slot.selected, args, kwargs)
        return self.run(self.version(key, static, kinds, reason, wait=False), args, kwargs)

    def _drop_stale(self, key: Hashable, stale: dict[int, str]) -> str:
        """Forget the versions for `key` whose globals changed (ids in `stale`); the reason."""
        with self.lock:
            self.stale_recompiles += 1
            slot = self.store.get(key)
            if slot is not None:
                slot.selected = None if id(slot.selected) in stale else slot.selected
                slot.untyped = None if id(slot.untyped) in stale else slot.untyped
            last = self.stale_recompiles == MAX_STALE_RECOMPILES
        reason = next(iter(stale.values()))
        return reason + (f" ({MAX_STALE_RECOMPILES} times: from now on compiled without "
                         f"relying on globals)" if last else "")

    def _stale_because(self, version: Version) -> str | None:
        """Why the version no longer fits: a global it relies on was rebound or deleted, or an
        object fact failed; None if every assumption still holds."""
        namespace = frontend.namespace_of(self.original)
        for assumption in version.assumptions:
            if assumption.fails_when is not None:
                if objects.fails(assumption):
                    return f"{assumption.name} changed ({assumption.reason})"
                continue
            found, value = namespace.lookup(assumption.name)
            if not assumption.argument and not (found and value is assumption.value):
                return f"global {assumption.name} {'rebound' if found else 'deleted'}"
        return None

    @callpath.entry
    def type_miss(self, *args: Any, **kwargs: Any) -> Any:
        """Where a failed type check sends the call: an argument's type is not the one the
        version was compiled for. Run the version for any types; after `MAX_TYPE_MISSES` such
        calls, install that version instead."""
        key, static, kinds = self.key_for(args, kwargs)
        with self.lock:
            slot = self.store.slots.get(key)
            relied = _relied_types(slot.selected) if slot and slot.selected else {}
        untyped = self.untyped_version(key, static, type_change(relied, kinds), wait=False)
        with self.lock:
            self.type_misses += 1
            slot = self.store.get(key)
            if self.type_misses >= MAX_TYPE_MISSES and slot is not None \
                    and slot.selected is not untyped:
                slot.selected = untyped
                if key == self.installed_key:
                    self._install()
        return self.run(untyped, args, kwargs)

    @callpath.entry
    def checked_call(self, *args: Any, **kwargs: Any) -> Any:
        """In check mode, every call: compare the compiled version with the original first."""
        version = self.version(*self.key_for(args, kwargs), wait=False)  # what the call would run
        return check.checked_call(self, version, args, kwargs)

    # ------------------------------------------------------------ compiling

    def _compile(self, static: dict[str, Any], kinds: dict[str, ArgumentType],
                 reason: str) -> Version:
        """A new version (outside the lock: the passes may run user code), counted a miss."""
        if callpath.compiling(self):
            raise self._reentered()
        with self.lock:
            self.store.compiled(reason)
        written = self.source.function
        if self.pass_through:
            return self._as_written("generator or coroutine: passed through unchanged")
        if not written.checked:
            return self._as_written("too deeply nested for symcompile to check that its file "
                                    "still holds the code that runs: runs as written")
        if (reader := frontend.frame_reader(written.node, self.original)) is not None:
            return self._as_written(f"reads a frame's locals ({reader}): runs as written")
        try:
            with callpath.marked_compiling(self):
                options, loading = self._options(static, kinds), self._loading()
                if self.disk is not None:
                    return self.disk.version(self.source, options, loading)
                return compiler.compile_version(self.source, options, loading)
        except (SymbolicError, Warning):  # (a warning filtered into an error: as itself)
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

    def compiled_again(self, version: Version, static: dict[str, Any],
                       kinds: dict[str, ArgumentType]) -> Version:
        """`version` (read from the disk cache: no IR, no pass log) compiled again with the
        same options, with all that compiling makes; not stored, not installed."""
        relied = kinds if _relied_types(version) else {}
        with callpath.marked_compiling(self):
            return compiler.compile_version(self.source, self._options(static, relied),
                                            self._loading())

    def _as_written(self, note: str) -> Version:
        return compiler.kept_as_written(self.source.function, note, self.original)

    def _options(self, static: dict[str, Any], kinds: dict[str, ArgumentType]) -> compiler.Options:
        """The options of a version for these static values and argument types."""
        return dataclasses.replace(
            self.options, static=static,
            # a function whose globals keep changing under it is compiled without relying on any
            resolve_globals=self.stale_recompiles < MAX_STALE_RECOMPILES,
            # nor on argument types when they keep changing
            argument_types=kinds if self.type_misses < MAX_TYPE_MISSES else {},
            weigh_types=True)

    def _loading(self) -> compiler.Loading:
        """Loaded in the original's world, its checks on entry calling back here."""
        free_count = self.public.closure_size() if self.public is not None else 0
        return compiler.Loading(self.scope, self.original.__doc__, self.stale_call,
                                self.type_miss, free_count, self.tidy)

    def _reentered(self) -> SymbolicError:
        return self._error("its compiled code was asked for while it was being compiled",
                           "code the compiler runs (a pass given with passes=, a __getattr__...)"
                           " may call the function, not ask for its compiled code")

    def _error(self, message: str, hint: str) -> SymbolicError:
        written = self.source.function
        node = written.node
        line = written.lines[node.lineno - 1] if node.lineno <= len(written.lines) else ""
        return SymbolicError(f"cannot compile {self.original.__qualname__!r}: {message}",
                             filename=written.filename, lineno=node.lineno,
                             col=node.col_offset, source_line=line, hint=hint)


def _relied_types(version: Version) -> dict[str, ArgumentType]:
    """The argument types a version relies on (checked on its entry)."""
    return {a.name: a.value for a in version.assumptions
            if a.of_type and isinstance(a.value, (type, ir.ArrayKind))}


def _calls_original(value: object, called: compiler.CompiledObject) -> bool:
    """Whether calling the compiled object `value` still runs the code compiled."""
    return not any(objects.fails(fact) for fact in
                   objects.call_facts(value, called.called, called.kind))


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
