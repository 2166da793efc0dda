"""The disk cache: compiled versions kept between processes (`@symbolic(cache=True)`).

Sits beside `cache.FunctionCache`, which asks it for a version before compiling one
(`DiskCache.version`). An entry is one `.npz` file (read with `allow_pickle=False`): the
generated source text, the user lines it runs as, and how to find again each object it binds
and each assumption it relies on: a number, string, bytes or tuple of those spelled exactly
(floats by their bits); an array or NumPy scalar the code copied, by value in the `.npz`; a
global array of the function's module, by module and name, its contents checked on load; a
module by name; a function or class by `module.qualname`, a Python function with a hash of its
source (an inlined callee edited since is a miss, never stale code). Anything else (an object
made at run time, a closure's cell, a compiled object) is not cached, and `cache_info` says why.

The file's name is a hash of what the compiled code depends on before compiling: the
function's source, file and first line, the options, static values and argument kinds, and
Python's version (`cpython-311`). What it depends on after compiling (callees, the globals
relied on) is checked when the entry is read: each is found again and compared as the guards
compare it; so are the versions of symcompile (and the text of its modules), NumPy and Python,
an entry of others being replaced. Entries are written to a temporary file in the same directory and moved
into place (`os.replace`), so two processes writing the same entry leave one whole entry. A
corrupted, truncated or foreign entry is ignored with a `DiskCacheWarning` and written again.

The directory is `SYMCOMPILE_CACHE_DIR`, else the platform's cache directory (`~/.cache/
symcompile`); it is created readable by its owner only (0700), and one that other users
could write to is not used (its entries would run as the user's code).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import hashlib
import importlib
import json
import os
import re
import struct
import sys
import tempfile
import types
import warnings
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .. import ir
from ..backend import codegen
from ..frontend import build as frontend
from . import compiler

ENV_DIR = "SYMCOMPILE_CACHE_DIR"
FORMAT = 1
SYMCOMPILE_VERSION = "0.1.0"
# the most recent disk events kept per function (for `cache_info`)
MAX_EVENTS = 32
_LITERAL_TYPES = (type(None), bool, int, str)
Json = Any


class DiskCacheWarning(UserWarning):
    """An entry of the disk cache was ignored (corrupted, truncated, of another version) or
    the cache directory cannot be used; the function is compiled as without the cache."""


class Uncacheable(Exception):
    """A version that cannot be kept on disk (the message says why)."""


class Stale(Exception):
    """An entry whose callees or globals are no longer as compiled (the message says which)."""


@functools.cache
def versions() -> dict[str, str]:
    """What an entry is only valid for: this format, symcompile's version and the text of
    its modules (an edited pass is another compiler), NumPy's and Python's versions."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return {"format": str(FORMAT), "symcompile": SYMCOMPILE_VERSION, "numpy": np.__version__,
            "python": sys.version, "implementation": sys.implementation.cache_tag or "",
            "modules": digest.hexdigest()}


def default_directory() -> Path:
    """`SYMCOMPILE_CACHE_DIR`, else the platform's per-user cache directory."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "symcompile"


def usable_directory(directory: Path) -> str | None:
    """Create `directory` (0700) if needed; why it cannot be used, or None."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = directory.stat()
    except OSError as exc:
        return f"cannot create {directory}: {exc}"
    if os.name == "posix" and (status.st_uid != os.getuid() or status.st_mode & 0o022):
        return f"{directory} is not the user's own (owned by another user or writable by others)"
    return None


# ------------------------------------------------------------------ values


@dataclasses.dataclass
class Encoder:
    """Writes values as JSON recipes, arrays aside (named `a0`, `a1`...)."""

    module_globals: dict[str, object]
    hooks: dict[str, object]
    arrays: dict[str, np.ndarray] = dataclasses.field(default_factory=dict)

    def encode(self, value: object, holder: str) -> Json:
        if type(value) is int:  # (in hex: decimal strings of huge ints are refused)
            return {"k": "int", "v": hex(value)}
        if type(value) in _LITERAL_TYPES:
            return {"k": type(value).__name__, "v": value}
        if type(value) is float:
            return {"k": "float", "v": struct.pack("<d", value).hex()}
        if type(value) is complex:
            return {"k": "complex", "v": [self.encode(value.real, holder),
                                          self.encode(value.imag, holder)]}
        if type(value) is bytes:
            return {"k": "bytes", "v": value.hex()}
        if value is Ellipsis:
            return {"k": "ellipsis"}
        if type(value) is tuple:
            return {"k": "tuple", "v": [self.encode(item, holder) for item in value]}
        if isinstance(value, ir.ArrayKind):
            if np.dtype(value.dtype.str) != value.dtype:
                raise Uncacheable(f"{holder} is an array of {value.dtype}, a dtype without a name")
            return {"k": "arraykind", "dtype": value.dtype.str, "ndim": value.ndim,
                    "contiguous": value.contiguous,
                    "shape": None if value.shape is None else list(value.shape)}
        for name, hook in self.hooks.items():
            if isinstance(value, types.MethodType) and value == hook:
                return {"k": "hook", "v": name}
        if type(value) is np.ndarray or isinstance(value, np.generic):
            return self._array(value, holder)
        if isinstance(value, np.dtype) and np.dtype(value.str) == value:
            return {"k": "dtype", "v": value.str}
        if isinstance(value, types.ModuleType) and sys.modules.get(value.__name__) is value:
            return {"k": "module", "v": value.__name__}
        return self._reference(value, holder)

    def _array(self, value: np.ndarray | np.generic, holder: str) -> Json:
        if value.dtype.hasobject:
            raise Uncacheable(f"{holder} is an array of Python objects")
        key = f"a{len(self.arrays)}"
        self.arrays[key] = np.array(value, copy=True)  # as it is now
        names = [name for name, held in self.module_globals.items() if held is value]
        if names:  # the code relies on this very array: found again by name
            return {"k": "global_array", "module": self.module_globals.get("__name__"),
                    "name": names[0], "key": key}
        return {"k": "array", "key": key, "scalar": isinstance(value, np.generic)}

    def _reference(self, value: object, holder: str) -> Json:
        module = getattr(value, "__module__", None)
        qualname = getattr(value, "__qualname__", None)
        if isinstance(value, np.ufunc):
            module, qualname = "numpy", value.__name__
        if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
            raise Uncacheable(f"{holder} holds {_described(value)}, which another process "
                              f"cannot find again by module and name")
        try:
            found = _find(module, qualname)
        except Stale:
            found = None
        if found is not value:
            raise Uncacheable(f"{holder} holds {_described(value)}, which is not "
                              f"{module}.{qualname}")
        recipe = {"k": "ref", "module": module, "qualname": qualname}
        if isinstance(value, types.FunctionType):
            recipe["source"] = _source_hash(value)
        return recipe


@dataclasses.dataclass
class Decoder:
    """Reads recipes back in this process: values found again and checked."""

    arrays: Any  # the entry's NpzFile
    hooks: dict[str, object]
    # each recipe's value: equal recipes give the very same object, as the code was compiled
    # with (a static value's check on entry is `n is n_2`, the cache passes the assumed one)
    decoded: dict[str, object] = dataclasses.field(default_factory=dict)

    def decode(self, recipe: Json) -> object:
        spelled = json.dumps(recipe, sort_keys=True)
        if spelled not in self.decoded:
            self.decoded[spelled] = self._decoded(recipe)
        return self.decoded[spelled]

    def _decoded(self, recipe: Json) -> object:
        kind = recipe["k"]
        if kind in ("NoneType", "bool", "str"):
            return recipe["v"]
        simple: dict[str, Callable[[Json], object]] = {
            "int": lambda r: int(r["v"], 16),
            "float": lambda r: _float(r["v"]),
            "complex": lambda r: complex(*(_float(part["v"]) for part in r["v"])),
            "bytes": lambda r: bytes.fromhex(r["v"]),
            "ellipsis": lambda r: Ellipsis,
            "tuple": lambda r: tuple(self.decode(item) for item in r["v"]),
            "dtype": lambda r: np.dtype(r["v"]),
            "hook": lambda r: self.hooks[r["v"]],
            "module": lambda r: _find(r["v"], ""),
            "arraykind": _array_kind,
            "array": self._array,
            "global_array": self._global_array,
            "ref": _referenced,
        }
        return simple[kind](recipe)

    def _array(self, recipe: Json) -> object:
        value = self.arrays[recipe["key"]]
        return value[()] if recipe["scalar"] else value

    def _global_array(self, recipe: Json) -> object:
        name = f"{recipe['module']}.{recipe['name']}"
        found = _find(recipe["module"], recipe["name"])
        stored = self.arrays[recipe["key"]]
        if not (type(found) is np.ndarray and found.dtype == stored.dtype
                and found.shape == stored.shape
                and found.tobytes() == stored.tobytes()):
            raise Stale(f"global array {name} changed")
        return found


def _float(bits: str) -> float:
    value: float = struct.unpack("<d", bytes.fromhex(bits))[0]
    return value


def _array_kind(recipe: Json) -> ir.ArrayKind:
    shape = recipe["shape"]
    return ir.ArrayKind(np.dtype(recipe["dtype"]), recipe["ndim"],
                        None if shape is None else tuple(shape), recipe["contiguous"])


def _referenced(recipe: Json) -> object:
    name = f"{recipe['module']}.{recipe['qualname']}"
    found = _find(recipe["module"], recipe["qualname"])
    if "source" in recipe and (not isinstance(found, types.FunctionType)
                               or _source_hash(found) != recipe["source"]):
        raise Stale(f"callee {name} changed")
    return found


def _find(module: str, qualname: str) -> object:
    try:
        found: object = importlib.import_module(module)
        for part in filter(None, qualname.split(".")):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise Stale(f"{module}.{qualname} is gone ({exc})") from exc
    return found


def _source_hash(function: types.FunctionType) -> str:
    """A hash of the function's source (a `@symbolic` function's: its original's)."""
    wrapped = getattr(function, "__wrapped__", None)
    written = wrapped if isinstance(wrapped, types.FunctionType) else function
    try:
        text = frontend.read_function_source(written).text
    except Exception as exc:  # noqa: BLE001 - any failure to read it: not cacheable
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise Uncacheable(f"the source of {function.__qualname__} cannot be read ({first})")
    return hashlib.sha256(text.encode()).hexdigest()


def _described(value: object) -> str:
    text = repr(value)
    text = text if len(text) <= 40 else text[:39] + "…"
    return f"{text} ({type(value).__module__}.{type(value).__qualname__})"


def _same(now: object, then: object) -> bool:
    """Whether a global holds what an entry relied on, as the guard compares (by identity;
    values without identity across processes by type and bits)."""
    if now is then:
        return True
    if isinstance(now, np.generic) and type(now) is type(then):
        return bool(now.dtype == getattr(then, "dtype", None)) \
            and now.tobytes() == np.asarray(then).tobytes()
    encoder = Encoder({}, {})
    try:
        return type(now) is type(then) and type(now) in (*_LITERAL_TYPES, float, complex,
                                                         bytes, tuple) \
            and encoder.encode(now, "") == encoder.encode(then, "")
    except Uncacheable:
        return False


# ------------------------------------------------------------------ entries


class DiskCache:
    """The disk entries of one function, and what happened to them (`events`)."""

    def __init__(self, original: types.FunctionType, directory: Path | None = None) -> None:
        self.original = original
        self.directory = directory
        self.hits = 0
        self.misses = 0
        self.events: collections.deque[str] = collections.deque(maxlen=MAX_EVENTS)

    def version(self, source: compiler.Source, options: compiler.Options,
                loading: compiler.Loading) -> compiler.Version:
        """The version for `options`: read from disk where an entry fits, else compiled and
        written (if it can be)."""
        directory = self.directory or default_directory()
        unusable = usable_directory(directory)
        if unusable is not None:
            warnings.warn(f"symcompile disk cache not used: {unusable}", DiskCacheWarning,
                          stacklevel=2)
            return self._compiled(source, options, loading, None, "directory not usable")
        try:
            key = _key(source, options)
        except Uncacheable as exc:
            return self._compiled(source, options, loading, None, f"not cacheable: {exc}")
        path = directory / f"{_safe(self.original.__qualname__)}-{key[:40]}.npz"
        hooks = _hooks(loading)
        try:
            found = _read(path, source, hooks, loading)
        except Stale as exc:
            return self._compiled(source, options, loading, path, str(exc))
        self.hits += 1
        self.events.append(f"disk hit: {path.name}")
        return found

    def _compiled(self, source: compiler.Source, options: compiler.Options,
                  loading: compiler.Loading, path: Path | None, why: str) -> compiler.Version:
        version = compiler.compile_version(source, options, loading)
        self.misses += 1
        if path is not None:
            try:
                _write(path, version, source, options, _hooks(loading))
            except Uncacheable as exc:
                why += f"; not cacheable: {exc}"
            except (OSError, ValueError, TypeError) as exc:
                why += f"; not written: {type(exc).__name__}: {exc}"
        self.events.append(f"disk miss: {why}")
        return version


def _hooks(loading: compiler.Loading) -> dict[str, object]:
    return {"recompile": loading.recompile, "type_miss": loading.type_miss}


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.]", "_", name)[:80]


def _key(source: compiler.Source, options: compiler.Options) -> str:
    """The hash of what a version depends on before compiling; Uncacheable if some of it has
    no stable spelling."""
    if options.compiled_object is not None:
        raise Uncacheable("a compiled object (its weights live in the process)")
    if options.objects or options.finish is not None:
        raise Uncacheable("compiled with fixed objects or a finishing rewrite")
    written = source.function
    encoder = Encoder({}, {})
    parts = {
        # (the other versions are checked on reading: an entry of another NumPy is replaced)
        "python": sys.implementation.cache_tag or sys.version,
        "function": [written.filename, written.node.lineno, written.text, written.private_class,
                     written.deferred_annotations,
                     getattr(source.namespace, "globals", {}).get("__name__")],
        "passes": [f"{run.__module__}.{run.__qualname__}" if run.__module__.startswith(
            "symcompile.") else encoder.encode(run, "a pass") for run in options.passes],
        "flags": [options.guards, options.fastmath, options.comments,
                  options.resolve_globals, options.weigh_types],
        "static": {name: encoder.encode(value, f"static argument {name}")
                   for name, value in sorted(options.static.items())},
        "kinds": {name: encoder.encode(kind, f"argument {name}")
                  for name, kind in sorted(options.argument_types.items())},
    }
    if encoder.arrays:
        raise Uncacheable("an array as a static argument")
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def _write(path: Path, version: compiler.Version, source: compiler.Source,
           options: compiler.Options, hooks: dict[str, object]) -> None:
    """Write `version`'s entry atomically; Uncacheable if something it holds has no recipe."""
    if version.ir is None:
        raise Uncacheable(version.note or "kept as written")
    if version.ir.shared_cells:
        raise Uncacheable("it shares cells with inlined closures")
    namespace = source.namespace.globals if source.namespace is not None else {}
    encoder = Encoder(dict(namespace), hooks)
    meta = {
        "versions": versions(), "key": path.stem, "source": version.source,
        "lines": list(version.lines),
        "bindings": {name: encoder.encode(value, f"bound name {name}")
                     for name, value in version.bindings.items()},
        "relied": [_assumption(a, encoder) for a in version.assumptions],
    }
    arrays = dict(encoder.arrays, meta=np.array(json.dumps(meta)))
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as file:
            np.savez(file, allow_pickle=False, **arrays)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _assumption(assumption: ir.Assumption, encoder: Encoder) -> Json:
    if assumption.fails_when is not None:
        raise Uncacheable(f"it relies on a fact of an object ({assumption.reason})")
    return {"name": assumption.name, "reason": assumption.reason,
            "argument": assumption.argument, "of_type": assumption.of_type,
            "value": encoder.encode(assumption.value, f"{assumption.name} (relied on)")}


def _read(path: Path, source: compiler.Source, hooks: dict[str, object],
          loading: compiler.Loading) -> compiler.Version:
    """The entry at `path`, loaded; Stale (a miss, with why) where there is none or it no
    longer fits, with a warning where it is damaged or foreign."""
    if not path.exists():
        raise Stale("first use")
    try:
        with open(path, "rb") as file, np.load(file, allow_pickle=False) as entry:
            meta = json.loads(str(entry["meta"][()]))
            if meta.get("key") != path.stem:
                raise ValueError(f"an entry for {meta.get('key')}")
            _same_versions(meta.get("versions"), path)
            decoder = Decoder(entry, hooks)
            bindings = {name: decoder.decode(recipe) for name, recipe in meta["bindings"].items()}
            relied = tuple(_relied(item, decoder) for item in meta["relied"])
            generated = codegen.Generated(meta["source"], bindings, tuple(meta["lines"]))
    except Stale:
        raise
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        warnings.warn(f"symcompile disk cache: ignored the entry {path} ({type(exc).__name__}: "
                      f"{exc}); compiling again", DiskCacheWarning, stacklevel=4)
        raise Stale("the entry was damaged (ignored)") from exc
    _check_globals(relied, source)
    return compiler.restored_version(source, generated, relied, loading, path.name)


def _same_versions(written: object, path: Path) -> None:
    """Stale (with a warning) unless the entry was written by this symcompile, NumPy and
    Python."""
    now = versions()
    if not isinstance(written, dict):
        raise ValueError("no versions")
    changed = [f"{name} {written.get(name, '?')[:12]} → {value[:12]}" for name, value in now.items()
               if written.get(name) != value]
    if changed:
        warnings.warn(f"symcompile disk cache: the entry {path} was written by another version "
                      f"({'; '.join(changed)}); compiling again", DiskCacheWarning, stacklevel=5)
        raise Stale(f"the entry was written by another version ({'; '.join(changed)}): replaced")


def _relied(item: Json, decoder: Decoder) -> ir.Assumption:
    return ir.Assumption(item["name"], decoder.decode(item["value"]), item["reason"],
                         argument=item["argument"], of_type=item["of_type"])


def _check_globals(relied: tuple[ir.Assumption, ...], source: compiler.Source) -> None:
    """Stale unless each global the entry relies on holds what it held (as the guards check)."""
    namespace = source.namespace
    for assumption in relied:
        if assumption.argument or namespace is None:
            continue
        found, value = namespace.lookup(assumption.name)
        if not found or not _same(value, assumption.value):
            raise Stale(f"global {assumption.name} changed")
