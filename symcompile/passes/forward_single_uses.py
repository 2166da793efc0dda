"""forward_single_uses: put a value computed for a single use straight where it is used.

`t = a + b` followed by `return t * c`, where `t` is assigned once and read nowhere else,
becomes `return (a + b) * c`: the temporary goes, and the expression is evaluated at exactly
the moment it was before, because only quiet work (reading constants and bound locals) comes
before the use in the next statement. This turns the statements of an inlined body back into
one expression.

Example::

    def f(a, b, c, d):
        e = a + b
        f = c + d
        g = e + f
        return g
    # --- after forward_single_uses ---
    def f(a, b, c, d):
        return a + b + (c + d)
"""

from __future__ import annotations

from .. import ir
from ..analysis import (
    assignment_counts,
    bound_on_entry,
    evaluation_order,
    is_quiet,
    parameter_names,
    read_counts,
    untracked_names,
)
from ..rewrite import (
    header_expression,
    map_statements,
    nested_bodies,
    replace_first,
    walk_expr,
    with_bodies,
    with_header,
)


class _Forwarder:
    def __init__(self, function: ir.Function) -> None:
        reads, assignments = read_counts(function), assignment_counts(function)
        excluded = untracked_names(function) | set(parameter_names(function))
        self.single = {name for name, count in assignments.items()
                       if count == 1 and reads[name] == 1 and name not in excluded}
        self.bound = bound_on_entry(function)

    def _value_for(self, stmt: ir.Stmt) -> tuple[str, ir.Expr] | None:
        match stmt:
            case ir.Assign((ir.Name(name),), value) if name in self.single and not any(
                    isinstance(node, ir.OpaqueExpr) for node in walk_expr(value)):
                return name, value
        return None

    def _use(self, name: str, stmt: ir.Stmt, bound: frozenset[str]) -> ir.Expr | None:
        """The Name node in `stmt`'s header where `name` is read first, before anything but
        quiet work; None if there is no such place."""
        header = header_expression(stmt)
        if header is None:
            return None
        for node, always in evaluation_order(header):
            if node == ir.Name(name):
                return node if always else None
            if not is_quiet(node, bound):
                return None
        return None

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for original in body:
            stmt = original
            bound = self.bound.get(id(original), frozenset())
            while result and (found := self._value_for(result[-1])) is not None:
                name, value = found
                use = self._use(name, stmt, bound)
                if use is None:
                    break
                stmt = with_header(stmt, replace_first(header_expression(stmt), use, value))  # type: ignore[arg-type]
                result.pop()
            result.append(stmt)
        same = len(result) == len(body) and all(a is b for a, b in zip(result, body))
        return body if same else tuple(result)


def forward_single_uses(function: ir.Function) -> ir.Function:
    """Move single-use values into the one place that reads them."""
    forwarder = _Forwarder(function)

    def visit(stmt: ir.Stmt) -> ir.Stmt:
        bodies = nested_bodies(stmt)
        return with_bodies(stmt, forwarder.block(bodies[0]), forwarder.block(bodies[1])) if bodies else stmt

    body = forwarder.block(map_statements(function.body, visit))
    return function.with_body(body)
