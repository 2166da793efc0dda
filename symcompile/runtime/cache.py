"""The cache of compiled versions of one `@symbolic` function: keys, size bound, statistics.

`api.SymbolicFunction` finds the version a call runs here, by the values of the function's
static arguments (`static_key`). Each key holds the version compiled for the argument types of
the call that made it and, where that one relies on them, the version for any types (`Slot`).
At most `MAX_VERSIONS` versions are kept; the least recently used key goes first, never the
one whose version is installed as the function's code. A dropped version is freed with its IR
and its `linecache` entry once nothing else holds its function.

Calls that run the installed version never reach this module (they are plain calls of the
generated code), so `hits` counts only the calls that came through Python: a static value or
argument type other than the installed version's, a global rebound, `symcompile.source`.
`misses` counts compilations, and `reasons` says why each one happened.
"""

from __future__ import annotations

import collections
import dataclasses
import struct
from typing import Generic, Hashable, Iterator, TypeVar

import numpy as np

from ..ir.nodes import ArgumentType

# the most versions one function keeps (about 20-60 kB each for small functions)
MAX_VERSIONS = 64
# the most recent reasons for compiling kept per function
MAX_REASONS = 32

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


def type_change(relied: dict[str, ArgumentType], kinds: dict[str, ArgumentType]) -> str:
    """Why a call needs the version for any types: its arguments' types that differ."""
    def named(kind: ArgumentType | None) -> str:
        if kind is None:
            return "another type"
        return kind.__name__ if isinstance(kind, type) else str(kind)
    changed = [f"{name} is {named(kinds.get(name))}, compiled for {named(kind)}"
               for name, kind in relied.items() if kinds.get(name) != kind]
    return "argument types changed: " + "; ".join(changed) if changed \
        else "the version for any argument types"


@dataclasses.dataclass(frozen=True)
class CacheInfo:
    """What `symcompile.cache_info(f)` says about a function's compiled versions."""

    hits: int          # calls that came through Python and found their version compiled
    misses: int        # compilations
    size: int          # versions held now
    max_size: int      # the most versions held (least recently used dropped first)
    reasons: tuple[str, ...]  # why each compilation happened, oldest first (the last 32)


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
