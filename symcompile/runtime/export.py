"""Export: one compiled version written as a standalone module that imports only NumPy and the
standard library (`symcompile.export(f, path, *example_args)`).

The version the example arguments select is compiled again with the globals frozen (no guard
on them: the module keeps the values read at export) through the one compile path
(`compiler.compile_version`). Its free names become the module's globals: each bound object,
global or closure value spelled as a literal, a NumPy or standard-library object reached by
module and name, or an array (or NumPy scalar) in a sibling `.npz` loaded with
`allow_pickle=False`. Anything else (a user object or function the code still calls) cannot
leave the process: export refuses it and says which name holds it. The entry conditions stay:
a call with other argument types raises TypeError, another static value ValueError. A compiled
object (`symbolic(net)`) exports as a function of the other arguments, with its weights.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import importlib
import math
from importlib import metadata
import os
import struct
import symtable
import sys
import types
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..errors import SymbolicError
from . import api, cache, compiler

PREFIX = "_exported_"


class Refused(SymbolicError):
    """What export cannot write into a standalone module."""


def _static_failed(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("an exported version's static check ran in symcompile")


def _type_failed(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("an exported version's type check ran in symcompile")


@dataclasses.dataclass
class Module:
    """The exported module being written: imports, named values, arrays for the `.npz`."""

    imports: dict[str, str] = dataclasses.field(default_factory=dict)  # module → alias
    lines: list[str] = dataclasses.field(default_factory=list)
    arrays: dict[str, np.ndarray] = dataclasses.field(default_factory=dict)
    spelled: dict[int, str] = dataclasses.field(default_factory=dict)  # id(value) → name
    frozen: list[str] = dataclasses.field(default_factory=list)  # header lines

    def module(self, name: str) -> str:
        alias = self.imports.setdefault(name, PREFIX + name.replace(".", "_"))
        return alias

    def define(self, name: str, value: object, what: str) -> None:
        """`name = <value>` in the module (the same object for a value defined before)."""
        self.lines.append(f"{name} = {self.spell(value, name, what)}")
        self.spelled.setdefault(id(value), name)

    def spell(self, value: object, name: str, what: str) -> str:
        if id(value) in self.spelled:
            return self.spelled[id(value)]
        if _is_literal(value):
            return _literal(value, self)
        if isinstance(value, (np.ndarray, np.generic)):
            return self._array(value, name, what)
        if isinstance(value, np.dtype) and np.dtype(value.str) is value:
            return f"{self.module('numpy')}.dtype({value.str!r})"
        if isinstance(value, types.ModuleType) and _shippable(value.__name__):
            return self.module(value.__name__)
        found = _reference(value)
        if found is not None:
            module, qualname = found
            return qualname if module == "builtins" else f"{self.module(module)}.{qualname}"
        raise Refused(
            f"cannot export {what}: `{name}` holds {cache.describe_value(value)} "
            f"({type(value).__module__}.{type(value).__qualname__}), which a module importing "
            f"only NumPy cannot hold",
            hint="an exported module holds numbers, strings, NumPy arrays and functions of NumPy "
                 "and the standard library; make the code inline or fold what it calls, or "
                 "pass the object as an argument")

    def _array(self, value: np.ndarray | np.generic, name: str, what: str) -> str:
        if value.dtype.hasobject:
            raise Refused(f"cannot export {what}: the array `{name}` holds Python objects",
                          hint="export arrays of numbers (they are loaded with allow_pickle=False)")
        self.arrays[name] = np.asarray(value)
        scalar = "[()]" if isinstance(value, np.generic) else ""
        return f"{PREFIX}data[{name!r}]{scalar}"


def _described(value: object) -> str:
    """A value in the header: an array by kind, a function by where it is defined."""
    if isinstance(value, (np.ndarray, np.generic)):
        return f"{type(value).__name__} {value.dtype} {np.shape(value)} (in the .npz)"
    code = getattr(value, "__code__", None)
    if isinstance(code, types.CodeType):
        name = f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', '?')}"
        return f"{name} ({code.co_filename}:{code.co_firstlineno})"
    return cache.describe_value(value)


def _is_literal(value: object) -> bool:
    if type(value) in (type(None), bool, int, float, complex, str, bytes, type(Ellipsis)):
        return True
    return type(value) is tuple and all(_is_literal(item) for item in value)


def _literal(value: object, module: Module) -> str:
    """Python source for a value of a builtin type, with every bit (NaN payloads too)."""
    if type(value) is float:
        if repr(value) != "nan" and struct.pack("<d", float(repr(value))) == struct.pack("<d", value):
            return repr(value) if math.isfinite(value) else f"float({repr(value)!r})"
        return f"{module.module('struct')}.unpack('<d', {struct.pack('<d', value)!r})[0]"
    if type(value) is complex:
        return f"complex({_literal(value.real, module)}, {_literal(value.imag, module)})"
    if type(value) is tuple:
        items = [_literal(item, module) for item in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if value is Ellipsis:
        return "Ellipsis"
    return repr(value)


def _shippable(module: str) -> bool:
    root = module.split(".")[0]
    return root == "numpy" or (root in sys.stdlib_module_names and not root.startswith("_")) \
        or root == "builtins"


def _reference(value: object) -> tuple[str, str] | None:
    """(module, qualified name) where `value` is found again, in NumPy or the standard library."""
    if isinstance(value, np.ufunc):
        name = str(getattr(value, "__name__", ""))
        return ("numpy", name) if getattr(np, name, None) is value else None
    module_name = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if not isinstance(module_name, str) or not isinstance(qualname, str) \
            or not _shippable(module_name) or "<" in qualname:
        return None
    try:
        found: object = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return (module_name, qualname) if found is value else None


# ------------------------------------------------------------------ the version


@dataclasses.dataclass
class Selected:
    """The version to export and what it was compiled for."""

    state: api.SymbolicFunction
    version: compiler.Version
    guarded: compiler.Version  # the same with guards: what it relied on
    static: dict[str, object]
    instance: object | None  # the compiled object, if any


def _selected(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Selected:
    state = api.state_of(func)
    if state is None:
        raise TypeError(f"export() expects a @symbolic function or compiled object; got {func!r}")
    functions = state.cache
    instance = func.__self__ if isinstance(func, types.MethodType) else None
    bound_self = () if instance is None else (instance,)
    _, static, kinds = functions.key_for((*bound_self, *args), kwargs)
    options = dataclasses.replace(functions.options, guards=False, comments=False,
                                  static=static, argument_types=kinds)
    loading = compiler.Loading(functions.scope, None, _static_failed, _type_failed)
    version = compiler.compile_version(functions.source, options, loading)
    if version.ir is None:
        raise Refused(f"cannot export {functions.original.__qualname__}: {version.note}")
    guarded = compiler.compile_version(
        functions.source, dataclasses.replace(options, guards=True), loading)
    return Selected(state, version, guarded, static, instance)


def _free_names(source: str) -> list[str]:
    """The names the generated def reads from outside itself."""
    table = symtable.symtable(source, "<export>", "exec").get_children()[0]
    assert isinstance(table, symtable.Function)
    return sorted(table.get_globals())


def _refuse_writes_outside(node: ast.FunctionDef, what: str) -> None:
    for inner in ast.walk(node):
        if isinstance(inner, (ast.Global, ast.Nonlocal)):
            raise Refused(f"cannot export {what}: it assigns {', '.join(inner.names)} outside "
                          f"itself, which the exported module could only copy")


def _value_of(name: str, selected: Selected) -> tuple[bool, object, str]:
    """(found, value, where from) for a free name of the generated code."""
    version, original = selected.version, selected.state.original
    if name in version.bindings:
        return True, version.bindings[name], "bound"
    cells = dict(zip(original.__code__.co_freevars, original.__closure__ or ()))
    if version.ir is not None:
        cells.update(version.ir.shared_cells)
    if name in cells:
        try:
            return True, cells[name].cell_contents, "closure variable"
        except ValueError:
            return False, None, ""
    if name in original.__globals__:
        return True, original.__globals__[name], "global"
    return hasattr(builtins, name), getattr(builtins, name, None), "builtin"


# ------------------------------------------------------------------ writing


def export(func: Any, path: str | os.PathLike[str], /, *args: Any, name: str | None = None,
           **kwargs: Any) -> Path:
    """Write the version of `func` that these example arguments select as a standalone module
    at `path` (arrays in a sibling `.npz`); the module's function is `name` (by default the
    function's name; a compiled object's class name in lower case). Returns the path."""
    selected = _selected(func, args, kwargs)
    original = selected.state.original
    what = f"{original.__module__}.{original.__qualname__}"
    public = name or (type(selected.instance).__name__.lower() if selected.instance is not None
                      else original.__name__)
    target = Path(path)
    module = Module()
    text = _module_text(selected, module, public, what, target.with_suffix(".npz").name)
    if module.arrays:
        _write_arrays(target.with_suffix(".npz"), module.arrays)
    _write_text(target, text)
    return target


def _module_text(selected: Selected, module: Module, public: str, what: str,
                 npz_name: str) -> str:
    version = selected.version
    node = ast.parse(version.source).body[0]
    assert isinstance(node, ast.FunctionDef)
    _refuse_writes_outside(node, what)
    compiled_name = f"{PREFIX}call" if selected.instance is not None else public
    if compiled_name != node.name and node.name in _free_names(version.source):
        raise Refused(f"cannot export {what} under another name: it calls itself")
    checks = _check_helpers(selected, module, compiled_name, public, what)
    body = _definitions(selected, module, compiled_name, what)
    function = _renamed(version.source, node, compiled_name)
    entry = _object_entry(selected, node, public) if selected.instance is not None else []
    defaults = _defaults(selected, module, public if entry else compiled_name, what)
    head = _header(selected, module, public, what)
    if module.arrays:
        os_alias, numpy_alias = module.module("os"), module.module("numpy")
    imports = [f"import {name} as {alias}" for name, alias in sorted(module.imports.items())]
    if module.arrays:
        imports.append(f"{PREFIX}data = {numpy_alias}.load({os_alias}.path.join({os_alias}.path."
                       f"dirname({os_alias}.path.abspath(__file__)), {npz_name!r}), "
                       f"allow_pickle=False)")
    parts = [head, "\n".join(imports), "\n".join(body), checks, function, "\n".join(entry),
             "\n".join(defaults)]
    return "\n\n\n".join(part.rstrip("\n") for part in parts if part.strip()) + "\n"


def _definitions(selected: Selected, module: Module, compiled_name: str, what: str) -> list[str]:
    """`name = value` for each free name of the generated code."""
    version = selected.version
    helpers = {name for name, value in version.bindings.items()
               if value is _static_failed or value is _type_failed}
    for name in _free_names(version.source):
        if name in helpers or name == compiled_name:
            continue
        found, value, where = _value_of(name, selected)
        if not found or getattr(builtins, name, None) is value:
            continue
        if selected.instance is not None and value is selected.instance:
            module.lines.append(f"{name} = None  # the compiled object (its weights are below)")
            continue
        module.define(name, value, what)
        if where != "bound" or isinstance(value, (np.ndarray, np.generic)):
            module.frozen.append(f"{where} {name}: {_described(value)}")
    return module.lines


def _renamed(source: str, node: ast.FunctionDef, name: str) -> str:
    """The generated def with another name and without its defaults and annotations (set from
    the original's values below it)."""
    arguments = _bare(node.args)
    lines = source.splitlines()
    first_body = min([node.body[0].lineno, *(d.lineno for d in getattr(node.body[0],
                                                                       "decorator_list", []))])
    header = f"def {name}({ast.unparse(arguments)}):"
    return "\n".join([header, *lines[first_body - 1:]]) + "\n"


def _bare(arguments: ast.arguments) -> ast.arguments:
    bare = ast.arguments(
        posonlyargs=[ast.arg(a.arg) for a in arguments.posonlyargs],
        args=[ast.arg(a.arg) for a in arguments.args],
        vararg=ast.arg(arguments.vararg.arg) if arguments.vararg else None,
        kwonlyargs=[ast.arg(a.arg) for a in arguments.kwonlyargs],
        kw_defaults=[None] * len(arguments.kwonlyargs),
        kwarg=ast.arg(arguments.kwarg.arg) if arguments.kwarg else None, defaults=[])
    return bare


def _defaults(selected: Selected, module: Module, function: str, what: str) -> list[str]:
    original = selected.state.original
    lines = []
    defaults = original.__defaults__
    if defaults:
        spelled = ", ".join(module.spell(value, f"default_{index}", what)
                            for index, value in enumerate(defaults))
        lines.append(f"{function}.__defaults__ = ({spelled},)")
    if original.__kwdefaults__:
        spelled = ", ".join(f"{key!r}: {module.spell(value, key, what)}"
                            for key, value in original.__kwdefaults__.items())
        lines.append(f"{function}.__kwdefaults__ = {{{spelled}}}")
    return lines


def _object_entry(selected: Selected, node: ast.FunctionDef, public: str) -> list[str]:
    """For a compiled object: `def public(<the other parameters>)` calling the compiled code
    with the object's place taken by None (export checks the code never reads it)."""
    self_name = (node.args.posonlyargs + node.args.args)[0].arg
    object_names = {self_name} | {name for name, value in selected.version.bindings.items()
                                  if value is selected.instance}
    helpers = {name for name, value in selected.version.bindings.items()
               if value is _static_failed or value is _type_failed}
    body = [stmt for stmt in node.body if not _is_static_check(stmt)]
    if any(_reads(stmt, object_names, helpers) for stmt in body):
        raise Refused("cannot export this compiled object: its compiled code still reads the "
                      "object itself, which a module importing only NumPy cannot hold")
    arguments = _bare(node.args)
    if arguments.posonlyargs:
        arguments.posonlyargs = arguments.posonlyargs[1:]
    else:
        arguments.args = arguments.args[1:]
    passed = [a.arg for a in arguments.posonlyargs + arguments.args]
    passed += [f"*{arguments.vararg.arg}"] if arguments.vararg else []
    passed += [f"{a.arg}={a.arg}" for a in arguments.kwonlyargs]
    passed += [f"**{arguments.kwarg.arg}"] if arguments.kwarg else []
    return [f"def {public}({ast.unparse(arguments)}):",
            f"    return {PREFIX}call(None, {', '.join(passed)})"]


def _reads(node: ast.AST, names: set[str], helpers: set[str]) -> bool:
    """Whether `node` reads one of `names` other than as an argument of a call of a helper
    (the entry checks pass every argument on)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
        return False
    if isinstance(node, ast.Name):
        return node.id in names
    return any(_reads(child, names, helpers) for child in ast.iter_child_nodes(node))


def _is_static_check(stmt: ast.stmt) -> bool:
    """The static values' check on entry: `try: stale = ...` and `if stale: ...`."""
    if isinstance(stmt, ast.If):
        return isinstance(stmt.test, ast.Name) and stmt.test.id == "stale"
    return isinstance(stmt, ast.Try) and isinstance(stmt.body[0], ast.Assign) \
        and any(isinstance(t, ast.Name) and t.id == "stale" for t in stmt.body[0].targets)


def _check_helpers(selected: Selected, module: Module, compiled_name: str, public: str,
                   what: str) -> str:
    """The functions the checks on entry call when a call is outside the export's conditions."""
    version = selected.version
    conditions = [cache.entry_condition(a) for a in version.assumptions if a.of_type]
    statics = {a.name: a.value for a in version.assumptions if a.argument and not a.of_type}
    lines = []
    for name, value in version.bindings.items():
        if value is _type_failed:
            message = (f"{public}() was exported for arguments where "
                       f"{' and '.join(conditions)}; got ")
            passed = "args" if selected.instance is None else "args[1:]"
            lines += [f"def {name}(*args, **kwargs):",
                      f"    got = ', '.join(type(value).__name__ for value in "
                      f"[*{passed}, *kwargs.values()])",
                      f"    raise TypeError({message!r} + got + ' (export another version for "
                      f"these types)')"]
        elif value is _static_failed:
            lines += _static_helper(name, selected, module, compiled_name, public, statics)
    return "\n".join(lines).replace("\ndef ", "\n\n\ndef ")


def _static_helper(name: str, selected: Selected, module: Module, compiled_name: str,
                   public: str, statics: dict[str, object]) -> list[str]:
    """The static values differ by identity: run the call if equal by type and bits (as the
    cache does), else raise ValueError."""
    if selected.instance is not None:
        return [f"def {name}(*args, **kwargs):",
                f"    raise ValueError('{public}(): the compiled object is not passed')"]
    inspect_alias, struct_alias = module.module("inspect"), module.module("struct")
    held = {key: next(n for n, v in selected.version.bindings.items() if v is value)
            for key, value in statics.items()}
    spelled = ", ".join(f"{key!r}: {binding}" for key, binding in held.items())
    return [
        f"def {PREFIX}key(value):",
        "    if type(value) is float:",
        f"        return (float, {struct_alias}.pack('<d', value))",
        "    if type(value) is complex:",
        f"        return (complex, {PREFIX}key(value.real), {PREFIX}key(value.imag))",
        "    if type(value) is tuple:",
        f"        return (tuple, tuple({PREFIX}key(item) for item in value))",
        "    return (type(value), value)",
        f"def {name}(*args, **kwargs):",
        f"    bound = {inspect_alias}.signature({compiled_name}).bind(*args, **kwargs)",
        "    bound.apply_defaults()",
        f"    for name, expected in {{{spelled}}}.items():",
        f"        if {PREFIX}key(bound.arguments[name]) != {PREFIX}key(expected):",
        f"            raise ValueError(f'{public}() was exported for {{name}} = {{expected!r}}; "
        f"got {{bound.arguments[name]!r}} (export another version for this value)')",
        "        bound.arguments[name] = expected",
        f"    return {compiled_name}(*bound.args, **bound.kwargs)",
    ]


def _header(selected: Selected, module: Module, public: str, what: str) -> str:
    version, original = selected.version, selected.state.original
    code = original.__code__
    specialized = [f"{a.name}: the compiled {type(a.value).__name__} (its weights frozen below)"
                   if a.value is selected.instance else cache.entry_condition(a)
                   for a in version.assumptions if a.argument]
    relied = [f"global {a.name}: {_described(a.value)}" if a.fails_when is None
              else f"the object's structure: {a.reason}"
              for a in selected.guarded.assumptions if not a.argument]
    lines = [f"{public}: {what} ({code.co_filename}:{code.co_firstlineno}), exported by "
             f"symcompile {_symcompile_version()}.",
             "",
             "Imports only NumPy and the standard library. Exported with Python "
             f"{sys.version.split()[0]} and NumPy {np.__version__}.",
             "",
             "Specialized on (checked on every call; another type raises TypeError, another "
             "static value ValueError):"]
    lines += [f"    {line}" for line in specialized or ["nothing: any arguments"]]
    lines += ["", "Froze (the values read at export; changing them in the original module "
                  "does not reach this one):"]
    frozen = [*dict.fromkeys(relied), *module.frozen]
    lines += [f"    {line}" for line in frozen or ["nothing"]]
    return '"""' + "\n".join(lines).replace('"""', "'''").replace("\\", "\\\\") + '\n"""'


def _symcompile_version() -> str:
    try:
        return metadata.version("symcompile")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def _write_text(path: Path, text: str) -> None:
    _atomically(path, lambda handle: handle.write(text.encode("utf-8")))


def _write_arrays(path: Path, arrays: dict[str, np.ndarray]) -> None:
    named: dict[str, Any] = arrays
    _atomically(path, lambda handle: np.savez(handle, allow_pickle=False, **named))


def _atomically(path: Path, write: Callable[[Any], object]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
