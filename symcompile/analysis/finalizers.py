"""Finalizers: which locals may hold the last reference to an object with a `__del__`.

An analysis for the passes that could move the moment such an object dies (CPython frees an
object when its last reference goes, running its finalizer right there): eliminate_dead_code
(a dead store still releases the value it replaces), forward_single_uses (a forwarded value
dies at its use) and inline_calls (a callee's locals die when it returns).

A stored value is *owned* when the name it is stored into may be its only holder: the result
of a call, an operator or anything opaque, unless its type is known to have no finalizer (a
number, a NumPy scalar or array of numbers: every type `value_types` knows). Any other value
is *borrowed*, held elsewhere too: a constant (by the code), a copy of a name, an attribute or
item read (by its object), a `for` loop's item (by what the loop iterates over). The limits
this leaves are written down in docs/semantics.md ("Finalizers").
"""

from __future__ import annotations

import ast
from types import CodeType
from typing import Iterable

from .. import ir
from ..ir.names import assigned_names
from ..ir.rewrite import walk_expr
from .value_types import Known, TypeEnv, TypeFlow, join_envs, type_of, types_before

_BORROWED = (ir.Const, ir.Name, ir.Attribute, ir.Subscript)


def harmless(known: Known | None) -> bool:
    """Whether a value of this type certainly has no finalizer (and holds nothing that has)."""
    return known is not None


def owned(expr: ir.Expr, env: TypeEnv) -> bool:
    """Whether the value of `expr`, once stored, may be owned by the name alone and have a
    finalizer."""
    if isinstance(expr, _BORROWED):
        return False
    if any(isinstance(node, ir.Call) and isinstance(node.func, ir.Const) and
           not _hashable(node.func.value) for node in walk_expr(expr)):
        return True  # (an object called: `type_of` looks callees up in sets)
    return not harmless(type_of(expr, env))


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:  # (a frozen dataclass holding an array, too)
        return False
    return True


def release(name: str, loc: ir.Loc) -> ir.Assign:
    """`name = None`: the statement that ends the life of what `name` holds."""
    return ir.Assign((ir.Name(name),), ir.Const(None), loc)


class _Flow:
    """The locals that may hold an owned value, statement by statement (a may-analysis:
    branches join by union, loops run to a fixed point)."""

    def __init__(self, types: dict[int, TypeEnv] | None) -> None:
        self.types = types
        self.before: dict[int, frozenset[str]] = {}

    def block(self, body: Iterable[ir.Stmt], held: frozenset[str]) -> frozenset[str]:
        for stmt in body:
            # one statement object may stand in several places (unrolled copies)
            self.before[id(stmt)] = self.before.get(id(stmt), frozenset()) | held
            held = self.statement(stmt, held)
        return held

    def statement(self, stmt: ir.Stmt, held: frozenset[str]) -> frozenset[str]:
        match stmt:
            case ir.If(_, then, orelse):
                return self.block(then, held) | self.block(orelse, held)
            case ir.For(_, _, body, orelse) | ir.While(_, body, orelse):
                items = frozenset(assigned_names(stmt))  # a `for` loop's items are borrowed
                head = held
                while not (turn := self._turn(body, head - items, ir.Continue)) <= head:
                    head |= turn
                return self.block(orelse, head) | self._jumps(body, ir.Break)
            case ir.Opaque(ast.Delete()):
                return held - assigned_names(stmt)
            case ir.Opaque():
                return held | assigned_names(stmt)
        return self._binding(stmt, held)

    def _turn(self, body: tuple[ir.Stmt, ...], held: frozenset[str],
              jump: type[ir.Stmt]) -> frozenset[str]:
        """What may be held at the end of a turn of a loop, or at a `continue`."""
        return self.block(body, held) | self._jumps(body, jump)

    def _jumps(self, body: tuple[ir.Stmt, ...], jump: type[ir.Stmt]) -> frozenset[str]:
        """What may be held where the loop of `body` is left by `jump` (`break` or
        `continue`; opaque code may do either, and bind names too)."""
        found = frozenset[str]()
        for stmt in _own_statements(body):
            if isinstance(stmt, jump):
                found |= self.before[id(stmt)]
            elif isinstance(stmt, ir.Opaque):
                found |= self.before[id(stmt)] | assigned_names(stmt)
        return found

    def _binding(self, stmt: ir.Stmt, held: frozenset[str]) -> frozenset[str]:
        names = frozenset(assigned_names(stmt))
        if not names:
            return held
        env = self.types.get(id(stmt), {}) if self.types is not None else {}
        match stmt:
            case ir.Assign(targets, value) if all(isinstance(t, ir.Name) for t in targets):
                fresh = owned(value, env)
            case ir.AugAssign(target, op, value):
                fresh = owned(ir.Op(op, (target, value)), env)
            case _:  # unpacking: the items of an unknown value
                fresh = True
        return held | names if fresh else held - names


def _own_statements(body: tuple[ir.Stmt, ...]) -> Iterable[ir.Stmt]:
    """The statements of a loop's body, not those of the loops nested in it."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ir.If):
            yield from _own_statements(stmt.body)
            yield from _own_statements(stmt.orelse)


def held_before(function: ir.Function) -> dict[int, frozenset[str]]:
    """For every statement (by `id`), the locals that may hold an owned value when it starts.
    (Parameters hold what the caller holds too.)"""
    flow = _Flow(types_before(function))
    flow.block(function.body, frozenset())
    return flow.before


def held_after(body: tuple[ir.Stmt, ...], env: TypeEnv) -> frozenset[str]:
    """The locals that may hold an owned value after `body` (no opaque code in it) runs,
    starting with the types `env` and no local holding one."""
    types: dict[int, TypeEnv] = {}

    def record(stmt: ir.Stmt, env: TypeEnv) -> ir.Stmt:
        types[id(stmt)] = join_envs(types[id(stmt)], env) if id(stmt) in types else env
        return stmt

    TypeFlow(set(), record).block(body, env)
    return _Flow(types).block(body, frozenset())


def names_released(stmt: ir.Stmt) -> frozenset[str]:
    """The names `stmt` rebinds to a constant (a release, as `x = None` is)."""
    match stmt:
        case ir.Assign(targets, ir.Const()) if all(isinstance(t, ir.Name) for t in targets):
            return frozenset(t.id for t in targets if isinstance(t, ir.Name))
    return frozenset()



def callee_releases(code: CodeType, names: dict[str, str], body: tuple[ir.Stmt, ...],
                    env: TypeEnv) -> tuple[list[str], frozenset[str]]:
    """For a callee's body inlined (its parameters' assignments first, its locals renamed by
    `names`) where the caller's types are `env`: its renamed locals that may own a value when
    it returns, in the order its frame would release them, and all the names that may own one
    then (the result's name too)."""
    held = held_after(body, env)
    order = [names[local] for local in code.co_varnames if local in names]
    return [name for name in order if name in held], held
