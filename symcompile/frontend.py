"""Front end: a Python function's source → Python AST → IR.

First stage of the pipeline. `read_function_source` finds a function's source with
`inspect.getsource`, parses it (positions stay those of the user's file, so errors point at the
real line and column) and removes the decorators. `build_function` turns the `def` into the IR of
`symcompile.ir`: structured statements over expressions, and opaque nodes for every construct the
compiler does not model. It accepts every valid Python function; the only refusal is a function
whose source cannot be had, reported as a `SymbolicError` that says why and what to do.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import linecache
import types
from dataclasses import dataclass
from typing import Callable

from . import ir
from .analysis import bound_names
from .errors import SymbolicError
from .ops import op_for_ast

# flags of code objects whose bodies are passed through unchanged (yield / await)
PASS_THROUGH_FLAGS = (
    inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
    | inspect.CO_ITERABLE_COROUTINE
)


@dataclass(frozen=True)
class FunctionSource:
    """A function's `def` as parsed from its file, decorators removed.

    `node` positions are those of the user's file; `lines` are the file's lines (for error carets).
    """

    node: ast.FunctionDef | ast.AsyncFunctionDef
    filename: str
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        """The function's source as written, decorators removed, dedented."""
        first = self.node.lineno - 1
        chunk = self.lines[first:self.node.end_lineno]
        prefix = chunk[0][:len(chunk[0]) - len(chunk[0].lstrip())]
        return "".join(line.removeprefix(prefix) for line in chunk)


def _no_source_error(func: Callable[..., object], why: str) -> SymbolicError:
    name = getattr(func, "__qualname__", repr(func))
    return SymbolicError(
        f"symcompile cannot read the source of {name!r}: {why}",
        hint="define the function in a .py file (or a notebook cell) and decorate it there; "
        "functions made by exec() need their source registered in linecache",
    )


def read_function_source(func: types.FunctionType) -> FunctionSource:
    """Find, parse and locate `func`'s `def` (or lambda) in its file."""
    if not isinstance(func, types.FunctionType):
        raise SymbolicError(
            f"symcompile compiles Python functions; got {type(func).__name__} {func!r}",
            hint="decorate a function written in Python (def or lambda)",
        )
    code = func.__code__
    try:
        lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError) as exc:
        raise _no_source_error(func, str(exc)) from None
    filename = code.co_filename
    file_lines = tuple(linecache.getlines(filename)) or tuple(lines)
    first_line = max(first_line, 1)
    chunk = "".join(lines)
    # an indented def (a method, a nested function) parses inside `if 1:`; columns stay real
    wrapped = chunk[:1].isspace()
    try:
        module = ast.parse("if 1:\n" + chunk if wrapped else chunk)
    except SyntaxError as exc:
        raise _no_source_error(func, f"its source lines do not parse on their own ({exc.msg})")
    ast.increment_lineno(module, first_line - 1 - int(wrapped))
    node = _find_def(module, code)
    if node is None:
        raise _no_source_error(func, "no single definition in its source lines matches the "
                               "function's code (was the file edited after it was imported, or "
                               "are there several lambdas on one line?)")
    node.decorator_list = []
    return FunctionSource(node, filename, file_lines)


def _find_def(module: ast.Module, code: types.CodeType) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The `def` (or the one lambda, made into a def) on `code`'s first line, if it matches."""
    candidates: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in ast.walk(module):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name:
            candidates.append(node)
        elif isinstance(node, ast.Lambda) and code.co_name == "<lambda>":
            candidates.append(_lambda_as_def(node))
    matching = [node for node in candidates if _matches_code(node, code)]
    return matching[0] if len(matching) == 1 else None


def _lambda_as_def(node: ast.Lambda) -> ast.FunctionDef:
    body = [ast.Return(node.body, lineno=node.lineno, col_offset=node.col_offset)]
    function = ast.FunctionDef(name="lambda_", args=node.args, body=body, decorator_list=[],
                               returns=None, type_comment=None, type_params=[])
    return ast.copy_location(function, node)


def _parameter_names(args: ast.arguments) -> list[str]:
    """Parameter names in code-object order: positional, keyword-only, *args, **kwargs."""
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return names


def _matches_code(node: ast.FunctionDef | ast.AsyncFunctionDef, code: types.CodeType) -> bool:
    """A cheap check that a parsed def is the one that made `code` (the file may have changed)."""
    total = (code.co_argcount + code.co_kwonlyargcount
             + bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS))
    if _parameter_names(node.args) != list(code.co_varnames[:total]):
        return False
    lines = [line for _, _, line in code.co_lines() if line is not None]
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return not lines or (start <= min(lines) and max(lines) <= (node.end_lineno or 0))


# -------------------------------------------------------------- AST → IR


_OPAQUE_STATEMENTS: dict[type[ast.AST], str] = {
    ast.Try: "try statement",
    ast.With: "with statement",
    ast.FunctionDef: "nested function definition",
    ast.AsyncFunctionDef: "nested function definition",
    ast.ClassDef: "class definition",
    ast.Global: "global declaration",
    ast.Nonlocal: "nonlocal declaration",
    ast.Delete: "del statement",
    ast.Assert: "assert statement",
    ast.Import: "import",
    ast.ImportFrom: "import",
    ast.Match: "match statement",
    ast.AnnAssign: "annotated assignment",
    ast.AsyncFor: "async for",
    ast.AsyncWith: "async with",
}

_OPAQUE_EXPRESSIONS: dict[type[ast.AST], str] = {
    ast.Lambda: "lambda",
    ast.ListComp: "comprehension",
    ast.SetComp: "comprehension",
    ast.DictComp: "comprehension",
    ast.GeneratorExp: "generator expression",
    ast.JoinedStr: "f-string",
    ast.NamedExpr: "assignment expression (walrus)",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


def _loc(node: ast.AST) -> ir.Loc:
    return ir.Loc(getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _opaque_reason(node: ast.AST, table: dict[type[ast.AST], str]) -> str:
    return table.get(type(node), f"{type(node).__name__} not modelled")


def build_body(statements: list[ast.stmt]) -> tuple[ir.Stmt, ...]:
    """IR statements for a list of Python statements (`pass` disappears)."""
    result: list[ir.Stmt] = []
    for node in statements:
        try:
            result += build_statement(node)
        except RecursionError:  # kept as written (not copied: copying would recurse as deep)
            result.append(ir.Opaque(node, "too deeply nested", _loc(node)))
    return tuple(result)


def build_statement(node: ast.stmt) -> list[ir.Stmt]:
    """The IR of one Python statement: a list holding zero or one statement."""
    loc = _loc(node)
    match node:
        case ast.Pass():
            return []
        case ast.Expr(value):
            return [ir.ExprStmt(build_expr(value), loc)]
        case ast.Assign(targets, value):
            return [ir.Assign(tuple(map(build_expr, targets)), build_expr(value), loc)]
        case ast.AugAssign(target, op, value):
            return [ir.AugAssign(build_expr(target), op_for_ast(op).name, build_expr(value), loc)]
        case ast.If(test, body, orelse):
            return [ir.If(build_expr(test), build_body(body), build_body(orelse), loc)]
        case ast.For(target, iter_, body, orelse):
            return [ir.For(build_expr(target), build_expr(iter_), build_body(body),
                           build_body(orelse), loc)]
        case ast.While(test, body, orelse):
            return [ir.While(build_expr(test), build_body(body), build_body(orelse), loc)]
        case ast.Break():
            return [ir.Break(loc)]
        case ast.Continue():
            return [ir.Continue(loc)]
        case ast.Return(value):
            return [ir.Return(None if value is None else build_expr(value), loc)]
        case ast.Raise(exc, cause):
            return [ir.Raise(_optional(exc), _optional(cause), loc)]
    return [ir.Opaque(copy.deepcopy(node), _opaque_reason(node, _OPAQUE_STATEMENTS), loc)]


def _optional(node: ast.expr | None) -> ir.Expr | None:
    return None if node is None else build_expr(node)


def build_expr(node: ast.expr) -> ir.Expr:
    """The IR of one Python expression (load or store context alike)."""
    match node:
        case ast.Constant(value):
            return ir.Const(value)
        case ast.Name(id):
            return ir.Name(id)
        case ast.BinOp(left, op, right):
            return ir.Op(op_for_ast(op).name, (build_expr(left), build_expr(right)))
        case ast.UnaryOp(op, operand):
            return ir.Op(op_for_ast(op).name, (build_expr(operand),))
        case ast.Compare(left, ops, comparators):
            return ir.Compare(tuple(op_for_ast(op).name for op in ops),
                              (build_expr(left), *map(build_expr, comparators)))
        case ast.BoolOp(op, values):
            return ir.BoolOp("and" if isinstance(op, ast.And) else "or",
                             tuple(map(build_expr, values)))
        case ast.IfExp(test, body, orelse):
            return ir.IfExp(build_expr(test), build_expr(body), build_expr(orelse))
        case ast.Call(func, args, keywords):
            return ir.Call(build_expr(func), tuple(map(build_expr, args)),
                           tuple(ir.Keyword(kw.arg, build_expr(kw.value)) for kw in keywords))
        case ast.Attribute(value, attr):
            return ir.Attribute(build_expr(value), attr)
        case ast.Subscript(value, index):
            return ir.Subscript(build_expr(value), build_expr(index))
        case ast.Slice(lower, upper, step):
            return ir.Slice(_optional(lower), _optional(upper), _optional(step))
        case ast.Starred(value):
            return ir.Starred(build_expr(value))
        case ast.Tuple(elts) | ast.List(elts) | ast.Set(elts):
            kind = type(node).__name__.lower()
            return ir.Build(kind, tuple(map(build_expr, elts)))
        case ast.Dict(keys, values):
            return ir.DictDisplay(tuple(map(_optional, keys)), tuple(map(build_expr, values)))
    return ir.OpaqueExpr(copy.deepcopy(node), _opaque_reason(node, _OPAQUE_EXPRESSIONS))


def namespace_of(func: types.FunctionType) -> ir.Namespace:
    """The compile-time view of `func`'s free names: its globals, builtins and closure."""
    code = func.__code__
    return ir.Namespace(func.__globals__, func.__builtins__, frozenset(code.co_freevars), code)


def build_function(source: FunctionSource, namespace: ir.Namespace | None = None) -> ir.Function:
    """The IR of a parsed function; `namespace` lets passes resolve its free names."""
    node = source.node
    function = ir.Function(
        name=node.name,
        params=copy.deepcopy(node.args),
        returns=copy.deepcopy(node.returns),
        body=build_body(node.body),
        filename=source.filename,
        loc=_loc(node),
        namespace=namespace,
    )
    return dataclasses.replace(function, locals=frozenset(bound_names(function)))


def function_from_text(text: str, filename: str = "<string>") -> ir.Function:
    """The IR of the first function defined in `text` (used by golden tests and tools)."""
    module = ast.parse(text, filename)
    node = next(n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    node.decorator_list = []
    return build_function(FunctionSource(node, filename, tuple(text.splitlines(keepends=True))))
