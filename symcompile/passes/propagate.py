"""propagate: carry constants and copies forward to where they are read; fold branches.

A local assigned a constant (`n = 3`) or a copy of another local (`y = x`) is replaced by that
value where it is read, as long as no assignment on the way may have changed it: through
straight-line code and into both branches of an `if`, keeping after the `if` only what both
branches agree on. A loop first forgets every variable it assigns. An `if` or `while` whose
test is a constant keeps only the branch that runs, and code after `return`, `raise`, `break`
or `continue` (which never runs) is removed. Locals that opaque code touches are never
propagated: a nested function may read or rebind them at any time.

Example::

    def f(x):
        n = 3
        y = x
        if n > 2:
            z = y * n
        else:
            z = 0
        return z
        print('never')
    # --- after propagate ---
    def f(x):
        n = 3
        y = x
        if 3 > 2:
            z = x * 3
        else:
            z = 0
        return z
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from .. import ir
from ..analysis.constants import is_foldable_value
from ..analysis.value_types import type_of
from ..ir.names import assigned_names, local_names, untracked_names
from ..ir.ops import OPS
from ..ir.rewrite import (
    map_statement_expressions,
    unchanged_or_new,
    walk_statements,
    with_bodies,
)
from . import notes

Env = dict[str, ir.Expr]
S = TypeVar("S", bound=ir.Stmt)


def _assigned_anywhere(stmt: ir.Stmt) -> set[str]:
    names: set[str] = set()
    for inner in walk_statements((stmt,)):
        names |= assigned_names(inner)
    return names


def _forget(env: Env, names: set[str] | frozenset[str]) -> Env:
    """`env` without `names`, nor any copy of them."""
    return {name: value for name, value in env.items()
            if name not in names and not (isinstance(value, ir.Name) and value.id in names)}


def _substitute(stmt: S, env: Env) -> S:
    if not env:
        return stmt
    carried: dict[str, ir.Expr] = {}

    def read(expr: ir.Expr) -> ir.Expr:
        if isinstance(expr, ir.Name) and expr.id in env:
            carried[expr.id] = env[expr.id]
            return env[expr.id]
        return expr

    new = map_statement_expressions(stmt, read)
    assert isinstance(new, type(stmt))  # it keeps the statement's class
    for name, value in carried.items():
        notes.changed("propagate", "propagate {} → {}", name, value, loc=stmt.loc)
    return new


def _immutable(value: object) -> bool:
    return is_foldable_value(value) and not isinstance(value, np.generic)


def _takes_number(op: str, left: object, right: ir.Expr) -> bool:
    """Whether `right` is certainly a number (known without relying on argument types) that
    the operator takes with `left`: otherwise `n += v` and `n = 3 + v` raise different
    messages (`unsupported operand type(s) for +=` and `for +`)."""
    known = type_of(right, {})
    if known is None or known.arguments or not known.is_number or not isinstance(known.type, type):
        return False
    try:
        OPS[op].evaluate(left, known.type(1))
    except TypeError:
        return False
    except Exception:  # (any other error has the same message in both spellings)
        return True
    return True


def _constant_items(expr: ir.Expr) -> tuple[ir.Const, ...] | None:
    """The items of a constant tuple, or of a tuple or list display of constants."""
    if isinstance(expr, ir.Const) and type(expr.value) is tuple:
        return tuple(ir.Const(item) for item in expr.value)
    if isinstance(expr, ir.Build) and expr.kind in ("tuple", "list"):
        items = tuple(elt for elt in expr.elts if isinstance(elt, ir.Const))
        return items if len(items) == len(expr.elts) else None
    return None


def _constant_truth(expr: ir.Expr) -> bool | None:
    if isinstance(expr, ir.Const) and is_foldable_value(expr.value):
        return bool(expr.value)
    return None


def _say_branch_dropped(stmt: ir.If, truth: bool) -> None:
    """Note that only one branch of an `if` with a constant test stays."""
    if not truth:
        notes.changed("drop branch", "drop branch if {}", stmt.test, loc=stmt.loc)
    elif stmt.orelse:
        notes.changed("drop branch", "drop else of if {}", stmt.test, loc=stmt.loc)
    else:
        notes.changed("drop branch", "drop the test if {}", stmt.test, loc=stmt.loc)


def _dropped_after(stmt: ir.Stmt) -> str:
    """The note for the code after `stmt`, which never runs."""
    match stmt:
        case ir.Return():
            return "drop code after return"
        case ir.Raise():
            return "drop code after raise"
        case ir.Break():
            return "drop code after break"
        case ir.Continue():
            return "drop code after continue"
    return "drop code after an if whose branches all leave"


def _is_empty_iterable(expr: ir.Expr) -> bool:
    if isinstance(expr, ir.Const):
        return isinstance(expr.value, (tuple, str, bytes)) and len(expr.value) == 0
    return isinstance(expr, ir.Build) and expr.kind in ("tuple", "list") and not expr.elts


class _Propagator:
    def __init__(self, function: ir.Function) -> None:
        self.untracked = untracked_names(function)
        self.tracked = local_names(function) - self.untracked

    def block(self, body: tuple[ir.Stmt, ...], env: Env) -> tuple[tuple[ir.Stmt, ...], Env, bool]:
        """Rewrite `body` starting from `env`: (new body, env at its end, whether it ends)."""
        result: list[ir.Stmt] = []
        pending = list(body)
        while pending:
            stmt = pending.pop(0)
            replacement = self.statement(stmt, env)
            if isinstance(replacement, list):  # a folded branch: its statements run here
                pending[:0] = replacement
                continue
            new_stmt, env, ends = replacement
            result.append(new_stmt)
            if ends:
                if pending:
                    notes.changed("drop code", _dropped_after(new_stmt), loc=pending[0].loc)
                return unchanged_or_new(body, result), env, True
        return unchanged_or_new(body, result), env, False

    def statement(self, stmt: ir.Stmt, env: Env) -> list[ir.Stmt] | tuple[ir.Stmt, Env, bool]:
        match stmt:
            case ir.If(_, body, orelse, loc):
                stmt = _substitute(stmt, env)
                truth = _constant_truth(stmt.test)
                if truth is not None:
                    _say_branch_dropped(stmt, truth)
                    return list(body if truth else orelse)
                new_body, env_body, body_ends = self.block(body, dict(env))
                new_orelse, env_orelse, orelse_ends = self.block(orelse, dict(env))
                if body_ends:
                    after = env_orelse
                elif orelse_ends:
                    after = env_body
                else:
                    after = {k: v for k, v in env_body.items() if env_orelse.get(k) == v}
                new = stmt if (new_body is body and new_orelse is orelse) else \
                    ir.If(stmt.test, new_body, new_orelse, loc)
                return new, after, body_ends and orelse_ends
            case ir.While(_, body, orelse, loc):
                loop_env = _forget(env, _assigned_anywhere(stmt))
                stmt = _substitute(stmt, loop_env)  # the test runs before every turn
                if _constant_truth(stmt.test) is False:
                    notes.changed("drop loop", "drop loop while {}", stmt.test, loc=loc)
                    return list(orelse)
                return self._loop(stmt, loop_env)
            case ir.For(target, iter_, body, orelse, loc):
                # the iterable is evaluated once, before the loop; the target on every turn
                new_iter = _substitute(ir.ExprStmt(iter_, loc), env).value
                if _is_empty_iterable(new_iter):
                    notes.changed("drop loop", "drop loop for {} in {}", target, new_iter, loc=loc)
                    return list(orelse)
                if new_iter is not iter_:
                    stmt = ir.For(target, new_iter, body, orelse, loc)
                return self._loop(stmt, _forget(env, _assigned_anywhere(stmt)))
            case ir.Return() | ir.Raise() | ir.Break() | ir.Continue():
                return _substitute(stmt, env), env, True
        stmt = _substitute(stmt, env)
        match stmt:
            case ir.Assign((ir.Build("tuple" | "list", names),), value, loc) \
                    if (values := _constant_items(value)) is not None and len(names) == len(values) \
                    and all(isinstance(n, ir.Name) for n in names):
                # `a, b = 1, 2` binds a then b, exactly as `a = 1` then `b = 2` do
                notes.changed("split", "split {} = {}", ir.Build("tuple", names), ir.Build("tuple", values),
                              loc=loc)
                return [ir.Assign((name,), item, loc) for name, item in zip(names, values)]
            case ir.AugAssign(ir.Name(name) as target, op, value, loc) \
                    if isinstance(known := env.get(name), ir.Const) and _immutable(known.value) \
                    and _takes_number(op, known.value, value):
                # `n += v` with n a known int (float, str...): these types have no in-place
                # operators, so it is exactly `n = 3 + v` (v a number: see _takes_number)
                stmt = ir.Assign((target,), ir.Op(op, (known, value)), loc)
                notes.changed("propagate", "propagate {} → {}: {} = {}", name, known, name,
                              stmt.value, loc=loc)
        env = _forget(env, assigned_names(stmt))
        match stmt:
            case ir.Assign(targets, value) if isinstance(value, ir.Const) or (
                    isinstance(value, ir.Name) and value.id in self.tracked):
                for target in targets:
                    if isinstance(target, ir.Name) and target.id in self.tracked \
                            and target != value:
                        env[target.id] = value
                    elif isinstance(target, ir.Name) and target.id in self.untracked:
                        notes.missed("propagate", "not propagated {} = {}: code the compiler keeps opaque "
                                     "may reach it", target.id, value, loc=stmt.loc)
        return stmt, env, False

    def _loop(self, stmt: ir.For | ir.While, loop_env: Env) -> tuple[ir.Stmt, Env, bool]:
        """A loop's bodies see only what no turn of the loop changes; so does what follows."""
        new_body, _, _ = self.block(stmt.body, dict(loop_env))
        new_orelse, _, _ = self.block(stmt.orelse, dict(loop_env))
        new = with_bodies(stmt, new_body, new_orelse)
        return new, _forget(loop_env, _assigned_anywhere(stmt)), False


def propagate(function: ir.Function) -> ir.Function:
    """Replace reads of locals holding a known constant or copy; fold constant branches."""
    body, _, _ = _Propagator(function).block(function.body, {})
    return function.with_body(body)
