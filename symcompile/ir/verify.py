"""The IR verifier: checks the invariants every stage may rely on.

Runs after the front end and after every pass. A failure is a bug in symcompile, never in the
user's code: it raises `IRError` naming the broken invariant and showing the IR text, which the
compiler reports as an internal error.
"""

from __future__ import annotations

import ast
import keyword

from .. import ir
from .names import statement_facts
from .ops import OPS
from .rewrite import walk_statements


class IRError(Exception):
    """The IR broke an invariant (an internal compiler bug)."""


def _identifier(name: object) -> bool:
    return isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise IRError(message)


def verify_expr(expr: object, *, in_subscript: bool = False, star_ok: bool = False) -> None:
    """Check one expression tree; `in_subscript`/`star_ok` say where slices and stars may be."""
    match expr:
        case ir.Const():
            pass
        case ir.Name(id):
            _check(_identifier(id), f"bad variable name {id!r}")
        case ir.Op(op, args):
            _check(op in OPS and OPS[op].kind != "compare", f"unknown operator {op!r}")
            _check(len(args) == OPS[op].arity, f"{op} takes {OPS[op].arity} operands")
            for arg in args:
                verify_expr(arg)
        case ir.Compare(ops, operands):
            _check(len(ops) >= 1 and len(operands) == len(ops) + 1, "malformed comparison chain")
            _check(all(op in OPS and OPS[op].kind == "compare" for op in ops), f"bad comparison {ops}")
            for operand in operands:
                verify_expr(operand)
        case ir.BoolOp(op, values):
            _check(op in ("and", "or") and len(values) >= 2, f"malformed boolean {op!r}")
            for value in values:
                verify_expr(value)
        case ir.IfExp(test, body, orelse):
            for part in (test, body, orelse):
                verify_expr(part)
        case ir.Call(func, args, keywords):
            verify_expr(func)
            for arg in args:
                verify_expr(arg, star_ok=True)
            for kw in keywords:
                _check(isinstance(kw, ir.Keyword), "call keyword is not a Keyword")
                _check(kw.name is None or _identifier(kw.name), f"bad keyword {kw.name!r}")
                verify_expr(kw.value)
        case ir.Attribute(value, attr):
            verify_expr(value)
            _check(_identifier(attr), f"bad attribute name {attr!r}")
        case ir.Subscript(value, index):
            verify_expr(value)
            verify_expr(index, in_subscript=True)
        case ir.Slice(lower, upper, step):
            _check(in_subscript, "a slice outside a subscript")
            for bound in (lower, upper, step):
                if bound is not None:
                    verify_expr(bound)
        case ir.Starred(value):
            _check(star_ok, "a starred expression where none is allowed")
            verify_expr(value)
        case ir.Build(kind, elts):
            _check(kind in ("tuple", "list", "set"), f"unknown display kind {kind!r}")
            for elt in elts:
                verify_expr(elt, in_subscript=in_subscript and kind == "tuple", star_ok=True)
        case ir.DictDisplay(keys, values):
            _check(len(keys) == len(values), "dict display keys and values differ in number")
            for key, value in zip(keys, values):
                if key is not None:
                    verify_expr(key)
                verify_expr(value)
        case ir.OpaqueExpr(node):
            _check(isinstance(node, ast.expr), "opaque expression without an AST expression")
        case _:
            raise IRError(f"not an IR expression: {expr!r}")


def verify_target(target: object) -> None:
    """Check an assignment target: a name, attribute, subscript, or a tuple/list of targets."""
    match target:
        case ir.Name() | ir.Attribute() | ir.Subscript():
            verify_expr(target)
        case ir.Build(kind, elts) if kind in ("tuple", "list"):
            stars = [elt for elt in elts if isinstance(elt, ir.Starred)]
            _check(len(stars) <= 1, "more than one starred target")
            for elt in elts:
                verify_target(elt.value if isinstance(elt, ir.Starred) else elt)
        case _:
            # (format_expr prints broken IR too)
            raise IRError(f"cannot assign to {ir.format_expr(target)}")  # type: ignore[arg-type]


def verify_body(body: object, loop_depth: int) -> None:
    if not isinstance(body, tuple):
        raise IRError(f"a statement body must be a tuple, got {type(body).__name__}")
    # in a compilation, a statement object checked already (inside a loop or not) is not
    # checked again: the IR never changes, and most statements of a version are the last one's
    facts = statement_facts()
    checked = facts.checked if facts is not None else None
    for stmt in body:
        key = (id(stmt), loop_depth > 0)  # `break` is right at any depth inside a loop
        if checked is not None and checked.get(key) is stmt:
            continue
        verify_statement(stmt, loop_depth)
        if checked is not None:
            checked[key] = stmt


def verify_statement(stmt: object, loop_depth: int) -> None:
    match stmt:
        case ir.Assign(targets, value):
            _check(len(targets) >= 1, "assignment without a target")
            for target in targets:
                verify_target(target)
            verify_expr(value, star_ok=False)
        case ir.AugAssign(target, op, value):
            _check(isinstance(target, (ir.Name, ir.Attribute, ir.Subscript)), "bad augmented target")
            _check(op in OPS and OPS[op].kind == "binary", f"bad augmented operator {op!r}")
            verify_expr(target)
            verify_expr(value)
        case ir.If(test, body, orelse) | ir.While(test, body, orelse):
            verify_expr(test)
            inner = loop_depth + isinstance(stmt, ir.While)
            verify_body(body, inner)
            verify_body(orelse, loop_depth)
        case ir.For(target, iter_, body, orelse):
            verify_target(target)
            verify_expr(iter_)
            verify_body(body, loop_depth + 1)
            verify_body(orelse, loop_depth)
        case ir.Break() | ir.Continue():
            _check(loop_depth > 0, f"{type(stmt).__name__.lower()} outside a loop")
        case ir.Return(value):
            if value is not None:
                verify_expr(value)
        case ir.Raise(exc, cause):
            _check(exc is not None or cause is None, "raise ... from without an exception")
            for part in (exc, cause):
                if part is not None:
                    verify_expr(part)
        case ir.ExprStmt(value):
            verify_expr(value)
        case ir.Opaque(node):
            _check(isinstance(node, ast.stmt), "opaque statement without an AST statement")
        case _:
            raise IRError(f"not an IR statement: {stmt!r}")


def verify_statement_identity(body: tuple[ir.Stmt, ...]) -> None:
    """Check that no statement object stands at two places: analyses key facts by `id(stmt)`,
    so a shared object would mix up the facts of both places (a copy must be a new object)."""
    seen: set[int] = set()
    for stmt in walk_statements(body):
        _check(id(stmt) not in seen,
               f"one statement object at two places: {type(stmt).__name__} "
               f"(line {getattr(getattr(stmt, 'loc', None), 'line', 0)})")
        seen.add(id(stmt))


def verify(function: ir.Function) -> ir.Function:
    """Check `function`'s invariants; return it unchanged, or raise `IRError`."""
    try:
        _check(_identifier(function.name), f"bad function name {function.name!r}")
        _check(isinstance(function.params, ast.arguments), "parameters are not ast.arguments")
        verify_body(function.body, 0)
        verify_statement_identity(function.body)
    except IRError as error:
        raise IRError(f"{error}\n--- in IR ---\n{ir.format_function(function)}") from None
    return function
