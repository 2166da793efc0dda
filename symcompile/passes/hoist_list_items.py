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

A second rule keeps an item in a local across a loop that only accumulates into it:
`c[i][j] += v` → `c_value += v`, read before the loop (the row holding None meanwhile, so the
item is freed where the original's first `+=` frees it) and stored back after it. It is exact
where `c` is a list of *private rows* (`analysis.private_lists.private_rows`): no code but the
loop's one statement can see the item while the loop runs, whatever `v` runs, and an exception
part way leaves None in a list nobody sees. Tested at run time: the indexes (and the `m` of
rows made by `[0.0] * m`) exact ints, both in range; a test on values the enclosing loop never
changes is made once where that loop starts.

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
from ..analysis.private_lists import Groups, private_lists, private_rows, writes
from ..analysis.value_types import TypeEnv, type_assumptions, type_of, types_before
from ..ir.names import (
    all_names,
    assigned_names,
    body_size,
    bound_on_entry,
    fresh_name,
    local_names,
    opaque_usage,
    parameter_names,
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
ACCUMULATE_RULE = "accumulate item"
# a loop is copied (the reads behind a test, the loop as written beside them) up to this size
COPY_BUDGET = 400
# what the reads before the loop cost, ns (see analysis/cost.py)
_READ_BEFORE = cost.SUBSCRIPT + 2 * cost.WRITE  # `grid_item = grid[i]`, and `= None` after
# per read in the loop, `grid[i - 1]` becoming `grid_item`: a subscript, a read, the index's
# operations (`_saved`)
_SAVED = cost.SUBSCRIPT + cost.READ
# per turn, `c[i][j] += v` becoming `c_value += v`: the row read, the item read and stored,
# and the reads of `c`, `i` and `j`
_ACCUMULATE_SAVED = 3 * cost.SUBSCRIPT + 3 * cost.READ
# around the loop: the item read, stored twice (None, then the sum), the local let go of
_ACCUMULATE_AROUND = 3 * cost.SUBSCRIPT + 2 * cost.WRITE


class _Rewriter:
    """What both rewrites of this pass know of the function."""

    def __init__(self, function: ir.Function) -> None:
        # names opaque code may rebind (a comprehension's own variables, or a nested function's
        # reads, do not rebind the function's locals of those names)
        usage = opaque_usage(function)
        self.rebound = usage.stored | usage.declared
        self.bound = bound_on_entry(function)
        self.types = types_before(function)
        self.taken = all_names(function)
        self.relied: set[str] = set()  # the arguments whose types it relied on


class _Hoister(_Rewriter):
    def __init__(self, function: ir.Function, groups: Groups) -> None:
        super().__init__(function)
        self.groups = groups

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


class _Accumulator(_Rewriter):
    """Keeps `c[i][j]` in a local across a loop that only accumulates into it (`c[i][j] += v`),
    `c` a private list of private rows (see the module's docstring)."""

    def __init__(self, function: ir.Function, rows: dict[frozenset[str], tuple[str, ...]]) -> None:
        super().__init__(function)
        self.groups = {name: group for group in rows for name in group}
        self.counts = rows
        self.locals = local_names(function) | set(parameter_names(function))
        self.namespace = function.namespace

    def block(self, body: tuple[ir.Stmt, ...], parent: ir.For | None = None
              ) -> tuple[tuple[ir.Stmt, ...], list[ir.Compare]]:
        """`body` with its loops done, and the tests its loops leave to `parent` (the loop
        holding `body`): those on values `parent` never changes, made once where it starts."""
        result: list[ir.Stmt] = []
        lifted: list[ir.Compare] = []
        for stmt in body:
            bodies = nested_bodies(stmt)
            if isinstance(stmt, ir.For):
                inner, outer = self.block(stmt.body, stmt)
                new = with_bodies(stmt, inner, self.block(stmt.orelse)[0])
                if outer:
                    test = outer[0] if len(outer) == 1 else ir.BoolOp("and", tuple(outer))
                    result.append(ir.If(test, (new,), copy_statements((stmt,)), stmt.loc))
                else:
                    assert isinstance(new, ir.For)
                    result += self.loop(stmt, new, parent, lifted)
            else:
                result.append(with_bodies(stmt, self.block(bodies[0])[0], self.block(bodies[1])[0])
                              if bodies else stmt)
        return unchanged_or_new(body, result), list(dict.fromkeys(lifted))

    def loop(self, original: ir.Stmt, loop: ir.For, parent: ir.For | None,
             lifted: list[ir.Compare]) -> tuple[ir.Stmt, ...]:
        """`loop` with the item it accumulates into kept in a local, behind its test; or as
        it is. The tests on values `parent` never changes go to `lifted`; where `parent` is a
        `for j in range(...)` and the item `c[i][j]`, `j`'s own tests become tests of the
        range's bounds there, and the loop needs no test of its own."""
        found = self._accumulation(original, loop)
        if found is None:
            return (loop,)
        stmt, item, group = found
        env = self.types.get(id(original), {})
        tests, outer = self._placed(item, group, env, parent)
        saving = cost.expected_turns(loop, env) * _ACCUMULATE_SAVED
        price = (cost.BRANCH if tests else 0.0) + sum(_price(test) for test in tests) \
            + _ACCUMULATE_AROUND
        if parent is not None and outer:
            turns = cost.expected_turns(parent, self.types.get(id(parent), {}))
            price += (cost.BRANCH + sum(_price(test) for test in outer)) / turns
        if saving <= price:
            notes.missed(ACCUMULATE_RULE, "not kept {} in a local across the loop: it would save {} "
                         "a run of the loop, its test and reads cost {}", item,
                         cost.spelled(saving), cost.spelled(price), loc=original.loc)
            return (loop,)
        if body_size((loop,)) > COPY_BUDGET:
            notes.missed(ACCUMULATE_RULE, "not kept {} in a local: the loop is too big to keep a "
                         "copy of", item, loc=original.loc)
            return (loop,)
        assert isinstance(item.value, ir.Subscript) and isinstance(item.value.value, ir.Name)
        local = ir.Name(fresh_name(f"{item.value.value.id}_value", self.taken))
        notes.changed(ACCUMULATE_RULE, "kept {} in a local across the loop", item, loc=original.loc)
        body = tuple(ir.AugAssign(local, part.op, part.value, part.loc) if part is stmt else part
                     for part in loop.body)
        fast = (ir.Assign((local,), item, loop.loc), ir.Assign((item,), ir.Const(None), loop.loc),
                ir.For(loop.target, loop.iter, body, (), loop.loc),
                ir.Assign((item,), local, loop.loc), ir.Assign((local,), ir.Const(None), loop.loc))
        lifted += outer
        if not tests:
            return fast
        test: ir.Expr = tests[0] if len(tests) == 1 else ir.BoolOp("and", tuple(tests))
        return (ir.If(test, fast, copy_statements((loop,)), loop.loc),)

    def _placed(self, item: ir.Subscript, group: frozenset[str], env: TypeEnv,
                parent: ir.For | None) -> tuple[list[ir.Compare], list[ir.Compare]]:
        """The tests made where the loop starts, and those made where `parent` starts."""
        ranged = self._ranged(item, parent, env)
        if ranged is not None:
            tests = self._tests(item, group, env, ranged[0]) + ranged[1]
            if all(self._outside(test, group, parent) for test in tests):
                return [], tests
        tests = self._tests(item, group, env, None)
        outer = [test for test in tests if self._outside(test, group, parent)]
        if len(outer) == len(tests):  # the last test (`j` in range) stays: the copy needs one
            return tests, []
        return [test for test in tests if not any(test is other for other in outer)], outer

    def _ranged(self, item: ir.Subscript, parent: ir.For | None, env: TypeEnv
                ) -> tuple[str, list[ir.Compare]] | None:
        """Where `parent` is `for j in range(hi)` (or `range(lo, hi)`, bounds names or int
        constants) that never assigns `j` otherwise and the item is `c[i][j]`: `j` and the
        tests where `parent` starts under which every `j` is an int in the row's range
        (`range` the builtin, the bounds ints, `0 <= lo`, `hi <= len(c[i])`)."""
        match parent, item:
            case (ir.For(ir.Name(index), ir.Call(func, args, ())),
                  ir.Subscript(ir.Subscript() as row, ir.Name(used))) if used == index \
                    and 1 <= len(args) <= 2 and self._is_range(func):
                pass
            case _:
                return None
        assert isinstance(parent, ir.For)
        assigned = set().union(*(assigned_names(part) for part in walk_statements(parent.body)))
        if index in assigned | self.rebound or index in (_index_names(row.index) or {index}) \
                or not all(isinstance(arg, ir.Name) or isinstance(arg, ir.Const)
                           and type(arg.value) is int for arg in args):
            return None
        tests: list[ir.Compare] = []
        if isinstance(func, ir.Name):
            tests.append(ir.Compare(("is",), (func, ir.Const(range))))
        for arg in args:
            known = type_of(arg, env) if isinstance(arg, ir.Name) else None
            if isinstance(arg, ir.Name) and (known is None or known.type is not int):
                tests.append(ir.Compare(("is",), (ir.Call(ir.Const(type), (arg,)), ir.Const(int))))
            elif known is not None:
                self.relied |= known.arguments
        low = args[0] if len(args) == 2 else ir.Const(0)
        if isinstance(low, ir.Const) and low.value < 0:  # type: ignore[operator]
            return None
        if not isinstance(low, ir.Const):
            tests.append(ir.Compare(("le",), (ir.Const(0), low)))
        tests.append(ir.Compare(("le",), (args[-1], ir.Call(ir.Const(len), (row,)))))
        return index, tests

    def _is_range(self, func: ir.Expr) -> bool:
        """`range` bound as the builtin, or the name of a global the builtin `range` now."""
        if isinstance(func, ir.Const):
            return func.value is range
        return isinstance(func, ir.Name) and func.id not in self.locals \
            and self.namespace is not None and self.namespace.lookup(func.id) == (True, range)

    def _outside(self, test: ir.Compare, group: frozenset[str], parent: ir.For | None) -> bool:
        """Whether `test` may be made once where `parent` starts: it reads only names bound
        there that `parent` never assigns (nor any name of `c`'s group)."""
        if parent is None:
            return False
        names = {node.id for node in walk_expr(test)
                 if isinstance(node, ir.Name) and node.id in self.locals}
        assigned = set(assigned_names(parent)).union(
            *(assigned_names(part) for part in walk_statements(parent.body)))
        bound = self.bound.get(id(parent), frozenset())
        return names <= bound and not (names | group) & (assigned | self.rebound)

    def _accumulation(self, original: ir.Stmt, loop: ir.For
                      ) -> tuple[ir.AugAssign, ir.Subscript, frozenset[str]] | None:
        """The loop's one statement `c[i][j] op= v` (at its top level) into a private row, with
        `i` and `j` names the loop never assigns and ints, where nothing else of the loop
        mentions `c` (or a name of its group) and nothing leaves the loop but an exception."""
        if loop.orelse:
            return None
        found = [stmt for stmt in loop.body if isinstance(stmt, ir.AugAssign)
                 and _row_item(stmt.target, self.groups) is not None]
        if len(found) != 1:
            return None
        stmt = found[0]
        assert isinstance(stmt.target, ir.Subscript)
        group = _row_item(stmt.target, self.groups)
        assert group is not None
        inner = tuple(walk_statements(loop.body))
        if any(isinstance(part, (ir.Return, ir.Break, ir.Continue, ir.Opaque)) for part in inner):
            return None
        assigned = set(assigned_names(loop)).union(*(assigned_names(part) for part in inner))
        bound = self.bound.get(id(original), frozenset())
        names = _item_names(stmt.target)
        assert isinstance(stmt.target.value, ir.Subscript) and isinstance(stmt.target.value.value, ir.Name)
        if names is None or names & (assigned | self.rebound) \
                or not names | {stmt.target.value.value.id} | set(self.counts[group]) <= bound:
            return None
        mentions = [loop.iter, loop.target, stmt.value]
        mentions += [expr for part in inner if part is not stmt for expr in statement_expressions(part)]
        if any(isinstance(node, ir.Name) and node.id in group
               for expr in mentions for node in walk_expr(expr)):
            return None
        return stmt, stmt.target, group

    def _tests(self, item: ir.Subscript, group: frozenset[str], env: TypeEnv,
               ranged: str | None) -> list[ir.Compare]:
        """Each index name, and each count its rows were made with, an exact int (unless
        known); then both indexes in range: `0 <= i < len(c) and 0 <= j < len(c[i])`."""
        row = item.value
        assert isinstance(row, ir.Subscript)
        names = sorted((_item_names(item) or set()) - {ranged}) + list(self.counts[group])
        tests: list[ir.Compare] = []
        for name in dict.fromkeys(names):
            known = type_of(ir.Name(name), env)
            if known is not None and known.type is int:
                self.relied |= known.arguments
            else:
                tests.append(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)),
                                                  ir.Const(int))))
        for listed, index in ((row.value, row.index), (row, item.index))[:1 if ranged else 2]:
            tests.append(ir.Compare(("le", "lt"), (ir.Const(0), index,
                                                   ir.Call(ir.Const(len), (listed,)))))
        return tests


def _row_item(target: ir.Expr, groups: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """The group of `c` where `target` is `c[i][j]` with `c` of private rows, else None."""
    match target:
        case ir.Subscript(ir.Subscript(ir.Name(name), _), _) if name in groups:
            return groups[name]
    return None


def _item_names(item: ir.Subscript) -> set[str] | None:
    """The names of both indexes of `c[i][j]`, each of `_index_names`'s form, or None."""
    assert isinstance(item.value, ir.Subscript)
    outer, inner = _index_names(item.value.index), _index_names(item.index)
    return None if outer is None or inner is None else outer | inner


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
    rows = private_rows(function, groups)
    if rows:
        accumulator = _Accumulator(function, rows)
        function = function.with_body(accumulator.block(function.body)[0]).assuming(
            *type_assumptions(function, accumulator.relied, "hoist_list_items"))
        groups = private_lists(function)
    hoister = _Hoister(function, groups)
    body = hoister.block(function.body)
    return function.with_body(body).assuming(
        *type_assumptions(function, hoister.relied, "hoist_list_items"))
