"""inline_reduce: `return functools.reduce(lambda acc, x: E, xs, init)` as a loop, not a call
of the lambda per element.

`reduce` calls its function once per element, and a lambda's call costs more than the `E` it
computes. Written out, the loop computes the same operations on the same values in the same
order: `reduce` takes an iterator of `xs` and, for each element in turn, binds the accumulator
to `E` of the accumulator and the element; so does `for x in xs: acc = E`. The lambda's
parameters get fresh names; its other names mean in the loop what they meant in the lambda
(the function's locals and globals: a lambda's body cannot assign them).

What the loop relies on is tested where the statement runs, and the statement as written is
kept for the other case:

* the function called is `functools.reduce` (read once, as the original reads it): a program
  may rebind the global it is read from;
* `xs` is a `list`: iterating a list runs no code and cannot fail, where `reduce` raises its
  own TypeError for what is not iterable;
* without `init`, `xs` is not empty (`reduce` raises its own TypeError for an empty one): the
  first element starts the accumulator, read from the list's iterator as `reduce` does.

Only a `return` of the call is rewritten, and only with `xs` and `init` names or constants: the
call is the statement's first work and its last, reading them again in the kept statement reads
the same values, and the locals the loop leaves die as the function returns. The lambda has two
plain parameters (no defaults, `*args` or keywords) and a body without assignment expressions or
scopes of its own. As for inlined callees (docs/semantics.md, "Finalizers"), the element bound to
the loop's name is held by the list until the next turn.

Example::

    import functools

    def f(xs):
        return functools.reduce(lambda acc, x: acc * 0.5 + x, xs, 0.0)
    # --- after inline_reduce ---
    def f(xs):
        t = functools.reduce
        if t is reduce and type(xs) is list:
            acc_2 = 0.0
            for x_2 in xs:
                acc_2 = acc_2 * 0.5 + x_2
            return acc_2
        return t(lambda acc, x: acc * 0.5 + x, xs, 0.0)
"""

from __future__ import annotations

import ast
import functools

from .. import ir
from ..frontend.build import build_expr
from ..ir.names import all_names, fresh_name, node_kinds, written_names
from ..ir.rewrite import expand_statements
from . import notes

_SCOPES_AND_BINDINGS = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
                        ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


def _two_parameter_lambda(expr: ir.Expr) -> ast.Lambda | None:
    """The lambda `expr` spells, if it has two plain parameters and a body that binds nothing."""
    if not isinstance(expr, ir.OpaqueExpr) or not isinstance(expr.node, ast.Lambda):
        return None
    node = expr.node
    params = node.args
    if params.posonlyargs or params.vararg or params.kwonlyargs or params.kwarg \
            or params.defaults or len(params.args) != 2:
        return None
    if any(isinstance(part, _SCOPES_AND_BINDINGS) for part in ast.walk(node.body)):
        return None
    return node


class _Renamer(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.copy_location(ast.Name(self.names.get(node.id, node.id), node.ctx), node)


class _Inliner:
    def __init__(self, function: ir.Function) -> None:
        self.namespace = function.namespace
        self.taken = all_names(function)
        self.local = function.locals | written_names(function)

    def _is_reduce(self, func: ir.Expr) -> bool:
        """Whether `func` means `functools.reduce` at compile time (tested again at run time)."""
        namespace = self.namespace
        match func:
            case ir.Const(value):
                return value is functools.reduce
            case ir.Name(name) if name not in self.local and namespace is not None:
                return namespace.lookup(name) == (True, functools.reduce)
            case ir.Attribute(ir.Name(name), "reduce") if name not in self.local \
                    and namespace is not None:
                return namespace.lookup(name) == (True, functools)
        return False

    def statement(self, stmt: ir.Return) -> tuple[ir.Stmt, ...] | None:
        """The loop and the kept statement for a `return` of a call of `reduce`, or None."""
        match stmt.value:
            case ir.Call(func, (fn, ir.Name() | ir.Const() as xs, *rest), ()) \
                    if len(rest) <= 1 and all(isinstance(r, (ir.Name, ir.Const)) for r in rest) \
                    and (node := _two_parameter_lambda(fn)) is not None and self._is_reduce(func):
                return self._rewrite(stmt, func, fn, node, xs, rest[0] if rest else None)
        return None

    def _rewrite(self, stmt: ir.Return, func: ir.Expr, fn: ir.Expr, node: ast.Lambda,
                 xs: ir.Expr, init: ir.Expr | None) -> tuple[ir.Stmt, ...]:
        loc = stmt.loc
        callee = ir.Name(fresh_name("t", self.taken))
        acc_name, item_name = (fresh_name(arg.arg, self.taken) for arg in node.args.args)
        renamed = _Renamer({node.args.args[0].arg: acc_name, node.args.args[1].arg: item_name})
        body = build_expr(renamed.visit(ast.parse(ast.unparse(node.body), mode="eval").body))
        acc, item = ir.Name(acc_name), ir.Name(item_name)
        tests: list[ir.Expr] = [
            ir.Compare(("is",), (callee, ir.Const(functools.reduce))),
            ir.Compare(("is",), (ir.Call(ir.Const(type), (xs,), ()), ir.Const(list)))]
        if init is None:
            iterator = ir.Name(fresh_name("it", self.taken))
            tests.append(xs)
            start: tuple[ir.Stmt, ...] = (
                ir.Assign((iterator,), ir.Call(ir.Const(iter), (xs,), ()), loc),
                ir.Assign((acc,), ir.Call(ir.Const(next), (iterator,), ()), loc))
            elements: ir.Expr = iterator
        else:
            start, elements = (ir.Assign((acc,), init, loc),), xs
        loop = ir.For(item, elements, (ir.Assign((acc,), body, loc),), (), loc)
        kept = ir.Return(ir.Call(callee, (fn, xs, *(() if init is None else (init,))), ()), loc)
        notes.changed("inline_reduce", "reduce with {} as a loop", fn, loc=loc)
        return (ir.Assign((callee,), func, loc),
                ir.If(ir.BoolOp("and", tuple(tests)), (*start, loop, ir.Return(acc, loc)), (), loc),
                kept)

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        return expand_statements(body, lambda stmt: self.statement(stmt) if isinstance(stmt, ir.Return) else None)


def inline_reduce(function: ir.Function) -> ir.Function:
    """Write `return functools.reduce(lambda a, b: E, xs[, init])` out as a loop, behind tests
    of what the loop relies on, the statement as written kept for the rest."""
    if not {ir.Call, ir.OpaqueExpr} <= node_kinds(function):  # a call with a lambda
        return function
    body = _Inliner(function).block(function.body)
    return function if body is function.body else function.with_body(body)
