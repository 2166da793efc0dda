"""Whole modules: `optimize_source(text)` optimizes a module's source, not one live function.

It sits beside `api` as a second user of the compile path: where `@symbolic` compiles one
function of a running program, `optimize_source` reads a module's text, compiles each of its
functions with the same `compiler.compile_version` (not loaded, nothing checked on entry), and
prints the module back. It never
runs the user's code: only the `def` statements are compiled (their code objects taken out,
never executed) and NumPy, math and cmath imported. The output is a plain module, so it holds
no guards: everything the passes rely on must hold for the module's whole run. They may rely on
a *fixed* global only: a name bound exactly once in the module, by a top-level `def` (no
decorators, defaults only immutable literals) or an import of NumPy, math or cmath, and
assigned nowhere else (no other binding, `global` statement, `del`, attribute store such as
`mod.name = ...`), plus the builtins the module never binds. And only from where it is bound:
a top-level statement sees the fixed names bound above it; a function sees those bound before
the first top-level statement after its `def` that may run code (its earliest possible call).
A module that uses `globals()`, `vars()`, `exec`, `setattr`, `__dict__`, `import *` and the
like relies on nothing. Other modules are assumed not to rebind this module's globals.

What becomes of each top-level statement:

- a plain `def` is compiled with the default pipeline, as `@symbolic` would with no argument
  types; objects the passes bind (a hoisted `np.sin`) are written back by name. It is kept as
  written where that is impossible, and so are decorated or `async` functions, generators,
  functions with other defaults, classes and their methods;
- the value of an expression statement or an assignment (`=`, `+=`, annotated), at top level or
  inside top-level `if`/`for`/`while`/`with`/`try` blocks (`if __name__ == "__main__":`
  included), is optimized as `return value` of a function without parameters, and replaced
  when that gives one expression: `print(fancy_func(1, 2, 3, 4))` becomes `print(10)`;
- nothing is dropped, moved or added; imports, docstrings and a `#!` line stay; comments and
  formatting are not kept (the output is generated).
"""

from __future__ import annotations

import ast
import builtins
import copy
import importlib
import itertools
import linecache
import math
import types
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, TypeGuard

from .. import ir
from ..analysis.constants import PURE_BUILTINS
from ..analysis.trusted import TRUSTED_MODULES
from ..backend import codegen
from ..errors import SymbolicError
from ..frontend import build as frontend
from ..frontend.syntax import with_type_params
from ..ir.names import local_names
from ..ir.rewrite import map_statement_expressions, map_statements
from ..runtime import compiler

# names through which a module can rebind its globals (or the builtins) without naming them
# (`getattr` too, unless its attribute is a constant string not in this set)
INTROSPECTION_NAMES = frozenset({
    "globals", "vars", "locals", "exec", "eval", "setattr", "delattr", "__import__",
    "__builtins__", "__dict__", "__globals__", "__code__", "__defaults__", "__kwdefaults__",
    "__setattr__", "__delattr__", "__getattribute__", "f_globals", "f_builtins", "f_locals",
})
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IMMUTABLE_LITERALS = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))
_NO_PARAMETERS = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                               kw_defaults=[], kwarg=None, defaults=[])
_source_keys = itertools.count(1)


def parse_module(text: str, filename: str = "<string>") -> ast.Module:
    """The module's AST, after checking that Python compiles it; a `SymbolicError` with the
    file, line and column if it does not."""
    try:
        compile(text, filename, "exec", dont_inherit=True)
        return ast.parse(text, filename)
    except SyntaxError as error:
        raise SymbolicError(f"syntax error: {error.msg}", filename=filename,
                            lineno=error.lineno, col=max((error.offset or 1) - 1, 0),
                            source_line=error.text or "",
                            hint="symcompile optimizes valid Python only; fix this line first"
                            ) from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise SymbolicError(f"cannot compile the source: {type(error).__name__}: {error}",
                            filename=filename, hint="Python itself cannot compile this file"
                            ) from None


def optimize_source(text: str, filename: str = "<string>") -> str:
    """The module `text`, optimized: its functions compiled as `@symbolic` would, the values of
    its top-level statements inlined and folded where that is sound (see the module docstring).

    Run top to bottom, the result does what `text` does. `filename` names the source in
    errors. Raises `SymbolicError` for a syntax error (with file, line and column).
    """
    tree = parse_module(text, filename)
    module = _Module(tree, text, filename)
    shebang = text.splitlines(keepends=True)[0] if text.startswith("#!") else ""
    try:
        return shebang + _joined([(node, module.statement_text(index, node))
                                  for index, node in enumerate(tree.body)])
    finally:
        linecache.cache.pop(module.source_key, None)


# ------------------------------------------------------------ which names are fixed


def _module_scope(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of `node` that run in the module's scope: not the bodies of functions,
    lambdas and classes (their decorators, defaults, annotations and bases do)."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef)):
            children = [*current.decorator_list, current.args, *filter(None, [current.returns])]
        elif isinstance(current, ast.ClassDef):
            children = [*current.decorator_list, *current.bases, *current.keywords]
        elif isinstance(current, ast.Lambda):
            children = [current.args]
        else:
            children = list(ast.iter_child_nodes(current))
        pending.extend(reversed(children))


def _bound_by(node: ast.AST) -> list[str]:
    """The names one node binds (or deletes) in the scope it runs in."""
    match node:
        case ast.Name(id=name, ctx=ast.Store() | ast.Del()):
            return [name]
        case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name) | ast.ClassDef(name=name):
            return [name]
        case ast.Import(names=aliases) | ast.ImportFrom(names=aliases):
            return [alias.asname or alias.name.split(".")[0] for alias in aliases]
        case ast.ExceptHandler(name=str(name)) | ast.MatchAs(name=str(name)) | \
                ast.MatchStar(name=str(name)) | ast.MatchMapping(rest=str(name)):
            return [name]
    return []


def _stored_attribute_names(node: ast.Attribute | ast.Subscript) -> list[str]:
    """For `a.b[0].name = ...`: `name` and the root `a` (either may be a global rebound)."""
    names = [node.attr] if isinstance(node, ast.Attribute) else []
    root: ast.expr = node
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    return names + ([root.id] if isinstance(root, ast.Name) else [])


def _plain_getattr(node: ast.AST) -> bool:
    """`getattr(x, "name")` with a constant name that is not one of `INTROSPECTION_NAMES`."""
    match node:
        case ast.Call(func=ast.Name(id="getattr"), args=[_, ast.Constant(value=str(attr)), *_]):
            return attr not in INTROSPECTION_NAMES
    return False


def _introspects(node: ast.AST, plain_getattrs: set[int]) -> bool:
    """Whether the node may rebind globals without naming them (`plain_getattrs`: the ids of
    the `getattr` names called harmlessly)."""
    match node:
        case ast.Name(id="getattr"):
            return id(node) not in plain_getattrs
        case ast.Name(id=name) | ast.Attribute(attr=name) | ast.alias(name=name):
            return name.rsplit(".", 1)[-1] in INTROSPECTION_NAMES
        case ast.ImportFrom(names=aliases):
            return any(alias.name == "*" for alias in aliases)
    return False


@dataclass(frozen=True)
class _Bindings:
    """How the module binds its global names: how often each is bound at module level, the
    names rebound in other ways, and whether it can rebind names without naming them."""

    counts: Counter[str]
    rebound: frozenset[str]
    introspective: bool

    @classmethod
    def of(cls, tree: ast.Module) -> _Bindings:
        counts = Counter(name for node in _module_scope(tree) for name in _bound_by(node))
        rebound: set[str] = set()
        plain_getattrs: set[int] = set()
        introspective = False
        for node in ast.walk(tree):  # parents first: a call before the name it calls
            match node:
                case ast.Global(names=names):
                    rebound.update(names)
                case ast.Attribute(ctx=ast.Store() | ast.Del()) | \
                        ast.Subscript(ctx=ast.Store() | ast.Del()):
                    rebound.update(_stored_attribute_names(node))
                case ast.Call(func=func) if _plain_getattr(node):
                    plain_getattrs.add(id(func))
            introspective = introspective or _introspects(node, plain_getattrs)
        return cls(counts, frozenset(rebound), introspective)

    def bound_once(self, name: str) -> bool:
        return not self.introspective and self.counts[name] == 1 and name not in self.rebound

    def visible_builtins(self) -> dict[str, object]:
        """The builtins no code of the module can shadow or rebind (dunder names excluded:
        `__name__` and the like are the module's own)."""
        if self.introspective:
            return {}
        return {name: value for name, value in vars(builtins).items()
                if not name.startswith("__") and name not in self.counts
                and name not in self.rebound}


def _literal(node: ast.expr) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _immutable(value: object) -> bool:
    if type(value) is tuple:
        return all(map(_immutable, value))
    return type(value) in _IMMUTABLE_LITERALS


def _annotations(node: ast.FunctionDef) -> list[ast.expr]:
    args = node.args
    parameters = [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]
    found = [parameter.annotation for parameter in parameters if parameter is not None]
    return [annotation for annotation in [*found, node.returns] if annotation is not None]


def _trusted_import(node: ast.stmt) -> TypeGuard[ast.Import | ast.ImportFrom]:
    match node:
        case ast.Import(names=aliases):
            return all(alias.name.split(".")[0] in TRUSTED_MODULES for alias in aliases)
        case ast.ImportFrom(module=str(name), level=0, names=aliases):
            return name.split(".")[0] in TRUSTED_MODULES and all(a.name != "*" for a in aliases)
    return False


def _imported(node: ast.Import | ast.ImportFrom) -> dict[str, object]:
    """What a trusted import binds, name by name (a name it cannot import is left out)."""
    found: dict[str, object] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for alias in node.names:
            try:
                if isinstance(node, ast.Import):
                    module = importlib.import_module(alias.name)
                    top = importlib.import_module(alias.name.split(".")[0])
                    found[alias.asname or top.__name__] = module if alias.asname else top
                else:
                    owner = importlib.import_module(node.module or "")
                    value = vars(owner)[alias.name] if alias.name in vars(owner) else \
                        importlib.import_module(f"{node.module}.{alias.name}")
                    found[alias.asname or alias.name] = value
            except Exception:  # ImportError and whatever a broken install raises
                continue
    return found


@dataclass(frozen=True)
class _PlainDef:
    """A top-level `def` that can be made into a function without running anything: no
    decorators, immutable literal defaults; its code is compiled from its text alone."""

    node: ast.FunctionDef
    code: types.CodeType
    defaults: tuple[object, ...] | None
    kwdefaults: dict[str, object] | None

    @classmethod
    def of(cls, node: ast.stmt, source_key: str) -> _PlainDef | None:
        if not isinstance(node, ast.FunctionDef) or node.decorator_list \
                or getattr(node, "type_params", None):
            return None
        args = node.args
        defaults = [_literal(default) for default in args.defaults]
        keyword = {arg.arg: _literal(default) for arg, default
                   in zip(args.kwonlyargs, args.kw_defaults) if default is not None}
        if not all(ok and _immutable(value) for ok, value in [*defaults, *keyword.values()]):
            return None
        module_code = compile(ast.Module([node], type_ignores=[]), source_key, "exec",
                              dont_inherit=True)
        code = next(const for const in module_code.co_consts if isinstance(const, types.CodeType))
        return cls(node, code, tuple(value for _, value in defaults) or None,
                   {name: value for name, (_, value) in keyword.items()} or None)

    def function(self, namespace: dict[str, object]) -> types.FunctionType:
        function = types.FunctionType(self.code, namespace, self.node.name, self.defaults)
        function.__kwdefaults__ = self.kwdefaults
        return function


# --------------------------------------------------------------------- the module


class _Module:
    """One module being optimized: its fixed names, and the namespace each statement sees."""

    def __init__(self, tree: ast.Module, text: str, filename: str) -> None:
        self.tree = tree
        self.text = text
        self.filename = filename
        self.lines = tuple(text.splitlines(keepends=True))
        # the scratch functions' source, for the inliner (which reads callees' source)
        self.source_key = f"<symcompile.optimize_source #{next(_source_keys)}: {filename}>"
        self.bindings = _Bindings.of(tree)
        self.builtins = self.bindings.visible_builtins()
        self.plain_defs = {index: plain for index, node in enumerate(tree.body)
                           if (plain := _PlainDef.of(node, self.source_key)) is not None}
        self.fixed = self._fixed_names()
        future = any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
                     and any(alias.name == "annotations" for alias in node.names)
                     for node in tree.body)
        self.quiet = [self._runs_no_code(node, future) for node in tree.body]
        self._namespaces: dict[int, dict[str, object]] = {}
        linecache.cache[self.source_key] = (len(text), None, list(self.lines), self.source_key)

    def _fixed_names(self) -> dict[str, tuple[int, object]]:
        """Each fixed name, with the top-level statement binding it and its value (for a
        `def`, its `_PlainDef`: a function is made for each namespace)."""
        fixed: dict[str, tuple[int, object]] = {}
        for index, node in enumerate(self.tree.body):
            if index in self.plain_defs:
                plain = self.plain_defs[index]
                bound: dict[str, object] = {plain.node.name: plain}
            elif _trusted_import(node):
                bound = _imported(node)
            else:
                continue
            fixed.update((name, (index, value)) for name, value in bound.items()
                         if self.bindings.bound_once(name))
        return fixed

    def _runs_no_code(self, node: ast.stmt, future_annotations: bool) -> bool:
        """Whether running the top-level statement cannot call any code of the program."""
        match node:
            case ast.Expr(ast.Constant()) | ast.Pass():
                return True
            case ast.Import() | ast.ImportFrom():
                return _trusted_import(node) or getattr(node, "module", None) == "__future__"
            case ast.Assign(targets, value):
                return all(isinstance(t, ast.Name) for t in targets) and _literal(value)[0]
            case ast.FunctionDef(decorator_list=[], args=args):
                defaults = [*args.defaults, *filter(None, args.kw_defaults)]
                return all(_literal(default)[0] for default in defaults) and (
                    future_annotations or all(map(self._names_a_value, _annotations(node))))
        return False

    def _names_a_value(self, node: ast.expr) -> bool:
        """A constant, a name, or an attribute of NumPy, math or cmath: reads no user code."""
        if isinstance(node, (ast.Constant, ast.Name)):
            return True
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and isinstance(self.fixed.get(node.id, (0, None))[1],
                                                         types.ModuleType)

    def namespace(self, cutoff: int) -> dict[str, object]:
        """The fixed names bound by the top-level statements before `cutoff`, as a globals dict
        (the functions in it are made in it, so the inliner sees one module)."""
        if cutoff not in self._namespaces:
            namespace: dict[str, object] = {"__builtins__": self.builtins}
            for name, (index, value) in self.fixed.items():
                if index < cutoff:
                    namespace[name] = value.function(namespace) if isinstance(value, _PlainDef) \
                        else value
            del namespace["__builtins__"]  # the functions keep it; lookups must not see it
            self._namespaces[cutoff] = namespace
        return self._namespaces[cutoff]

    def first_call(self, index: int) -> int:
        """The first top-level statement after `index` that may run code: where a function
        defined at `index` may first be called."""
        return next((later for later in range(index + 1, len(self.quiet))
                     if not self.quiet[later]), len(self.quiet))

    def ir_namespace(self, cutoff: int, code: types.CodeType | None = None) -> ir.Namespace:
        return ir.Namespace(self.namespace(cutoff), self.builtins, frozenset(), code, fixed=True)

    # -------------------------------------------------------------- statements

    def statement_text(self, index: int, node: ast.stmt) -> str:
        """The output text of one top-level statement."""
        try:
            if index in self.plain_defs:
                return self._function_text(index, self.plain_defs[index])
            optimized = _TopLevelCode(lambda value, at: self._value(value, at, index))
            return codegen.render(optimized.visit(copy.deepcopy(node)))
        except SymbolicError:
            raise
        except RecursionError:  # too deeply nested to optimize or to render
            return self._as_written(node)
        except Exception as error:
            raise SymbolicError(
                f"internal error in symcompile: {type(error).__name__}: {error}",
                filename=self.filename, lineno=node.lineno, col=node.col_offset,
                source_line=self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else "",
                hint="this is a bug in symcompile; please report it with the module's source",
            ) from error

    def _as_written(self, node: ast.stmt) -> str:
        """The statement's own text in the source, decorators included."""
        decorators = getattr(node, "decorator_list", [])
        first = min([node.lineno, *(decorator.lineno for decorator in decorators)])
        segment = ast.get_source_segment(self.text, node) or ""
        return "".join(self.lines[first - 1:node.lineno - 1]) + segment + "\n"

    def _function_text(self, index: int, plain: _PlainDef) -> str:
        """A plain function compiled with the default pipeline, or as written if the result
        would need objects the module cannot name."""
        if plain.code.co_flags & frontend.PASS_THROUGH_FLAGS:
            return codegen.render(plain.node)
        cutoff = self.first_call(index)
        version = self._compiled(copy.deepcopy(plain.node), self.ir_namespace(cutoff, plain.code),
                                 cutoff)
        return version.source if version.ir is not None and not version.bindings \
            else codegen.render(plain.node)

    def _value(self, value: ast.expr, at: ast.stmt, index: int) -> ast.expr:
        """`value`, an expression of top-level statement `index`, optimized as `return value`
        of a function without parameters; itself unless that gives one expression."""
        if isinstance(value, ast.Constant) or any(
                isinstance(node, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await))
                for node in ast.walk(value)):
            return value
        wrapper = with_type_params(ast.FunctionDef(
            name="module_statement", args=copy.deepcopy(_NO_PARAMETERS), body=[ast.Return(value)],
            decorator_list=[], returns=None, type_comment=None))
        ast.copy_location(wrapper, at)
        ast.copy_location(wrapper.body[0], at)
        version = self._compiled(wrapper, self.ir_namespace(index), index, self._objects(index))
        if version.ir is None or version.bindings:
            return value
        match ast.parse(version.source).body:
            case [ast.FunctionDef(body=[ast.Return(result)])] if result is not None:
                return result
        return value

    def _compiled(self, node: ast.FunctionDef, namespace: ir.Namespace, cutoff: int,
                  objects: Mapping[str, object] | None = None) -> compiler.Version:
        """`node` compiled with the default pipeline and nothing checked on entry, reading
        `objects` as the objects they hold; kept as written (`ir` None) unless all it relies
        on is fixed before `cutoff`."""
        source = frontend.FunctionSource(node, self.filename, self.lines)
        options = compiler.Options(objects=objects or {},
                                   finish=lambda function: self._standalone(function, cutoff))
        return compiler.compile_version(compiler.Source(source, namespace), options)

    def _objects(self, cutoff: int) -> dict[str, object]:
        """The fixed names a top-level expression may read as the objects they hold: all but
        functions of the module (to inline), modules and pure builtins (which the passes look
        up by name). An object read is known to run no code, so it does not stop inlining."""
        names = {**self.builtins, **self.namespace(cutoff)}
        return {name: value for name, value in names.items()
                if not isinstance(value, (types.FunctionType, types.ModuleType))
                and not any(value is pure for pure in PURE_BUILTINS)}

    def _standalone(self, function: ir.Function, cutoff: int) -> ir.Function | None:
        """`function` for a plain module: None unless all it relies on is fixed where it runs;
        objects bound at compile time written back as the names that hold them."""
        names = {**self.builtins, **self.namespace(cutoff)}
        for assumption in function.assumptions:
            fixed = assumption.name in names and names[assumption.name] is assumption.value
            if assumption.argument or assumption.of_type or not fixed:
                return None
        spell = _Spelling(names, local_names(function))
        body = map_statements(function.body,
                              lambda stmt: map_statement_expressions(stmt, spell.constant))
        return None if spell.failed else function.with_body(body)


class _Spelling:
    """Writes constants without a literal spelling as expressions the module can evaluate to
    the same object: a fixed name holding it (`print`), an attribute path from a fixed module
    (`np.sin`), or a call of a builtin for a NaN or a complex number."""

    def __init__(self, names: dict[str, object], avoid: set[str]) -> None:
        self.names = {name: value for name, value in names.items() if name not in avoid}
        self.failed = False

    def constant(self, expr: ir.Expr) -> ir.Expr:
        if not isinstance(expr, ir.Const) or codegen.constant_to_ast(expr.value) is not None:
            return expr
        spelled = self.spell(expr.value)
        self.failed |= spelled is None
        return spelled or expr

    def spell(self, value: object) -> ir.Expr | None:
        if codegen.constant_to_ast(value) is not None:
            return ir.Const(value)
        found = self._named(value) or self._attribute_path(value)
        if found is not None:
            return found
        if type(value) is float:  # a NaN
            nan = self._call(float, ir.Const("nan"))
            return ir.Op("neg", (nan,)) if nan and math.copysign(1.0, value) < 0 else nan
        if type(value) is complex:
            return self._complex(value)
        if type(value) is tuple:
            items = _all_present([self.spell(item) for item in value])
            return ir.Build("tuple", items) if items is not None else None
        return None

    def _complex(self, value: complex) -> ir.Expr | None:
        """`1.0 + 2j` (which CPython folds) where that gives the same bits, else
        `complex(1.0, 2.0)`."""
        real = value.real
        for op, imaginary in (("add", complex(0.0, value.imag)),
                              ("sub", complex(0.0, -value.imag))):
            result = real + imaginary if op == "add" else real - imaginary
            literals = (codegen.constant_to_ast(real), codegen.constant_to_ast(imaginary))
            if None not in literals and ir.const_key(result) == ir.const_key(value):
                return ir.Op(op, (ir.Const(real), ir.Const(imaginary)))
        return self._call(complex, self.spell(real), self.spell(value.imag))

    def _named(self, value: object) -> ir.Expr | None:
        return next((ir.Name(name) for name, held in self.names.items() if held is value), None)

    def _attribute_path(self, value: object) -> ir.Expr | None:
        """`module.attr` or `module.sub.attr` for a fixed module of NumPy, math or cmath."""
        frontier: list[tuple[ir.Expr, types.ModuleType]] = [
            (ir.Name(name), held) for name, held in self.names.items()
            if isinstance(held, types.ModuleType)]
        own_name = getattr(value, "__name__", None)
        for _ in range(2):
            submodules: list[tuple[ir.Expr, types.ModuleType]] = []
            for path, module in frontier:
                if isinstance(own_name, str) and vars(module).get(own_name) is value:
                    return ir.Attribute(path, own_name)  # `np.float64`, not its alias `np.double`
                for attr, held in vars(module).items():
                    if held is value:
                        return ir.Attribute(path, attr)
                    if isinstance(held, types.ModuleType) and \
                            held.__name__.split(".")[0] in TRUSTED_MODULES:
                        submodules.append((ir.Attribute(path, attr), held))
            frontier = submodules
        return None

    def _call(self, func: object, *args: ir.Expr | None) -> ir.Expr | None:
        callee = self._named(func)
        present = _all_present(list(args))
        return ir.Call(callee, present) if callee is not None and present is not None else None


def _all_present(exprs: list[ir.Expr | None]) -> tuple[ir.Expr, ...] | None:
    """The expressions, or None if one of them is missing."""
    present = tuple(expr for expr in exprs if expr is not None)
    return present if len(present) == len(exprs) else None


class _TopLevelCode(ast.NodeTransformer):
    """Replaces the values of expression statements and assignments in top-level code, nested
    blocks included; functions and classes are left as they are."""

    def __init__(self, optimize: Callable[[ast.expr, ast.stmt], ast.expr]) -> None:
        self.optimize = optimize

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Expr(self, node: ast.Expr) -> ast.Expr:
        node.value = self.optimize(node.value, node)
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.Assign:
        node.value = self.optimize(node.value, node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AugAssign:
        node.value = self.optimize(node.value, node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AnnAssign:
        if node.value is not None:
            node.value = self.optimize(node.value, node)
        return node


# ------------------------------------------------------------------------ output


def _blank_lines(previous: ast.stmt, current: ast.stmt, first: bool) -> int:
    if isinstance(previous, _DEFINITIONS) or isinstance(current, _DEFINITIONS):
        return 2
    docstring = isinstance(previous, ast.Expr) and isinstance(previous.value, ast.Constant)
    return int(first and docstring)


def _joined(statements: list[tuple[ast.stmt, str]]) -> str:
    """The statements' texts, with PEP 8 blank lines around functions and classes."""
    parts: list[str] = []
    for position, (node, text) in enumerate(statements):
        if position:
            previous = statements[position - 1][0]
            parts.append("\n" * _blank_lines(previous, node, position == 1))
        parts.append(text)
    return "".join(parts)
