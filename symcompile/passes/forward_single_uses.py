"""forward_single_uses: put a value computed for a single use straight where it is used.

`t = a + b` followed by `return t * c`, where that value of `t` is read nowhere else (`t` is
assigned once and read once, or the value is dead after that read: see `analysis.live_after`),
becomes
`return (a + b) * c`: the temporary goes, and the expression is evaluated at exactly the
moment it was before, because only quiet work (reading constants and bound locals) comes
before the use in the next statement. This turns the statements of an inlined body (and a
chain like `acc = acc * x; acc = acc + c`) back into one expression.

A forwarded value dies at its use, not when its name is next rebound or the function returns,
which moves its finalizer (`__del__`) if it has one. So an *owned* value (see
`symcompile.analysis.finalizers`: the result of a call, or of an operator on values of unknown type) is
forwarded only into the statement at whose end the name would release it: a `return`, a
statement that rebinds the name, or one followed by quiet rebindings of it (`t = None`, which
inline_calls writes where a callee's locals die). `t = Resource(); y = t.tag; print(y)` stays
as it is. (Forwarded, the value dies as soon as the operation using it is done, before the
rest of that statement: where the rest runs code, a finalizer runs before it, not after.)

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
from ..analysis.finalizers import held_before, owned
from ..analysis.value_types import types_before
from ..ir.names import (
    MAX_EXPRESSION_SIZE,
    assigned_names,
    assignment_counts,
    bound_on_entry,
    evaluation_order,
    expression_size,
    introspects,
    is_quiet,
    live_after,
    may_leave_block,
    parameter_names,
    read_counts,
    reads,
    reads_in_statement,
    target_names,
    untracked_names,
)
from ..ir.rewrite import (
    header_expression,
    map_statements,
    nested_bodies,
    replace_first,
    required_header,
    unchanged_or_new,
    walk_expr,
    with_bodies,
    with_header,
)
from . import notes


class _Forwarder:
    def __init__(self, function: ir.Function) -> None:
        reads, assignments = read_counts(function), assignment_counts(function)
        self.excluded = untracked_names(function)
        # assigned once and read once in the whole function: that read is the value's only use
        self.single = {name for name, count in assignments.items()
                       if count == 1 and reads[name] == 1 and name not in self.excluded
                       and name not in parameter_names(function)}
        self.bound = bound_on_entry(function)
        self.live = live_after(function)
        # facts at the start of each statement, also of those this pass rewrites (kept alive,
        # so no other statement gets their `id`)
        self.types = types_before(function)
        self.held = held_before(function)
        self.rewritten: list[ir.Stmt] = []

    def _value_for(self, stmt: ir.Stmt) -> tuple[str, ir.Expr] | None:
        match stmt:
            case ir.Assign((ir.Name(name),), value) if name not in self.excluded and not any(
                    isinstance(node, ir.OpaqueExpr) for node in walk_expr(value)):
                return name, value
        return None

    def _use(self, name: str, stmt: ir.Stmt, bound: frozenset[str]) -> ir.Expr | None:
        """The Name node in `stmt`'s header where `name` is read first, before anything but
        quiet work; None if there is no such place."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign) and
                              not is_quiet(stmt.target, bound)):  # `v += ...` reads v first
            return None
        for node, always in evaluation_order(header):
            if node == ir.Name(name):
                return node if always else None
            if not is_quiet(node, bound):
                return None
        return None

    def _only_use(self, name: str, stmt: ir.Stmt, original: ir.Stmt) -> bool:
        """Whether the read of `name` in `stmt` is the only one its current value gets."""
        if name in self.single:
            return True
        if reads_in_statement(stmt, name) != 1 or any(
                reads(inner, name) or may_leave_block(inner)  # liveness after `stmt` does not
                for body in nested_bodies(stmt) for inner in body):  # see a `continue` in it
            return False
        rebinds = isinstance(stmt, ir.Assign) and any(name in target_names(t) for t in stmt.targets)
        return rebinds or (id(original) in self.live and name not in self.live[id(original)])

    def _dies_in_place(self, name: str, value: ir.Expr, stored: ir.Stmt, use: ir.Expr,
                       stmt: ir.Stmt, after: tuple[ir.Stmt, ...]) -> bool:
        """Whether `value`, forwarded into `use` in `stmt`, dies in that statement, as the
        original releases it (always true of a value not owned)."""
        if not owned(value, self.types.get(id(stored), {})):
            return True
        if isinstance(stmt, ir.Return):
            return True  # the original releases it as the function returns
        targets = assigned_names(stmt)
        if (targets - {name}) & self.held.get(id(stmt), frozenset(targets)):
            return False  # the store releases another owned value, which dies first there
        if name in targets:
            return True  # the original releases it by this very store
        for following in after:  # quiet rebindings (releases), up to one of `name`
            match following:
                case ir.Assign(stores, ir.Const() | ir.Name()) if all(
                        isinstance(t, ir.Name) for t in stores):
                    if name in assigned_names(following):
                        return True
                case _:
                    return False
        return False

    def _same_facts(self, new: ir.Stmt, original: ir.Stmt) -> None:
        """`new` starts where `original` did: the same types and owned values."""
        self.rewritten.append(new)
        self.types[id(new)] = self.types.get(id(original), {})
        self.held[id(new)] = self.held.get(id(original), frozenset(assigned_names(original)))

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for index, original in enumerate(body):
            stmt = original
            bound = self.bound.get(id(original), frozenset())
            while result and (found := self._value_for(result[-1])) is not None:
                name, value = found
                use = self._use(name, stmt, bound)
                if use is None or not self._only_use(name, stmt, original) or \
                        _too_big(required_header(stmt), value):
                    break
                if not self._dies_in_place(name, value, result[-1], use, stmt, body[index + 1:]):
                    notes.missed("forward", "not forwarded {} = {}: it would die at another moment "
                                 "(a finalizer would run elsewhere)", name, value,
                                 loc=result[-1].loc)
                    break
                stmt = with_header(stmt, replace_first(required_header(stmt), use, value))
                self._same_facts(stmt, original)
                notes.changed("forward", "forward {} = {}", name, value, loc=result.pop().loc)
            result.append(stmt)
        return unchanged_or_new(body, result)


def _too_big(header: ir.Expr, value: ir.Expr) -> bool:
    """Whether putting `value` into `header` would make an expression over the size limit."""
    return expression_size(header) + expression_size(value) > MAX_EXPRESSION_SIZE


def forward_single_uses(function: ir.Function) -> ir.Function:
    """Move single-use values into the one place that reads them."""
    if introspects(function):  # `locals()` would miss the temporaries
        return function
    forwarder = _Forwarder(function)

    def visit(stmt: ir.Stmt) -> ir.Stmt:
        bodies = nested_bodies(stmt)
        return with_bodies(stmt, forwarder.block(bodies[0]), forwarder.block(bodies[1])) if bodies else stmt

    body = forwarder.block(map_statements(function.body, visit))
    return function.with_body(body)
