"""inline_map_filter: `list(map(lambda x: E, filter(lambda x: P, xs)))` as the list
comprehension `[E for x in xs if P]`, not two calls of lambdas per element.

`map` and `filter` call their function once per element, and a lambda's call costs more than
the `E` or `P` it computes. The comprehension computes the same operations on the same values
in the same order: `list` pulls an element through `map` from `filter`, which takes it from the
iterator of `xs`, calls the predicate and tests its truth; `map` calls its function on the
elements that pass, and `list` appends the results. A comprehension is a scope of its own, as
the lambdas are: their bodies' other names mean the same in it, and the element dies with it.
`list(map(lambda x: E, xs))` and `list(filter(lambda x: P, xs))` are the shorter cases.

The comprehension runs when `list`, `map` and `filter` (read where the original reads them,
in the same order) are still the builtins and `xs` is a `list`; otherwise the call as written:

    [E for x in xs if P] if list is list_2 and map is map_2 and filter is filter_2 and
        type(xs) is list_2 else list(map(lambda x: E, filter(lambda x: P, xs)))

Reading those names again in the kept call reads the same values (reading a name runs no
code). `xs` is a name; each lambda has one plain parameter (no default, `*args` or keywords)
and a body without assignment expressions or scopes of its own.

Example::

    def f(xs):
        return list(map(lambda x: x * x, filter(lambda x: x > 0, xs)))
    # --- after inline_map_filter ---
    def f(xs):
        return [x_2 * x_2 for x_2 in xs if x_2 > 0] if (list is list_2 and map is map_2
            and filter is filter_2 and type(xs) is list_2) else list(map(lambda x: x * x,
            filter(lambda x: x > 0, xs)))
"""

from __future__ import annotations

import ast
import builtins

from .. import ir
from ..ir.names import all_names, fresh_name, node_kinds, written_names
from ..ir.rewrite import (
    map_statement_expressions,
    map_statements,
    statement_expressions,
    walk_expr,
    walk_statements,
)
from . import notes

_BINDS = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr,
          ast.Yield, ast.YieldFrom, ast.Await)


def _one_parameter_lambda(expr: ir.Expr) -> ast.Lambda | None:
    """The lambda `expr` spells, if it has one plain parameter and a body that binds nothing."""
    if not isinstance(expr, ir.OpaqueExpr) or not isinstance(expr.node, ast.Lambda):
        return None
    params = expr.node.args
    if params.posonlyargs or params.vararg or params.kwonlyargs or params.kwarg \
            or params.defaults or len(params.args) != 1:
        return None
    if any(isinstance(part, _BINDS) for part in ast.walk(expr.node.body)):
        return None
    return expr.node


def _body_with(node: ast.Lambda, name: str) -> ast.expr:
    """The lambda's body, its parameter renamed to `name`."""
    old = node.args.args[0].arg
    body = ast.parse(ast.unparse(node.body), mode="eval").body
    for part in ast.walk(body):
        if isinstance(part, ast.Name) and part.id == old:
            part.id = name
    return body


def _kept(expr: ir.Expr) -> ir.Expr | None:
    """The call as written kept in a comprehension this pass made, or None."""
    match expr:
        case ir.IfExp(ir.BoolOp("and", (ir.Compare(("is",), (_, ir.Const(builtins.list))), *_)),
                      ir.OpaqueExpr(ast.ListComp()), kept):
            return kept
    return None


class _Inliner:
    def __init__(self, function: ir.Function) -> None:
        self.namespace = function.namespace
        self.taken = all_names(function)
        self.local = function.locals | written_names(function)
        self.loc = function.loc  # the statement at hand's
        # the calls kept beside a comprehension made in an earlier round: left as they are
        self.kept: set[int] = set()
        for stmt in walk_statements(function.body):
            for expr in statement_expressions(stmt, targets=False):
                self.kept.update(id(kept) for node in walk_expr(expr)
                                 if (kept := _kept(node)) is not None)

    def _builtin(self, func: ir.Expr, value: object) -> bool:
        return isinstance(func, ir.Name) and func.id not in self.local \
            and self.namespace is not None and self.namespace.lookup(func.id) == (True, value)

    def _parts(self, call: ir.Expr) -> tuple[list[ir.Expr], ast.Lambda | None,
                                             ast.Lambda | None, ir.Name] | None:
        """The names read, the map and filter lambdas and `xs` of `list(map/filter(...))`."""
        match call:
            case ir.Call(outer, (ir.Call(func, (fn, inner), ()),), ()) \
                    if self._builtin(outer, list):
                mapped = _one_parameter_lambda(fn)
                if mapped is None:
                    return None
                if self._builtin(func, filter) and isinstance(inner, ir.Name):
                    return [outer, func], None, mapped, inner
                if not self._builtin(func, map):
                    return None
                match inner:
                    case ir.Name():
                        return [outer, func], mapped, None, inner
                    case ir.Call(ffunc, (pfn, ir.Name() as xs), ()) if self._builtin(ffunc, filter) \
                            and (predicate := _one_parameter_lambda(pfn)) is not None:
                        return [outer, func, ffunc], mapped, predicate, xs
        return None

    def expr(self, expr: ir.Expr) -> ir.Expr:
        if id(expr) in self.kept or (parts := self._parts(expr)) is None:
            return expr
        names, mapped, predicate, xs = parts
        first = mapped or predicate
        assert first is not None
        element = fresh_name(first.args.args[0].arg, self.taken)
        elt = _body_with(mapped, element) if mapped else ast.Name(element, ast.Load())
        ifs = [_body_with(predicate, element)] if predicate else []
        generator = ast.comprehension(ast.Name(element, ast.Store()), ast.Name(xs.id, ast.Load()),
                                      ifs, 0)
        comprehension = ir.OpaqueExpr(ast.fix_missing_locations(ast.ListComp(elt, [generator])),
                                      "list comprehension")
        tests: list[ir.Expr] = [ir.Compare(("is",), (name, ir.Const(value)))
                                for name, value in zip(names, (list, map if mapped else filter,
                                                               filter))]
        tests.append(ir.Compare(("is",), (ir.Call(ir.Const(type), (xs,), ()), ir.Const(list))))
        notes.changed("inline_map_filter", "{} as a list comprehension", expr, loc=self.loc)
        return ir.IfExp(ir.BoolOp("and", tuple(tests)), comprehension, expr)


def inline_map_filter(function: ir.Function) -> ir.Function:
    """Write `list(map(lambda, filter(lambda, xs)))` (or one of the two) as a comprehension,
    behind tests of the builtins and the list, the call as written kept for the rest."""
    if not {ir.Call, ir.OpaqueExpr} <= node_kinds(function):  # a call with a lambda
        return function
    inliner = _Inliner(function)

    def statement(stmt: ir.Stmt) -> ir.Stmt:
        inliner.loc = getattr(stmt, "loc", function.loc)
        return map_statement_expressions(stmt, inliner.expr)

    body = map_statements(function.body, statement)
    return function if body is function.body else function.with_body(body)
