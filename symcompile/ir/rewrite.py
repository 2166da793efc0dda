"""Rewriting helpers: walking and rebuilding IR without mutating it.

Every helper returns the very same object when nothing changed, so a pass built from them keeps
the pipeline's fixed-point test (an identity check) honest.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, Callable, Iterator

from .. import ir

ExprMap = Callable[[ir.Expr], ir.Expr]


def _dict_parts(expr: ir.DictDisplay) -> tuple[ir.Expr, ...]:
    parts: list[ir.Expr] = []
    for key, value in zip(expr.keys, expr.values):
        if key is not None:
            parts.append(key)
        parts.append(value)
    return tuple(parts)


# each expression class's direct subexpressions, in evaluation order (a table, not a `match`:
# every pass walks every expression, and most nodes are leaves a `match` would try all cases on)
def _leaf(expr: object) -> tuple[ir.Expr, ...]:
    return ()


_CHILDREN: dict[type, Callable[[Any], tuple[ir.Expr, ...]]] = {
    ir.Const: _leaf,
    ir.Name: _leaf,
    ir.OpaqueExpr: _leaf,
    ir.Op: lambda expr: expr.args,
    ir.Compare: lambda expr: expr.operands,
    ir.BoolOp: lambda expr: expr.values,
    ir.IfExp: lambda expr: (expr.test, expr.body, expr.orelse),
    ir.Call: lambda expr: (expr.func, *expr.args, *(kw.value for kw in expr.keywords)),
    ir.Attribute: lambda expr: (expr.value,),
    ir.Subscript: lambda expr: (expr.value, expr.index),
    ir.Slice: lambda expr: tuple(part for part in (expr.lower, expr.upper, expr.step)
                                 if part is not None),
    ir.Starred: lambda expr: (expr.value,),
    ir.Build: lambda expr: expr.elts,
    ir.DictDisplay: _dict_parts,
}


def expr_children(expr: ir.Expr) -> tuple[ir.Expr, ...]:
    """The direct subexpressions of `expr`, in evaluation order."""
    return _CHILDREN.get(type(expr), _leaf)(expr)


def walk_expr(expr: ir.Expr) -> Iterator[ir.Expr]:
    """`expr` and all its subexpressions, parents first (opaque parts are not entered).

    Walked with a stack of its own, not by recursion: nested generators would cost each node
    as many steps as it is deep, and Python's recursion limit would cap the depth."""
    children = _CHILDREN.get
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        parts = children(type(node), _leaf)(node)
        if parts:
            stack.extend(reversed(parts))


def _same(old: tuple[object, ...], new: tuple[object, ...]) -> bool:
    return len(old) == len(new) and all(map(operator.is_, old, new))


def unchanged_or_new(old: tuple[ir.Stmt, ...], new: list[ir.Stmt] | tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    """`old` itself if `new` holds the very same statements, else `new` as a tuple: how a pass
    keeps the pipeline's fixed-point test (an identity check) honest."""
    return old if _same(old, tuple(new)) else tuple(new)


def map_expr(expr: ir.Expr, fn: ExprMap) -> ir.Expr:
    """Rebuild `expr` bottom-up, applying `fn` to every node after its children."""
    rebuild = _REBUILD.get(type(expr))  # none for leaves: names, constants, opaque parts
    return fn(expr if rebuild is None else rebuild(expr, fn))


def _mapped(children: tuple[ir.Expr, ...], fn: ExprMap) -> tuple[ir.Expr, ...]:
    """`children` mapped; the very tuple if every child came back the same."""
    mapped = tuple([map_expr(child, fn) for child in children])
    return children if _same(children, mapped) else mapped


def _mapped_optional(child: ir.Expr | None, fn: ExprMap) -> ir.Expr | None:
    return None if child is None else map_expr(child, fn)


def _rebuild_op(expr: ir.Op, fn: ExprMap) -> ir.Expr:
    new = _mapped(expr.args, fn)
    return expr if new is expr.args else ir.Op(expr.op, new)


def _rebuild_compare(expr: ir.Compare, fn: ExprMap) -> ir.Expr:
    new = _mapped(expr.operands, fn)
    return expr if new is expr.operands else ir.Compare(expr.ops, new)


def _rebuild_boolop(expr: ir.BoolOp, fn: ExprMap) -> ir.Expr:
    new = _mapped(expr.values, fn)
    return expr if new is expr.values else ir.BoolOp(expr.op, new)


def _rebuild_ifexp(expr: ir.IfExp, fn: ExprMap) -> ir.Expr:
    triple = (expr.test, expr.body, expr.orelse)
    parts = _mapped(triple, fn)
    return expr if parts is triple else ir.IfExp(*parts)


def _rebuild_call(expr: ir.Call, fn: ExprMap) -> ir.Expr:
    func, args, keywords = expr.func, expr.args, expr.keywords
    new_func = map_expr(func, fn)
    new_args = _mapped(args, fn)
    values = tuple(kw.value for kw in keywords)
    new_values = _mapped(values, fn)
    if new_func is func and new_args is args and new_values is values:
        return expr
    return ir.Call(new_func, new_args, tuple(ir.Keyword(kw.name, value)
                                             for kw, value in zip(keywords, new_values)))


def _rebuild_attribute(expr: ir.Attribute, fn: ExprMap) -> ir.Expr:
    new_value = map_expr(expr.value, fn)
    return expr if new_value is expr.value else ir.Attribute(new_value, expr.attr)


def _rebuild_subscript(expr: ir.Subscript, fn: ExprMap) -> ir.Expr:
    new_value, new_index = map_expr(expr.value, fn), map_expr(expr.index, fn)
    if new_value is expr.value and new_index is expr.index:
        return expr
    return ir.Subscript(new_value, new_index)


def _rebuild_slice(expr: ir.Slice, fn: ExprMap) -> ir.Expr:
    bounds = (expr.lower, expr.upper, expr.step)
    new = tuple(_mapped_optional(bound, fn) for bound in bounds)
    return expr if _same(bounds, new) else ir.Slice(*new)


def _rebuild_starred(expr: ir.Starred, fn: ExprMap) -> ir.Expr:
    new_value = map_expr(expr.value, fn)
    return expr if new_value is expr.value else ir.Starred(new_value)


def _rebuild_build(expr: ir.Build, fn: ExprMap) -> ir.Expr:
    new = _mapped(expr.elts, fn)
    return expr if new is expr.elts else ir.Build(expr.kind, new)


def _rebuild_dict(expr: ir.DictDisplay, fn: ExprMap) -> ir.Expr:
    new_keys = tuple(_mapped_optional(key, fn) for key in expr.keys)
    new_values = _mapped(expr.values, fn)
    if _same(expr.keys, new_keys) and new_values is expr.values:
        return expr
    return ir.DictDisplay(new_keys, new_values)


# each compound expression class's rebuild (a table, as `_CHILDREN`: most nodes are leaves)
_REBUILD: dict[type, Callable[[Any, ExprMap], ir.Expr]] = {
    ir.Op: _rebuild_op,
    ir.Compare: _rebuild_compare,
    ir.BoolOp: _rebuild_boolop,
    ir.IfExp: _rebuild_ifexp,
    ir.Call: _rebuild_call,
    ir.Attribute: _rebuild_attribute,
    ir.Subscript: _rebuild_subscript,
    ir.Slice: _rebuild_slice,
    ir.Starred: _rebuild_starred,
    ir.Build: _rebuild_build,
    ir.DictDisplay: _rebuild_dict,
}


def map_target(target: ir.Expr, fn: ExprMap) -> ir.Expr:
    """Apply `fn` to what an assignment target reads (`a[i]`: a and i), never to the names it
    binds."""
    match target:
        case ir.Attribute(value, attr):
            new_value = map_expr(value, fn)
            return target if new_value is value else ir.Attribute(new_value, attr)
        case ir.Subscript(value, index):
            new_value, new_index = map_expr(value, fn), map_expr(index, fn)
            if new_value is value and new_index is index:
                return target
            return ir.Subscript(new_value, new_index)
        case ir.Build(kind, elts):
            new_elts = tuple(map_target(elt, fn) for elt in elts)
            return target if _same(elts, new_elts) else ir.Build(kind, new_elts)
        case ir.Starred(value):
            new_value = map_target(value, fn)
            return target if new_value is value else ir.Starred(new_value)
    return target


def statement_expressions(stmt: ir.Stmt, *, targets: bool = True) -> Iterator[ir.Expr]:
    """The expressions that belong to the statement itself (not to nested bodies)."""
    match stmt:
        case ir.Assign(stored, value):
            if targets:
                yield from stored
            yield value
        case ir.AugAssign(target, _, value):
            if targets:
                yield target
            yield value
        case ir.If(test) | ir.While(test):
            yield test
        case ir.For(target, iter_):
            if targets:
                yield target
            yield iter_
        case ir.Return(value) if value is not None:
            yield value
        case ir.Raise(exc, cause):
            yield from (part for part in (exc, cause) if part is not None)
        case ir.ExprStmt(value):
            yield value


def map_statement_expressions(stmt: ir.Stmt, fn: ExprMap) -> ir.Stmt:
    """Apply `fn` (bottom-up) to every expression the statement reads; targets' bound names and
    nested bodies are left alone."""
    def load(expr: ir.Expr) -> ir.Expr:
        return map_expr(expr, fn)

    match stmt:
        case ir.Assign(targets, value, loc):
            new_targets = tuple(map_target(t, fn) for t in targets)
            new_value = load(value)
            if new_value is not value or not _same(targets, new_targets):
                return ir.Assign(new_targets, new_value, loc)
        case ir.AugAssign(target, op, value, loc):
            new_target, new_value = map_target(target, fn), load(value)
            if new_target is not target or new_value is not value:
                return ir.AugAssign(new_target, op, new_value, loc)
        case ir.If(test, body, orelse, loc):
            if (new_test := load(test)) is not test:
                return ir.If(new_test, body, orelse, loc)
        case ir.While(test, body, orelse, loc):
            if (new_test := load(test)) is not test:
                return ir.While(new_test, body, orelse, loc)
        case ir.For(target, iter_, body, orelse, loc):
            new_target, new_iter = map_target(target, fn), load(iter_)
            if new_target is not target or new_iter is not iter_:
                return ir.For(new_target, new_iter, body, orelse, loc)
        case ir.Return(value, loc) if value is not None:
            if (new_value := load(value)) is not value:
                return ir.Return(new_value, loc)
        case ir.Raise(exc, cause, loc):
            new_exc = None if exc is None else load(exc)
            new_cause = None if cause is None else load(cause)
            if new_exc is not exc or new_cause is not cause:
                return ir.Raise(new_exc, new_cause, loc)
        case ir.ExprStmt(value, loc):
            if (new_value := load(value)) is not value:
                return ir.ExprStmt(new_value, loc)
    return stmt


_COMPOUND = (ir.If, ir.While, ir.For)


def nested_bodies(stmt: ir.Stmt) -> tuple[tuple[ir.Stmt, ...], ...]:
    """The bodies of an if or a loop (`body`, `orelse`); none for other statements."""
    if isinstance(stmt, _COMPOUND):
        return (stmt.body, stmt.orelse)
    return ()


def with_bodies(stmt: ir.Stmt, body: tuple[ir.Stmt, ...], orelse: tuple[ir.Stmt, ...]) -> ir.Stmt:
    """`stmt` (an if or a loop) with new bodies; itself when both are the same objects."""
    match stmt:
        case ir.If(test, old_body, old_orelse, loc) if body is not old_body or orelse is not old_orelse:
            return ir.If(test, body, orelse, loc)
        case ir.While(test, old_body, old_orelse, loc) if body is not old_body or orelse is not old_orelse:
            return ir.While(test, body, orelse, loc)
        case ir.For(target, iter_, old_body, old_orelse, loc) if body is not old_body or orelse is not old_orelse:
            return ir.For(target, iter_, body, orelse, loc)
    return stmt


def walk_statements(body: tuple[ir.Stmt, ...]) -> Iterator[ir.Stmt]:
    """Every statement in `body`, nested bodies included, in source order (walked with a
    stack of its own, as `walk_expr` is: nested generators cost each statement as many steps
    as it is deep)."""
    pending = [iter(body)]
    while pending:
        for stmt in pending[-1]:
            yield stmt
            if isinstance(stmt, _COMPOUND):
                pending += (iter(stmt.orelse), iter(stmt.body))  # the body first
                break
        else:
            pending.pop()


def map_statements(body: tuple[ir.Stmt, ...], fn: Callable[[ir.Stmt], ir.Stmt]) -> tuple[ir.Stmt, ...]:
    """Apply `fn` to every statement, innermost bodies first; `body` itself if nothing changed."""
    def visit(stmt: ir.Stmt) -> ir.Stmt:
        bodies = nested_bodies(stmt)
        if bodies:
            stmt = with_bodies(stmt, map_statements(bodies[0], fn), map_statements(bodies[1], fn))
        return fn(stmt)

    return unchanged_or_new(body, [visit(stmt) for stmt in body])


def expand_statements(body: tuple[ir.Stmt, ...],
                      fn: Callable[[ir.Stmt], tuple[ir.Stmt, ...] | None]) -> tuple[ir.Stmt, ...]:
    """Replace every statement, innermost bodies first, by the statements `fn` gives for it
    (None: kept as it is); `body` itself if nothing changed."""
    result: list[ir.Stmt] = []
    for stmt in body:
        bodies = nested_bodies(stmt)
        if bodies:
            stmt = with_bodies(stmt, expand_statements(bodies[0], fn), expand_statements(bodies[1], fn))
        result += fn(stmt) or (stmt,)
    return unchanged_or_new(body, result)


def copy_statements(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    """New statement objects equal to those of `body` (nested ones too), for a pass that puts
    a body in a second place: analyses key what holds at a statement by its identity, so each
    place needs objects of its own."""
    return tuple(map_statements(body, lambda stmt: dataclasses.replace(stmt)))


def rename(body: tuple[ir.Stmt, ...], names: dict[str, str]) -> tuple[ir.Stmt, ...]:
    """`body` with every variable in `names` renamed, where it is read and where it is bound."""
    def rename_name(expr: ir.Expr) -> ir.Expr:
        return ir.Name(names[expr.id]) if isinstance(expr, ir.Name) and expr.id in names else expr

    def rename_statement(stmt: ir.Stmt) -> ir.Stmt:
        stmt = map_statement_expressions(stmt, rename_name)
        match stmt:
            case ir.Assign(targets, value, loc):
                new_targets = tuple(map_expr(target, rename_name) for target in targets)
                return stmt if _same(targets, new_targets) else ir.Assign(new_targets, value, loc)
            case ir.AugAssign(target, op, value, loc):
                new_target = map_expr(target, rename_name)
                return stmt if new_target is target else ir.AugAssign(new_target, op, value, loc)
            case ir.For(target, iter_, inner, orelse, loc):
                new_target = map_expr(target, rename_name)
                return stmt if new_target is target else ir.For(new_target, iter_, inner, orelse, loc)
        return stmt

    return map_statements(body, rename_statement)


def replace_first(expr: ir.Expr, old: ir.Expr, new: ir.Expr) -> ir.Expr:
    """`expr` with the first occurrence (in evaluation order) of the very node `old` replaced."""
    done = False

    def swap(node: ir.Expr) -> ir.Expr:
        nonlocal done
        if not done and node is old:
            done = True
            return new
        return node

    return map_expr(expr, swap)


def header_expression(stmt: ir.Stmt) -> ir.Expr | None:
    """The expression a statement evaluates before doing anything else, if it has one: an
    assignment's value, a `return`'s value, an `if`'s test, a `for`'s iterable..."""
    match stmt:
        case ir.Assign(_, value) | ir.AugAssign(_, _, value) | ir.Return(value) | ir.ExprStmt(value):
            return value
        case ir.If(test):
            return test
        case ir.For(_, iter_):
            return iter_
        case ir.Raise(exc, None):
            return exc
    return None


def required_header(stmt: ir.Stmt) -> ir.Expr:
    """The header expression of a statement known to have one (see `header_expression`)."""
    if (header := header_expression(stmt)) is None:
        raise ValueError(f"{type(stmt).__name__} has no header expression")
    return header


def with_header(stmt: ir.Stmt, header: ir.Expr) -> ir.Stmt:
    """`stmt` with its header expression (see `header_expression`) replaced."""
    match stmt:
        case ir.Assign(targets, _, loc):
            return ir.Assign(targets, header, loc)
        case ir.AugAssign(target, op, _, loc):
            return ir.AugAssign(target, op, header, loc)
        case ir.Return(_, loc):
            return ir.Return(header, loc)
        case ir.ExprStmt(_, loc):
            return ir.ExprStmt(header, loc)
        case ir.If(_, body, orelse, loc):
            return ir.If(header, body, orelse, loc)
        case ir.For(target, _, body, orelse, loc):
            return ir.For(target, header, body, orelse, loc)
        case ir.Raise(_, cause, loc):
            return ir.Raise(header, cause, loc)
    raise ValueError(f"{type(stmt).__name__} has no header expression")
