"""eliminate_common_subexpressions: compute a repeated operator expression once.

Within one straight-line block, an operator expression made of operators, constants and names
(`1.0 * x * x`, `a < b`) that is evaluated twice or more is computed once, into a temporary
`t` assigned right before the statement where it first occurs; its occurrences read `t`. Only
expressions whose names `value_types` knows to hold numbers (bool, int, float, complex) are
shared: on numbers operators are pure, deterministic and silent, so a second evaluation with
the same operands gives the same value. (On an array a shared operation that warns would warn
once where the original warns twice; on an object of unknown type `*` may run code of its
own.) Types that come from the arguments a version is compiled for are checked on entry, as
for simplify_algebra. Three conditions keep it exact:

* order: the first occurrence is evaluated on every run of its statement, with only quiet work
  (constants, bound locals) before it there, so computing it just before the statement moves
  no effect and no exception; later occurrences may be conditional;
* aliasing: every occurrence shared is the operand of another operator (not of `is`), so the
  shared result, one array where there were two, is consumed at once and never escapes: it is
  not returned, stored, put in a container or passed to a call;
* invalidation: from the first occurrence on, only `name = value` statements whose values make
  no call may come between, and no call is evaluated between occurrences in one statement.
  A call, any other statement (an in-place `a += 1`, `a[0] = 1`, an `if`, a loop, opaque
  code) or an assignment to a name the expression reads ends the sharing.

The largest repeat is shared first, into `t`, `t_2`... Locals that opaque code touches are
never shared, and a function that looks at its own locals (`locals()`...) is left alone. Runs
after forward_single_uses, which builds the expressions that repeat.

In the example, the annotations stand for the argument types the version is compiled for.

Example::

    def f(x: float, a: float):
        y = x - (1.0 * x * x * x - a) / (3 * (1.0 * x * x))
        return y
    # --- after eliminate_common_subexpressions ---
    def f(x: float, a: float):
        t = 1.0 * x * x
        y = x - (t * x - a) / (3 * t)
        return y
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .. import ir, notes
from ..analysis import (
    all_names,
    fresh_name,
    assigned_names,
    bound_after,
    evaluation_order,
    introspects,
    is_quiet,
    local_names,
    parameter_names,
    untracked_names,
)
from ..codegen import expression_text
from ..value_types import Known, TypeEnv, type_assumptions, type_of, types_before
from ..rewrite import (
    header_expression,
    map_expr,
    nested_bodies,
    unchanged_or_new,
    walk_expr,
    with_bodies,
    with_header,
)

# comparisons whose result depends on which object an operand is, not only on its value
_IDENTITY_COMPARISONS = frozenset({"is", "isnot"})
# comparisons that are no arithmetic on numbers
_NOT_NUMERIC = _IDENTITY_COMPARISONS | {"in", "notin"}


@dataclass(frozen=True)
class _Position:
    """One node of a header expression, in the order Python evaluates them."""

    node: ir.Expr
    always: bool  # evaluated on every evaluation of the header
    start: int  # where the node's subtree starts in the order (it ends at the node itself)
    consumed: bool  # an operand of an operator, whose value the operator uses up at once


def _positions(header: ir.Expr) -> list[_Position]:
    """The nodes of `header` in evaluation order (see `analysis.evaluation_order`)."""
    order = list(evaluation_order(header))
    starts = [index + 1 - sum(1 for _ in walk_expr(node)) for index, (node, _) in enumerate(order)]
    consumed: set[int] = set()
    for index, (node, _) in enumerate(order):
        if isinstance(node, ir.Op) or (isinstance(node, ir.Compare)
                                       and not _IDENTITY_COMPARISONS & set(node.ops)):
            child = index - 1
            while child >= starts[index]:  # the direct operands, last first
                consumed.add(child)
                child = starts[child] - 1
    return [_Position(node, always, start, index in consumed)
            for index, ((node, always), start) in enumerate(zip(order, starts))]


def _is_barrier(node: ir.Expr) -> bool:
    """Whether evaluating the node may change what an operator expression gives afterwards."""
    return isinstance(node, (ir.Call, ir.OpaqueExpr))


def _passes_through(stmt: ir.Stmt, names: set[str]) -> bool:
    """Whether sharing a value that reads `names` may go on past `stmt`: an assignment to plain
    names other than those, whose value makes no call."""
    return isinstance(stmt, ir.Assign) and all(isinstance(t, ir.Name) for t in stmt.targets) \
        and not any(_is_barrier(node) for node in walk_expr(stmt.value)) \
        and not assigned_names(stmt) & names


class _Sharer:
    def __init__(self, function: ir.Function) -> None:
        self.untracked = untracked_names(function)
        self.taken = all_names(function) | local_names(function)
        self.types = types_before(function)
        self.relied: set[str] = set()  # the arguments whose types it relied on
        # the positions of each header expression met, by identity (the entry keeps it alive)
        self.orders: dict[int, tuple[ir.Expr, list[_Position]]] = {}

    def _positions(self, header: ir.Expr) -> list[_Position]:
        if id(header) not in self.orders:
            self.orders[id(header)] = (header, _positions(header))
        return self.orders[id(header)][1]

    def _number_facts(self, expr: ir.Expr, env: TypeEnv) -> list[Known] | None:
        """The type facts showing `expr` is arithmetic on numbers only, or None."""
        if not isinstance(expr, (ir.Op, ir.Compare)):
            return None
        facts: list[Known] = []
        for node in walk_expr(expr):
            known = type_of(node, env)
            if known is None or not known.is_number or (isinstance(node, ir.Name) and node.id in self.untracked) or \
                    not isinstance(node, (ir.Op, ir.Compare, ir.Const, ir.Name)) or \
                    (isinstance(node, ir.Compare) and _NOT_NUMERIC & set(node.ops)):
                return None
            facts.append(known)
        return facts

    def block(self, body: tuple[ir.Stmt, ...], entry: frozenset[str]) -> tuple[ir.Stmt, ...]:
        """`body` (whose start has the locals `entry` bound) with its repeats shared, nested
        blocks first."""
        statements: list[ir.Stmt] = []
        bound = entry
        for stmt in body:
            self._say_not_shared(stmt)
            statements.append(self._nested(stmt, bound))
            bound = bound_after((stmt,), bound)
        result, start = tuple(statements), 0
        # the statements before a sharing offer nothing new after it: go on from there
        while (shared := self._share_once(result, start, entry)) is not None:
            result, start = shared
        return unchanged_or_new(body, result)

    def _say_not_shared(self, stmt: ir.Stmt) -> None:
        """Note the largest repeats in `stmt`'s header that are never shared: calls, and
        operations on values not known to be numbers."""
        header, env = header_expression(stmt), self.types.get(id(stmt))
        if header is None or env is None:
            return
        counts = Counter(node for node in walk_expr(header)
                         if isinstance(node, (ir.Call, ir.Op, ir.Compare)))
        said: set[ir.Expr] = set()  # the repeats noted, and their parts
        for node, count in counts.items():
            if count < 2 or node in said:
                continue
            if any(isinstance(part, ir.Call) for part in walk_expr(node)):
                why = "a call may have side effects"
            elif self._number_facts(node, env) is None:
                why = "its values are not known to be numbers"
            else:
                continue
            said.update(walk_expr(node))
            notes.missed(f"not shared {expression_text(node)}: {why}", stmt.loc)

    def _nested(self, stmt: ir.Stmt, bound: frozenset[str]) -> ir.Stmt:
        bodies = nested_bodies(stmt)
        if not bodies:
            return stmt
        inner = bound if isinstance(stmt, ir.If) else bound | assigned_names(stmt)  # a loop's target
        return with_bodies(stmt, self.block(bodies[0], inner), self.block(bodies[1], bound))

    def _share_once(self, body: tuple[ir.Stmt, ...], start: int,
                    entry: frozenset[str]) -> tuple[tuple[ir.Stmt, ...], int] | None:
        """`body` with one expression repeated from statement `start` on shared, and the index
        of the new temporary's assignment; None if there is none."""
        bound = entry
        for index, stmt in enumerate(body):
            env = self.types.get(id(stmt))
            if index >= start and env is not None:
                for first, expr, facts in self._first_occurrences(stmt, bound, env):
                    found = self._occurrences(body, index, first, expr)
                    if found is not None:
                        self.relied.update(name for fact in facts for name in fact.arguments)
                        return self._rewrite(body, index, expr, found), index
            bound = bound_after((stmt,), bound)
        return None

    def _first_occurrences(self, stmt: ir.Stmt, bound: frozenset[str],
                           env: TypeEnv) -> list[tuple[int, ir.Expr, list[Known]]]:
        """The shareable expressions in `stmt`'s header (with their positions) that could be
        computed just before the statement: always evaluated, after nothing but quiet work;
        largest first."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign)
                              and not is_quiet(stmt.target, bound)):  # `v += ...` reads v first
            return []
        positions = self._positions(header)
        first_work = next((index for index, position in enumerate(positions)
                           if not is_quiet(position.node, bound)), len(positions))
        found = [(index, position.node, facts) for index, position in enumerate(positions)
                 if position.start <= first_work and position.consumed and position.always
                 and (facts := self._number_facts(position.node, env)) is not None]
        return sorted(found, key=lambda item: positions[item[0]].start - item[0])  # largest first

    def _occurrences(self, body: tuple[ir.Stmt, ...], index: int, first: int,
                     expr: ir.Expr) -> dict[int, list[ir.Expr]] | None:
        """For each statement from `index` on, the occurrences of `expr` (the first at position
        `first` of statement `index`) to replace by a read of the temporary; None if fewer
        than two."""
        names = {node.id for node in walk_expr(expr) if isinstance(node, ir.Name)}
        found: dict[int, list[ir.Expr]] = {}
        for later in range(index, len(body)):
            hits = self._matches(body[later], expr, first if later == index else 0)
            if hits is None:
                return None
            if hits:
                found[later] = hits
            if not _passes_through(body[later], names):
                break
        return found if sum(map(len, found.values())) >= 2 else None

    def _matches(self, stmt: ir.Stmt, expr: ir.Expr, start: int) -> list[ir.Expr] | None:
        """The occurrences of `expr` as an operand in `stmt`'s header from position `start` on,
        before the first call; None if one of those node objects also sits elsewhere in the
        header (the IR is a DAG, and nodes are replaced by identity)."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign) and any(
                _is_barrier(node) for node in walk_expr(stmt.target))):  # evaluated before the header
            return []
        positions = self._positions(header)
        hits: list[int] = []
        for index in range(start, len(positions)):
            if _is_barrier(positions[index].node):
                break
            if positions[index].consumed and positions[index].node == expr:
                hits.append(index)
        replaced = {id(positions[hit].node) for hit in hits}
        if any(id(position.node) in replaced and index not in hits
               for index, position in enumerate(positions)):
            return None
        return [positions[hit].node for hit in hits]

    def _rewrite(self, body: tuple[ir.Stmt, ...], index: int, expr: ir.Expr,
                 found: dict[int, list[ir.Expr]]) -> tuple[ir.Stmt, ...]:
        name = ir.Name(fresh_name("t", self.taken))
        statements = list(body)
        for later, occurrences in found.items():
            header = header_expression(body[later])
            replaced = {id(node) for node in occurrences}
            statements[later] = with_header(body[later], map_expr(  # type: ignore[arg-type]
                header, lambda node: name if id(node) in replaced else node))
        statements.insert(index, ir.Assign((name,), expr, body[index].loc))
        notes.changed(f"share {expression_text(expr)} as {name.id}", body[index].loc)
        return tuple(statements)


def eliminate_common_subexpressions(function: ir.Function) -> ir.Function:
    """Compute each repeated operator expression of a straight-line block once."""
    if introspects(function):
        return function
    sharer = _Sharer(function)
    body = sharer.block(function.body, frozenset(parameter_names(function)))
    return function.with_body(body).assuming(
        *type_assumptions(function, sharer.relied, "eliminate_common_subexpressions"))
