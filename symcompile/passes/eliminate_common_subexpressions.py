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

import bisect
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from .. import ir
from ..analysis.value_types import TypeEnv, Typer, type_assumptions, types_before
from ..ir.names import (
    ValueNumbers,
    all_names,
    assigned_names,
    bound_after,
    evaluation_order,
    fresh_name,
    introspects,
    is_quiet,
    local_names,
    parameter_names,
    untracked_names,
)
from ..ir.rewrite import (
    expr_children,
    header_expression,
    map_expr,
    nested_bodies,
    required_header,
    unchanged_or_new,
    walk_expr,
    with_bodies,
    with_header,
)
from . import notes

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
    reads: frozenset[str]  # the names the node's subtree reads


@dataclass(frozen=True)
class _Header:
    """A header expression's nodes in evaluation order, indexed for the pass's searches."""

    expr: ir.Expr  # kept alive: headers are looked up by identity
    positions: list[_Position]
    by_number: dict[int, list[int]]  # the operands before the first call, by value number
    by_identity: dict[int, list[int]]  # where each node object sits


def _positions(header: ir.Expr) -> list[_Position]:
    """The nodes of `header` in evaluation order (see `analysis.evaluation_order`)."""
    order = list(evaluation_order(header))
    # post-order: a node's operands end right before it, each after the one before it
    starts: list[int] = []
    reads: list[frozenset[str]] = []
    consumed: set[int] = set()
    for index, (node, _) in enumerate(order):
        start, child = index, index - 1
        names = frozenset({node.id}) if isinstance(node, ir.Name) else frozenset()
        for _ in expr_children(node):  # the direct operands, last first
            if isinstance(node, ir.Op) or (isinstance(node, ir.Compare)
                                           and not _IDENTITY_COMPARISONS & set(node.ops)):
                consumed.add(child)
            names |= reads[child]
            start = starts[child]
            child = start - 1
        starts.append(start)
        reads.append(names)
    return [_Position(node, always, start, index in consumed, names)
            for index, ((node, always), start, names) in enumerate(zip(order, starts, reads))]


def _header(header: ir.Expr, numbers: ValueNumbers) -> _Header:
    positions = _positions(header)
    by_number: dict[int, list[int]] = {}
    by_identity: dict[int, list[int]] = {}
    barrier = next((index for index, position in enumerate(positions)
                    if _is_barrier(position.node)), len(positions))
    for index, position in enumerate(positions):
        by_identity.setdefault(id(position.node), []).append(index)
        if index < barrier and position.consumed:
            by_number.setdefault(numbers.of(position.node), []).append(index)
    return _Header(header, positions, by_number, by_identity)


def _is_barrier(node: ir.Expr) -> bool:
    """Whether evaluating the node may change what an operator expression gives afterwards."""
    return isinstance(node, (ir.Call, ir.OpaqueExpr))


def _passes_through(stmt: ir.Stmt, names: frozenset[str]) -> bool:
    """Whether sharing a value that reads `names` may go on past `stmt`: an assignment to plain
    names other than those, whose value makes no call."""
    return isinstance(stmt, ir.Assign) and all(isinstance(t, ir.Name) for t in stmt.targets) \
        and not any(_is_barrier(node) for node in walk_expr(stmt.value)) \
        and not assigned_names(stmt) & names


class _Block:
    """Where in a block's statements each value number occurs as an operand (before the first
    call), and where sharing must stop: what `_occurrences` looks up instead of reading every
    statement after the one it starts at."""

    def __init__(self, statements: list[ir.Stmt], header: Callable[[ir.Expr], _Header]) -> None:
        self.header = header
        self.holders: dict[int, list[int]] = {}  # value number → statements, in order
        self.stops: list[int] = []  # the statements that are no plain assignments
        self.assigned: dict[str, list[int]] = {}  # name → the plain assignments to it
        for at, stmt in enumerate(statements):
            self.add(at, stmt)
            if _passes_through(stmt, frozenset()):
                for name in assigned_names(stmt):
                    self.assigned.setdefault(name, []).append(at)
            else:
                self.stops.append(at)

    def add(self, at: int, stmt: ir.Stmt) -> None:
        """Record the operands of statement `at` (also once it is rewritten)."""
        header = header_expression(stmt)
        for number in self.header(header).by_number if header is not None else ():
            holders = self.holders.setdefault(number, [])
            place = bisect.bisect_left(holders, at)
            if place == len(holders) or holders[place] != at:
                holders.insert(place, at)

    def stop(self, at: int, names: frozenset[str]) -> int:
        """The first statement from `at` on past which sharing a value reading `names` may not
        go on (see `_passes_through`), or the last statement."""
        found = [self._next(self.stops, at)] + [self._next(self.assigned.get(name, []), at)
                                                 for name in names]
        return min(found)

    def holding(self, number: int, start: int, stop: int) -> list[int]:
        """The statements from `start` to `stop` (included) where `number` may occur."""
        holders = self.holders.get(number, [])
        return holders[bisect.bisect_left(holders, start):bisect.bisect_right(holders, stop)]

    @staticmethod
    def _next(indices: list[int], at: int) -> int:
        place = bisect.bisect_left(indices, at)
        return indices[place] if place < len(indices) else sys.maxsize


class _Sharer:
    def __init__(self, function: ir.Function) -> None:
        self.untracked = untracked_names(function)
        self.taken = all_names(function) | local_names(function)
        self.types = types_before(function)
        self.relied: set[str] = set()  # the arguments whose types it relied on
        self.numbers = ValueNumbers()
        # each header expression met, by identity (the entry keeps it alive)
        self.headers: dict[int, _Header] = {}
        # a `Typer` for each statement's types, by the identity of those (which `types` keeps)
        self.typers: dict[int, Typer] = {}
        # `_numeric` of each node met, by the identities of the node and the Typer asked
        self.numeric: dict[tuple[int, int], tuple[ir.Expr, frozenset[str] | None]] = {}

    def _header(self, header: ir.Expr) -> _Header:
        if id(header) not in self.headers:
            self.headers[id(header)] = _header(header, self.numbers)
        return self.headers[id(header)]

    def _number_facts(self, expr: ir.Expr, env: TypeEnv) -> frozenset[str] | None:
        """The arguments on whose types it rests that `expr` is arithmetic on numbers only;
        None if it is not (or not certainly)."""
        if not isinstance(expr, (ir.Op, ir.Compare)):
            return None
        if id(env) not in self.typers:
            self.typers[id(env)] = Typer(env)
        typer = self.typers[id(env)]
        # operands first, with a stack of its own (an expression may be thousands deep)
        stack: list[tuple[ir.Expr, bool]] = [(expr, False)]
        while stack:
            node, operands_done = stack.pop()
            if (id(node), id(typer)) in self.numeric:
                continue
            if operands_done:
                self.numeric[id(node), id(typer)] = (node, self._numeric(node, typer))
            else:
                stack.append((node, True))
                stack.extend((child, False) for child in expr_children(node))
        return self.numeric[id(expr), id(typer)][1]

    def _numeric(self, node: ir.Expr, typer: Typer) -> frozenset[str] | None:
        """`_number_facts` of a node whose operands have theirs."""
        known = typer.of(node)
        if known is None or not known.is_number or \
                not isinstance(node, (ir.Op, ir.Compare, ir.Const, ir.Name)) or \
                (isinstance(node, ir.Name) and node.id in self.untracked) or \
                (isinstance(node, ir.Compare) and _NOT_NUMERIC & set(node.ops)):
            return None
        children = expr_children(node)
        parts = [facts for child in children if (facts := self.numeric[id(child), id(typer)][1]) is not None]
        return known.arguments.union(*parts) if len(parts) == len(children) else None

    def block(self, body: tuple[ir.Stmt, ...], entry: frozenset[str]) -> tuple[ir.Stmt, ...]:
        """`body` (whose start has the locals `entry` bound) with its repeats shared, nested
        blocks first."""
        statements: list[ir.Stmt] = []
        bound = entry
        for stmt in body:
            self._say_not_shared(stmt)
            statements.append(self._nested(stmt, bound))
            bound = bound_after((stmt,), bound)
        return unchanged_or_new(body, self._share(statements, entry))

    def _say_not_shared(self, stmt: ir.Stmt) -> None:
        """Note the largest repeats in `stmt`'s header that are never shared: calls, and
        operations on values not known to be numbers."""
        header, env = header_expression(stmt), self.types.get(id(stmt))
        if header is None or env is None:
            return
        first: dict[int, ir.Expr] = {}  # each repeat (by value number), as first met
        counts: Counter[int] = Counter()
        for node in walk_expr(header):
            if isinstance(node, (ir.Call, ir.Op, ir.Compare)):
                number = self.numbers.of(node)
                first.setdefault(number, node)
                counts[number] += 1
        said: set[int] = set()  # the repeats noted, and their parts
        for number, node in first.items():
            if counts[number] < 2 or number in said:
                continue
            if any(isinstance(part, ir.Call) for part in walk_expr(node)):
                why = "a call may have side effects"
            elif self._number_facts(node, env) is None:
                why = "its values are not known to be numbers"
            else:
                continue
            said.update(self.numbers.of(part) for part in walk_expr(node))
            notes.missed("share", "not shared {}: {}", node, why, loc=stmt.loc)

    def _nested(self, stmt: ir.Stmt, bound: frozenset[str]) -> ir.Stmt:
        bodies = nested_bodies(stmt)
        if not bodies:
            return stmt
        inner = bound if isinstance(stmt, ir.If) else bound | assigned_names(stmt)  # a loop's target
        return with_bodies(stmt, self.block(bodies[0], inner), self.block(bodies[1], bound))

    def _share(self, statements: list[ir.Stmt], bound: frozenset[str]) -> list[ir.Stmt]:
        """`statements` (whose first starts with the locals `bound` bound) with their repeats
        shared, in one pass: at each statement, the largest expression that repeats from there
        on is computed into a temporary, assigned right before it (a statement rewritten that
        way, or where a repeat from before was replaced, offers nothing new: it is passed)."""
        index = _Block(statements, self._header)
        before: list[list[ir.Stmt]] = [[] for _ in statements]  # the temporaries' assignments
        for at, stmt in enumerate(statements):
            env = self.types.get(id(stmt))
            candidates = self._first_occurrences(stmt, bound, env) if env is not None else []
            for first, expr, facts in candidates:
                found = self._occurrences(statements, index, at, first, expr)
                if found is not None:
                    self.relied.update(facts)
                    before[at].append(self._rewrite(statements, index, expr, found))
                    break
            bound = bound_after((*before[at], statements[at]), bound)
        return [placed for at, stmt in enumerate(statements) for placed in (*before[at], stmt)]

    def _first_occurrences(self, stmt: ir.Stmt, bound: frozenset[str],
                           env: TypeEnv) -> list[tuple[int, ir.Expr, frozenset[str]]]:
        """The shareable expressions in `stmt`'s header (with their positions) that could be
        computed just before the statement: always evaluated, after nothing but quiet work;
        largest first."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign)
                              and not is_quiet(stmt.target, bound)):  # `v += ...` reads v first
            return []
        positions = self._header(header).positions
        first_work = next((index for index, position in enumerate(positions)
                           if not is_quiet(position.node, bound)), len(positions))
        found = [(index, position.node, facts) for index, position in enumerate(positions)
                 if position.start <= first_work and position.consumed and position.always
                 and (facts := self._number_facts(position.node, env)) is not None]
        return sorted(found, key=lambda item: positions[item[0]].start - item[0])  # largest first

    def _occurrences(self, statements: list[ir.Stmt], index: _Block, at: int, first: int,
                     expr: ir.Expr) -> dict[int, list[ir.Expr]] | None:
        """For each statement from `at` on, the occurrences of `expr` (the first at position
        `first` of statement `at`) to replace by a read of the temporary: up to the first
        statement that is not a plain assignment or assigns a name `expr` reads, that one
        included; None if fewer than two."""
        names = self._header(required_header(statements[at])).positions[first].reads
        found: dict[int, list[ir.Expr]] = {}
        for later in index.holding(self.numbers.of(expr), at, index.stop(at, names)):
            hits = self._matches(statements[later], expr, first if later == at else 0)
            if hits is None:
                return None
            if hits:
                found[later] = hits
        return found if sum(map(len, found.values())) >= 2 else None

    def _matches(self, stmt: ir.Stmt, expr: ir.Expr, start: int) -> list[ir.Expr] | None:
        """The occurrences of `expr` as an operand in `stmt`'s header from position `start` on,
        before the first call; None if one of those node objects also sits elsewhere in the
        header (the IR is a DAG, and nodes are replaced by identity)."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign) and any(
                _is_barrier(node) for node in walk_expr(stmt.target))):  # evaluated before the header
            return []
        found = self._header(header)
        hits = [index for index in found.by_number.get(self.numbers.of(expr), ()) if index >= start]
        replaced = {id(found.positions[hit].node) for hit in hits}
        if any(not set(found.by_identity[node]) <= set(hits) for node in replaced):
            return None
        return [found.positions[hit].node for hit in hits]

    def _rewrite(self, statements: list[ir.Stmt], index: _Block, expr: ir.Expr,
                 found: dict[int, list[ir.Expr]]) -> ir.Assign:
        """Replace the occurrences `found` by a new temporary; return its assignment."""
        name = ir.Name(fresh_name("t", self.taken))
        for later, occurrences in found.items():
            header = required_header(statements[later])
            replaced = {id(node) for node in occurrences}
            statements[later] = with_header(statements[later], map_expr(
                header, lambda node: name if id(node) in replaced else node))
            index.add(later, statements[later])
        at = min(found)
        notes.changed("share", "share {} as {}", expr, name.id, loc=statements[at].loc)
        return ir.Assign((name,), expr, statements[at].loc)


def eliminate_common_subexpressions(function: ir.Function) -> ir.Function:
    """Compute each repeated operator expression of a straight-line block once."""
    if introspects(function):
        return function
    sharer = _Sharer(function)
    body = sharer.block(function.body, frozenset(parameter_names(function)))
    return function.with_body(body).assuming(
        *type_assumptions(function, sharer.relied, "eliminate_common_subexpressions"))
