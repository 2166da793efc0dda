"""hoist_list_items: read an item of a private list once, before a loop that cannot change it.

`row = grid[i]` once per `i`, where the inner loop reads `grid[i][j]` on every turn: the hand
rewrite of a stencil over a list of lists. It is exact where

* `grid` is a *private list* (`analysis.private_lists`): a local that certainly holds a list
  the function made, which no other code can reach, so no code of anyone else's can change
  which items it holds, whatever the loop runs (an `__add__` of an element, a callee);
* no statement of the loop binds a name of `grid`'s group (the names that may be the same
  list), stores into its items (`grid[k] = ...`; `grid[i][j] = v` stores into an item's item
  and does not change `grid`) or calls a method that changes it;
* the index is made of names the loop never assigns and int constants, by `+` and `-`.

Read before the loop, the item would raise where the original does not if the index were out
of range and the loop ran zero times (or read it only in a branch), and the index could run
code if it were no int (`__index__`). So the loop is copied: the reads happen behind a test,
at run time, that every name in an index is an exact `int` (where the types are not known;
where they are known from the argument types the version is compiled for, those are checked
on entry) and every index within `0 <= index < len(grid)` (of indexes that differ by a
constant, the least and the greatest); where the test fails, the loop as written runs. A read
in range of a list nobody else can change gives the same object on every turn, so the copy
reads it once, and lets go of it where the loop ends (the list still holds it there, so it
and its items are freed, and their finalizers run, when the original frees them). The test
and the reads cost a few calls per run of the loop; the cost model weighs them against the
reads saved over the loop's expected turns, and a loop too big to copy (`COPY_BUDGET` nodes)
is left as it is; `explain` says so.

Runs once, after the rounds (`pipeline.RUN_LAST`): the loop's copy holds the very reads the
fast loop no longer makes, and the rounds would find them again.

Example::

    def f(n):
        grid = [[1.0] * n for _ in range(n)]
        total = 0.0
        for i in range(1, n - 1):
            for j in range(n):
                total += grid[i - 1][j] * grid[i + 1][j]
        return total
    # --- after hoist_list_items ---
    def f(n):
        grid = [[1.0] * n for _ in range(n)]
        total = 0.0
        for i in range(1, n - 1):
            if type(i) is int and 0 <= i - 1 and i + 1 < len(grid):
                grid_item = grid[i - 1]
                grid_item_2 = grid[i + 1]
                for j in range(n):
                    total += grid_item[j] * grid_item_2[j]
                grid_item = grid_item_2 = None
            else:
                for j in range(n):
                    total += grid[i - 1][j] * grid[i + 1][j]
        return total
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import ir
from ..analysis import cost
from ..analysis.private_lists import Groups, private_lists, writes
from ..analysis.value_types import TypeEnv, type_assumptions, type_of, types_before
from ..ir.names import (
    all_names,
    assigned_names,
    body_size,
    bound_on_entry,
    fresh_name,
    opaque_usage,
    stored_targets,
)
from ..ir.rewrite import (
    copy_statements,
    map_statement_expressions,
    map_statements,
    nested_bodies,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
)
from . import notes

RULE = "hoist item"
# a loop is copied (the reads behind a test, the loop as written beside them) up to this size
COPY_BUDGET = 400
# what the reads before the loop cost, ns (see analysis/cost.py)
_READ_BEFORE = cost.SUBSCRIPT + 2 * cost.WRITE  # `grid_item = grid[i]`, and `= None` after
# per read in the loop, `grid[i - 1]` becoming `grid_item`: a subscript, a read, the index's
# operations (`_saved`)
_SAVED = cost.SUBSCRIPT + cost.READ


class _Hoister:
    def __init__(self, function: ir.Function, groups: Groups) -> None:
        self.groups = groups
        # names opaque code may rebind (a comprehension's own variables, or a nested function's
        # reads, do not rebind the function's locals of those names)
        usage = opaque_usage(function)
        self.rebound = usage.stored | usage.declared
        self.bound = bound_on_entry(function)
        self.types = types_before(function)
        self.taken = all_names(function)
        self.relied: set[str] = set()  # the arguments whose types it relied on

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            bodies = nested_bodies(stmt)
            new = with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1])) if bodies else stmt
            if isinstance(stmt, (ir.For, ir.While)):
                result += self.loop(stmt, new)
            else:
                result.append(new)
        return unchanged_or_new(body, result)

    def loop(self, original: ir.For | ir.While, loop: ir.Stmt) -> list[ir.Stmt]:
        """`loop` (the `original` with its inner loops done) with the invariant items of
        private lists read once before it, behind their test; or as it is."""
        body = nested_bodies(loop)[0]
        depths = dict(_with_depths(body, 0))
        inner = tuple(walk_statements(body))
        assigned = {name for stmt in inner for name in assigned_names(stmt)}
        if isinstance(loop, ir.For):
            assigned |= assigned_names(loop)
        bound = self.bound.get(id(original), frozenset())
        savings: dict[ir.Subscript, float] = {}
        written: dict[frozenset[str], bool] = {}  # whether the loop may change a group's list
        for stmt in inner:
            weight = cost.LOOP_TURNS ** depths[id(stmt)]
            for expr in statement_expressions(stmt):
                for node in walk_expr(expr):
                    if isinstance(node, ir.Subscript) and node not in stored_targets(stmt) \
                            and self._invariant(node, inner, assigned, bound, written):
                        savings[node] = savings.get(node, 0.0) + weight * _saved(node)
        if not savings:
            return [loop]
        env = self.types.get(id(original), {})
        tests = self._tests(list(savings), env)
        turns = cost.expected_turns(original, env)
        saving = turns * sum(savings.values())
        price = cost.BRANCH + sum(_price(test) for test in tests) + _READ_BEFORE * len(savings)
        reads = ", ".join("{}" for _ in savings)
        if saving <= price:
            notes.missed(RULE, f"not hoisted {reads} out of the loop: it would save {{}} a run "
                         "of the loop, its test and reads cost {}", *savings,
                         cost.spelled(saving), cost.spelled(price), loc=original.loc)
            return [loop]
        if body_size((loop,)) > COPY_BUDGET:
            notes.missed(RULE, f"not hoisted {reads}: the loop is too big to keep a copy of",
                         *savings, loc=original.loc)
            return [loop]
        return [self._hoisted(loop, list(savings), tests)]

    def _invariant(self, read: ir.Subscript, inner: tuple[ir.Stmt, ...], assigned: set[str],
                   bound: frozenset[str], written: dict[frozenset[str], bool]) -> bool:
        """Whether `read` is an item of a private list that the loop cannot change, at an
        index made of names the loop never assigns, all bound before it."""
        if not isinstance(read.value, ir.Name) or read.value.id not in self.groups \
                or read.value.id not in bound:
            return False
        group = self.groups[read.value.id]
        names = _index_names(read.index)
        if names is None or names & (assigned | self.rebound) or not names <= bound:
            return False
        if group not in written:
            written[group] = any(writes(stmt, group) for stmt in inner)
        return not written[group]

    def _tests(self, reads: list[ir.Subscript], env: TypeEnv) -> list[ir.Compare]:
        """The tests under which every read is in range and runs no code: each name of an
        index an exact int (unless known), then the indexes in range. Indexes of one list
        that differ by a constant (`i - 1`, `i`, `i + 1`) are in range when the least and the
        greatest are: `0 <= i - 1 and i + 1 < len(grid)`."""
        names: dict[str, None] = {}
        for read in reads:
            names.update(dict.fromkeys(sorted(_index_names(read.index) or ())))
        tests: list[ir.Compare] = []
        for name in names:
            known = type_of(ir.Name(name), env)
            if known is not None and known.type is int:
                self.relied |= known.arguments
            else:
                tests.append(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)),
                                                  ir.Const(int))))
        spans: dict[tuple[ir.Expr, frozenset[tuple[str, int]]], list[tuple[int, ir.Expr]]] = {}
        for read in reads:
            terms, offset = _linear(read.index)
            spans.setdefault((read.value, frozenset(terms.items())), []).append((offset, read.index))
        for (listed, _), indexes in spans.items():
            low, high = min(indexes, key=_offset)[1], max(indexes, key=_offset)[1]
            length = ir.Call(ir.Const(len), (listed,))
            if low == high:
                tests.append(ir.Compare(("le", "lt"), (ir.Const(0), low, length)))
            else:
                tests += [ir.Compare(("le",), (ir.Const(0), low)),
                          ir.Compare(("lt",), (high, length))]
        return tests

    def _hoisted(self, loop: ir.Stmt, reads: list[ir.Subscript], tests: list[ir.Compare]) -> ir.If:
        temps: dict[ir.Expr, ir.Name] = {}
        for read in reads:
            assert isinstance(read.value, ir.Name)
            temps[read] = ir.Name(fresh_name(f"{read.value.id}_item", self.taken))
            notes.changed(RULE, "read {} once, before the loop", read, loc=loop.loc)

        def replace(node: ir.Expr) -> ir.Expr:
            return temps.get(node, node)

        body, orelse = nested_bodies(loop)
        fast = with_bodies(loop, map_statements(
            body, lambda stmt: map_statement_expressions(stmt, replace)), orelse)
        before = [ir.Assign((temps[read],), read, loop.loc) for read in reads]
        # the list still holds each item when the loop ends: letting go of it there keeps the
        # moment it is freed (and its items' finalizers run) the original's
        after = ir.Assign(tuple(temps[read] for read in reads), ir.Const(None), loop.loc)
        test: ir.Expr = tests[0] if len(tests) == 1 else ir.BoolOp("and", tuple(tests))
        return ir.If(test, (*before, fast, after), copy_statements((loop,)), loop.loc)


def _index_names(index: ir.Expr) -> set[str] | None:
    """The names of an index made of names and int constants by `+` and `-` (which give an
    int, without raising, on ints), or None for any other index."""
    match index:
        case ir.Name(name):
            return {name}
        case ir.Const(value) if type(value) is int:
            return set()
        case ir.Op("add" | "sub", (left, right)):
            left_names, right_names = _index_names(left), _index_names(right)
            return None if left_names is None or right_names is None else left_names | right_names
    return None


def _price(test: ir.Compare) -> float:
    """What a test costs: its comparisons and calls (`type(i)`, `len(grid)`), ns."""
    calls = sum(isinstance(operand, ir.Call) for operand in test.operands)
    return cost.COMPARISON * len(test.ops) + cost.C_CALL * calls


def _saved(read: ir.Subscript) -> float:
    """What reading `read` before the loop saves on each turn that reads it."""
    operations = sum(isinstance(node, ir.Op) for node in walk_expr(read.index))
    return _SAVED + operations * cost.NUMBER_OPERATION


def _linear(index: ir.Expr) -> tuple[dict[str, int], int]:
    """An index of `_index_names`'s form as its names' coefficients and a constant:
    `i - (j - 2)` is ({i: 1, j: -1}, 2)."""
    match index:
        case ir.Name(name):
            return {name: 1}, 0
        case ir.Const(value):
            assert type(value) is int
            return {}, value
        case ir.Op(op, (left, right)):
            (left_terms, left_offset), (right_terms, right_offset) = _linear(left), _linear(right)
            sign = 1 if op == "add" else -1
            terms = dict(left_terms)
            for name, factor in right_terms.items():
                terms[name] = terms.get(name, 0) + sign * factor
            return {name: factor for name, factor in terms.items() if factor}, \
                left_offset + sign * right_offset
    raise ValueError(f"not an index of names and ints: {index}")


def _offset(entry: tuple[int, ir.Expr]) -> int:
    return entry[0]


def _with_depths(body: tuple[ir.Stmt, ...], depth: int) -> Iterator[tuple[int, int]]:
    """Each statement of `body` (nested ones too, by `id`) with how many loops of `body`
    hold it."""
    for stmt in body:
        yield id(stmt), depth
        inner = depth + isinstance(stmt, (ir.For, ir.While))
        for nested in nested_bodies(stmt):
            yield from _with_depths(nested, inner)


def hoist_list_items(function: ir.Function) -> ir.Function:
    """Read the items of private lists that a loop cannot change once, before it."""
    groups = private_lists(function)
    if not groups:
        return function
    hoister = _Hoister(function, groups)
    body = hoister.block(function.body)
    return function.with_body(body).assuming(
        *type_assumptions(function, hoister.relied, "hoist_list_items"))
