"""eliminate_dead_code: drop assignments nobody reads and expressions that do nothing.

An assignment `x = v` goes when evaluating `v` can have no effect and raise nothing (a
constant, or a local certainly bound) and no code reads `x`, or `x` is assigned afresh before
this value could be read; so does an expression statement of that kind. (Unreachable code and branches that never run are removed by `propagate`.) A
function that looks at its own locals by name (`locals()`, `eval`...) keeps everything.

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

from .. import ir
from ..analysis import (
    bound_on_entry,
    introspects,
    is_quiet,
    overwritten_before_read,
    read_counts,
    target_names,
    untracked_names,
)
from ..rewrite import map_statements, nested_bodies, with_bodies


def eliminate_dead_code(function: ir.Function) -> ir.Function:
    """Remove assignments of quiet values to names never read, and quiet expression statements."""
    if introspects(function):
        return function
    reads = read_counts(function)
    kept = untracked_names(function)
    bound = bound_on_entry(function)
    docstring = function.body[0] if function.body else None

    def dead(stmt: ir.Stmt) -> bool:
        bound_here = bound.get(id(stmt), frozenset())
        match stmt:
            case ir.Assign(targets, value) if all(isinstance(t, ir.Name) for t in targets):
                names = {name for target in targets for name in target_names(target)}
                return is_quiet(value, bound_here) and not any(reads[n] or n in kept for n in names)
            case ir.ExprStmt(value):
                return stmt is not docstring and is_quiet(value, bound_here)
        return False

    def overwritten(stmt: ir.Stmt, rest: tuple[ir.Stmt, ...]) -> bool:
        """`x = quiet` whose value is replaced before anything reads it."""
        match stmt:
            case ir.Assign((ir.Name(name),), value) if name not in kept:
                return is_quiet(value, bound.get(id(stmt), frozenset())) and \
                    overwritten_before_read(rest, name)
        return False

    def sweep(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        kept_statements = tuple(stmt for index, stmt in enumerate(body)
                                if not dead(stmt) and not overwritten(stmt, body[index + 1:]))
        return body if len(kept_statements) == len(body) else kept_statements

    def visit(stmt: ir.Stmt) -> ir.Stmt:
        bodies = nested_bodies(stmt)
        return with_bodies(stmt, sweep(bodies[0]), sweep(bodies[1])) if bodies else stmt

    return function.with_body(sweep(map_statements(function.body, visit)))
