"""Code generation: IR → Python AST → source text.

Last compiling stage of the pipeline, before the loader. `function_to_ast` rebuilds a Python
`def` from the IR (opaque nodes are copied back verbatim); `render` turns any Python AST into
source text through astor, or `ast.unparse` where astor cannot be imported or does not reproduce
the tree faithfully. Every rendering is checked: parsing the text must give back the same tree,
so what the user reads is exactly what runs. Output is deterministic and keeps the user's names.
"""

from __future__ import annotations

import ast
import copy
import math
import warnings
from types import ModuleType
from typing import Callable

from . import ir
from .ops import OPS
from .verify import IRError

with warnings.catch_warnings():
    # astor 0.8.1 uses AST classes deprecated since Python 3.12; that is our business, not the user's
    warnings.simplefilter("ignore")
    try:
        import astor as _astor
    except Exception:  # astor missing or broken on this Python: ast.unparse serves
        _astor = None

astor: ModuleType | None = _astor


# ------------------------------------------------------------------ IR → AST


def constant_to_ast(value: object) -> ast.expr:
    """A Python expression that evaluates to exactly `value` (same type and bits)."""
    if isinstance(value, tuple):
        return ast.Tuple([constant_to_ast(item) for item in value], ast.Load())
    if type(value) in (int, float) and (value < 0 or (value == 0 and math.copysign(1, value) < 0)):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    if type(value) is float and math.isnan(value):
        raise IRError("NaN has no literal spelling; bind it as an object instead")
    if type(value) is complex and (value.real != 0 or math.copysign(1, value.real) < 0
                                   or value.imag < 0 or math.isnan(value.imag)):
        raise IRError(f"complex {value!r} has no exact literal spelling")
    if type(value) is frozenset:
        raise IRError("frozenset has no literal spelling")
    return ast.Constant(value)


def _store(node: ast.expr) -> ast.expr:
    """`node` (built in load context) turned into an assignment target."""
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        node.ctx = ast.Store()
    elif isinstance(node, (ast.Tuple, ast.List)):
        node.ctx = ast.Store()
        node.elts = [_store(elt) for elt in node.elts]
    elif isinstance(node, ast.Starred):
        node.ctx = ast.Store()
        node.value = _store(node.value)
    return node


def _optional(expr: ir.Expr | None) -> ast.expr | None:
    return None if expr is None else expr_to_ast(expr)


def expr_to_ast(expr: ir.Expr) -> ast.expr:
    """The Python AST (load context) of an IR expression."""
    load = ast.Load()
    match expr:
        case ir.Const(value):
            return constant_to_ast(value)
        case ir.Name(id):
            return ast.Name(id, load)
        case ir.Op(op, (operand,)):
            return ast.UnaryOp(OPS[op].ast_class(), expr_to_ast(operand))
        case ir.Op(op, (left, right)):
            return ast.BinOp(expr_to_ast(left), OPS[op].ast_class(), expr_to_ast(right))
        case ir.Compare(ops, operands):
            return ast.Compare(expr_to_ast(operands[0]), [OPS[op].ast_class() for op in ops],
                               [expr_to_ast(operand) for operand in operands[1:]])
        case ir.BoolOp(op, values):
            return ast.BoolOp(ast.And() if op == "and" else ast.Or(),
                              [expr_to_ast(value) for value in values])
        case ir.IfExp(test, body, orelse):
            return ast.IfExp(expr_to_ast(test), expr_to_ast(body), expr_to_ast(orelse))
        case ir.Call(func, args, keywords):
            return ast.Call(expr_to_ast(func), [expr_to_ast(arg) for arg in args],
                            [ast.keyword(kw.name, expr_to_ast(kw.value)) for kw in keywords])
        case ir.Attribute(value, attr):
            return ast.Attribute(expr_to_ast(value), attr, load)
        case ir.Subscript(value, index):
            return ast.Subscript(expr_to_ast(value), expr_to_ast(index), load)
        case ir.Slice(lower, upper, step):
            return ast.Slice(_optional(lower), _optional(upper), _optional(step))
        case ir.Starred(value):
            return ast.Starred(expr_to_ast(value), load)
        case ir.Build("tuple", elts):
            return ast.Tuple([expr_to_ast(elt) for elt in elts], load)
        case ir.Build("list", elts):
            return ast.List([expr_to_ast(elt) for elt in elts], load)
        case ir.Build("set", elts):
            return ast.Set([expr_to_ast(elt) for elt in elts])
        case ir.DictDisplay(keys, values):
            return ast.Dict([_optional(key) for key in keys], [expr_to_ast(v) for v in values])
        case ir.OpaqueExpr(node):
            return copy.deepcopy(node)
    raise IRError(f"cannot generate code for {expr!r}")


def _block(body: tuple[ir.Stmt, ...]) -> list[ast.stmt]:
    statements = [stmt_to_ast(stmt) for stmt in body]
    return statements or [ast.Pass()]


def _orelse(body: tuple[ir.Stmt, ...]) -> list[ast.stmt]:
    return [stmt_to_ast(stmt) for stmt in body]


def stmt_to_ast(stmt: ir.Stmt) -> ast.stmt:
    """The Python AST of an IR statement."""
    match stmt:
        case ir.Assign(targets, value):
            return ast.Assign([_store(expr_to_ast(t)) for t in targets], expr_to_ast(value),
                              type_comment=None)
        case ir.AugAssign(target, op, value):
            return ast.AugAssign(_store(expr_to_ast(target)), OPS[op].ast_class(),
                                 expr_to_ast(value))
        case ir.If(test, body, orelse):
            return ast.If(expr_to_ast(test), _block(body), _orelse(orelse))
        case ir.For(target, iter_, body, orelse):
            return ast.For(_store(expr_to_ast(target)), expr_to_ast(iter_), _block(body),
                           _orelse(orelse), type_comment=None)
        case ir.While(test, body, orelse):
            return ast.While(expr_to_ast(test), _block(body), _orelse(orelse))
        case ir.Break():
            return ast.Break()
        case ir.Continue():
            return ast.Continue()
        case ir.Return(value):
            return ast.Return(_optional(value))
        case ir.Raise(exc, cause):
            return ast.Raise(_optional(exc), _optional(cause))
        case ir.ExprStmt(value):
            return ast.Expr(expr_to_ast(value))
        case ir.Opaque(node):
            return copy.deepcopy(node)
    raise IRError(f"cannot generate code for {stmt!r}")


def function_to_ast(function: ir.Function) -> ast.FunctionDef:
    """A Python `def` for an IR function (no decorators)."""
    extra = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}
    return ast.FunctionDef(
        name=function.name,
        args=copy.deepcopy(function.params),
        body=_block(function.body),
        decorator_list=[],
        returns=copy.deepcopy(function.returns),
        type_comment=None,
        **extra,
    )


# --------------------------------------------------------------- AST → text


def _same_tree(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def _renderers() -> list[Callable[[ast.AST], str]]:
    unparse: Callable[[ast.AST], str] = ast.unparse
    return [astor.to_source, unparse] if astor is not None else [unparse]


def render(node: ast.stmt) -> str:
    """Source text for one statement (usually a `def`), which parses back to the same tree."""
    fixed = ast.fix_missing_locations(ast.Module([node], type_ignores=[]))
    for renderer in _renderers():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                text = renderer(node).rstrip("\n") + "\n"
                reparsed = ast.parse(text)
            except Exception:  # a renderer that fails on this tree: try the next one
                continue
        if _same_tree(reparsed, fixed):
            return text
    raise IRError(f"no renderer reproduces this tree:\n{ast.dump(node, indent=1)}")


def render_function(function: ir.Function) -> str:
    """The generated source of an IR function."""
    return render(function_to_ast(function))
