"""eliminate_dead_code: drop assignments nobody reads and expressions that do nothing.

An assignment `x = v` goes when evaluating `v` can have no effect and raise nothing (a
constant, or a local certainly bound) and the value is dead: no code can read it before `x` is
assigned again or the function returns (`analysis.live_after`). So does an expression
statement of that kind. (Unreachable code and branches that never run are removed by
`propagate`.) A function that looks at its own locals by name (`locals()`, `eval`...) keeps
everything.

A dead assignment is still the end of the value it replaces: CPython frees an object when its
last reference goes, running its `__del__` there. So an assignment goes only where no name it
binds may hold an *owned* value (`finalizers.held_before`: the result of a call or of an
operator on values of unknown type, which only that name may hold). `d = Resource(); d = 0;
print(1)` keeps `d = 0`, where the original's `Resource.__del__` runs; `d = x * 2.0; d = 0`
in a version for a float `x` drops it, and so does a dead copy of a parameter or an item
(`b = x`, `m = masses[j]`: their values are held elsewhere). A dead `x = c` over an owned value
goes too where the next statement of its block rebinds `x` to `+ - *` of floats (names
`value_types` knows as floats, float constants): that runs no code and raises nothing, so the
value replaced ends there, with nothing observable between (`acc = 0.0; acc = (0.0 * x + c0)
* x` in a loop's float copy).

Example::

    def f(x):
        y = x
        z = 3
        x
        return x + 1
    # --- after eliminate_dead_code ---
    def f(x):
        return x + 1
"""

from __future__ import annotations

import functools
from typing import Callable

from .. import ir
from ..analysis.finalizers import held_before
from ..analysis.value_types import TypeEnv, types_before
from ..ir.names import (
    bound_on_entry,
    introspects,
    is_quiet,
    live_after,
    untracked_names,
)
from ..ir.rewrite import map_statements, nested_bodies, walk_expr, with_bodies
from . import notes

#: the operators that run no code and raise nothing on floats
_FLOAT_OPERATORS = frozenset({"add", "sub", "mul", "neg", "pos"})


def eliminate_dead_code(function: ir.Function) -> ir.Function:
    """Remove assignments of quiet values nobody reads, and quiet expression statements."""
    if introspects(function):
        return function
    live = live_after(function)
    kept = untracked_names(function)
    bound = bound_on_entry(function)
    held = held_before(function)
    docstring = function.body[0] if function.body else None
    types = functools.cache(lambda: types_before(function))  # asked only before a rebinding

    def dead(stmt: ir.Stmt, after: ir.Stmt | None) -> bool:
        if id(stmt) not in live:
            return False
        quiet = is_quiet_statement(stmt)
        match stmt:
            case ir.Assign(targets) if all(isinstance(t, ir.Name) for t in targets):
                names = {target.id for target in targets if isinstance(target, ir.Name)}
                unread = not names & (live[id(stmt)] | kept)
                if unread and not quiet:
                    notes.missed("drop dead", f"not dropped {_assignment(stmt)}: the value may raise or "
                                 "run code", *stmt.targets, stmt.value, loc=stmt.loc)
                elif unread and names & held.get(id(stmt), names) \
                        and not _rebinds_quietly(names, after, types):
                    notes.missed("drop dead", f"not dropped {_assignment(stmt)}: it ends the value it "
                                 "replaces, which may have a finalizer (__del__)", *stmt.targets,
                                 stmt.value, loc=stmt.loc)
                    return False
                return unread and quiet
            case ir.ExprStmt():
                return quiet and stmt is not docstring
        return False

    def drops(stmt: ir.Stmt, after: ir.Stmt | None) -> bool:
        match stmt:
            case ir.Assign() if dead(stmt, after):
                notes.changed("drop dead", f"drop dead {_assignment(stmt)}", *stmt.targets, stmt.value,
                              loc=stmt.loc)
            case ir.ExprStmt() if dead(stmt, after):
                notes.changed("drop quiet", "drop quiet expression {}", stmt.value, loc=stmt.loc)
            case _:
                return False
        return True

    def is_quiet_statement(stmt: ir.Stmt) -> bool:
        bound_here = bound.get(id(stmt), frozenset())
        match stmt:
            case ir.Assign(targets, value) if all(isinstance(t, ir.Name) for t in targets):
                return is_quiet(value, bound_here)
            case ir.ExprStmt(value):
                return is_quiet(value, bound_here)
        return False

    def sweep(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        kept_statements = tuple(stmt for stmt, after in zip(body, (*body[1:], None))
                                if not drops(stmt, after))
        return body if len(kept_statements) == len(body) else kept_statements

    def visit(stmt: ir.Stmt) -> ir.Stmt:
        bodies = nested_bodies(stmt)
        return with_bodies(stmt, sweep(bodies[0]), sweep(bodies[1])) if bodies else stmt

    return function.with_body(sweep(map_statements(function.body, visit)))


def _rebinds_quietly(names: set[str], after: ir.Stmt | None,
                     types: Callable[[], dict[int, TypeEnv]]) -> bool:
    """Whether `after` binds exactly `names`, each to a value computed with `+ - *` (unary `-`
    `+` too) of float constants and locals known as floats where it starts: no code runs and
    nothing raises (float arithmetic overflows to inf) before the values they held end. (An
    operation, never dropped itself, as a constant would be.)"""
    if not isinstance(after, ir.Assign) or not isinstance(after.value, ir.Op) \
            or len(after.targets) != len(names) \
            or {t.id for t in after.targets if isinstance(t, ir.Name)} != names \
            or (env := types().get(id(after))) is None:
        return False
    return all(_float_arithmetic(node, env) for node in walk_expr(after.value))


def _float_arithmetic(node: ir.Expr, env: TypeEnv) -> bool:
    match node:
        case ir.Const(value):
            return type(value) is float
        case ir.Name(name):
            known = env.get(name)
            return known is not None and known.type is float
        case ir.Op(op):
            return op in _FLOAT_OPERATORS
    return False


def _assignment(stmt: ir.Assign) -> str:
    """The template of a note about `stmt`: `{} = {}`, one `{}` per target and the value."""
    return " = ".join(["{}"] * (len(stmt.targets) + 1))
