"""Evaluation order within a statement: which names it reads only after something that may have
run code the compiler cannot see.

Part of the effects analysis (`Effects.reads` asks it, judging each operation with
`Effects.operation`). Python evaluates a statement's value before its targets' owners and
indexes (`a[i] = v`), an augmented target before its value, an operation's operands before the
operation, and a truth test (`and`, `or`, a conditional) or a comparison after the operands
it needs first. A global read after an operation that may run unseen code may have been
rebound by it.
"""

from __future__ import annotations

from typing import Callable, Iterable

from .. import ir
from ..ir.rewrite import expr_children, statement_expressions
from .trusted import Relied

Operation = Callable[[ir.Expr], Relied | None]


def target_parts(target: ir.Expr) -> Iterable[ir.Expr]:
    """The expressions a store into `target` evaluates (an item's owner and index...)."""
    match target:
        case ir.Attribute(owner, _):
            yield owner
        case ir.Subscript(owner, index):
            yield owner
            yield index
        case ir.Build(_, items):
            for item in items:
                yield from target_parts(item)
        case ir.Starred(inner):
            yield from target_parts(inner)


def late_reads(stmt: ir.Stmt, operation: Operation) -> tuple[set[str], Relied]:
    """The names the statement's own expressions read after the first operation that may run
    unseen code (by `operation`'s verdict on each), and what the work before it rests on."""
    order = _Order(operation)
    match stmt:
        case ir.Assign(targets, value):
            order.walk(value)
            for target in targets:
                order.walk_all(target_parts(target))
        case ir.AugAssign(target, _, value):
            order.walk_all(target_parts(target))
            order.walk(value)
        case ir.Opaque():
            order.taint()
        case _:
            order.walk_all(statement_expressions(stmt, targets=False))
    return order.late, frozenset(order.relied)


class _Order:
    """A walk of expressions in the order Python evaluates them, noting each name read after
    the first operation that may run unseen code."""

    def __init__(self, operation: Operation) -> None:
        self.operation = operation
        self.dirty = False
        self.late: set[str] = set()
        self.relied: set[str] = set()

    def taint(self, verdict: Relied | None = None) -> None:
        if verdict is None:
            self.dirty = True
        elif not self.dirty:
            self.relied |= verdict

    def walk_all(self, exprs: Iterable[ir.Expr]) -> None:
        for expr in exprs:
            self.walk(expr)

    def walk(self, expr: ir.Expr) -> None:
        own = self.operation(expr)
        match expr:
            case ir.Name(name) if self.dirty:
                self.late.add(name)
            case ir.BoolOp() | ir.IfExp() | ir.Compare():
                # a truth test or the first comparison comes after the first operand(s)
                children = expr_children(expr)
                first = 2 if isinstance(expr, ir.Compare) else 1
                self.walk_all(children[:first])
                self.taint(own)
                self.walk_all(children[first:])
                return
        self.walk_all(expr_children(expr))
        self.taint(own)
