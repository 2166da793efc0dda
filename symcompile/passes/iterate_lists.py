"""iterate_lists: loop over a float64 array's Python floats (`.tolist()`), not its NumPy scalars.

`for x in a:` over a NumPy array makes a NumPy scalar per element, and arithmetic on NumPy
scalars is several times slower than on Python floats. For float64, `+`, `-` and `*` give the
same bits on both (one IEEE operation each, rounded to nearest), so the loop can run over
`a.tolist()`. The values differ only in what surrounds them, and each difference is handled:

* type: a value computed from an element is a `numpy.float64` in the original, a `float` in
  the copy; after the loop, each such variable still read is made a `numpy.float64` again;
* warnings: NumPy warns when an operation overflows to inf or makes a NaN (`inf - inf`),
  Python floats do not. The rewrite applies only where every value the body computes from an
  element flows, through `+ - *` alone, into an accumulator: a variable assigned once per
  turn from its own previous value (`acc = acc * 0.9 + x`). `+ - *` with an infinite or NaN
  operand give an infinite or NaN result, so if any value on the way was not finite, an
  accumulator is not finite at the end. Then the values are put back and the loop as written
  runs again from the start, warning as the original does (its body only assigns locals, so
  running it again is the same as running it once). Underflow warns only under
  `numpy.seterr(under=...)`, which the rewrite checks on entry to the loop;
* division, `**`, calls and everything else that raises or warns differently on the two
  (`x / 0.0` raises ZeroDivisionError on a float, warns on a NumPy scalar) is not rewritten.

The array is an argument whose kind the version is compiled for (exact type, float64, one
dimension: checked on entry) and which the function never assigns; the loop body assigns
locals only (plain assignments of names, no branch, call, store or exit), and the names it
reads besides those are floats. Copying the elements costs a little, so the copy runs only for
arrays of `MIN_ELEMENTS` elements or more; shorter ones run the loop as written.

Runs once, last (`pipeline.RUN_LAST`): the structure it makes is final.

Example::

    def f(samples: "float64[n]"):
        acc = 0.0
        for x in samples:
            acc = acc * 0.9 + x
        return acc
    # --- after iterate_lists ---
    def f(samples: "float64[n]"):
        acc = 0.0
        t = len(samples) >= 64 and geterr()['under'] == 'ignore'
        if t:
            t_2 = acc
            for x in samples.tolist():
                acc = acc * 0.9 + x
            t = acc - acc == 0.0
            if t:
                acc = float64(acc)
            else:
                acc = t_2
        if not t:
            for x in samples:
                acc = acc * 0.9 + x
        return acc
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import ir
from ..analysis.value_types import TypeEnv, type_assumptions, types_before
from ..ir.names import (
    all_names,
    assigned_names,
    fresh_name,
    introspects,
    live_after,
    untracked_names,
)
from ..ir.rewrite import copy_statements, nested_bodies, unchanged_or_new, walk_expr, walk_statements, with_bodies
from . import notes

#: arrays shorter than this run the loop as written (the copy and the checks would cost more)
MIN_ELEMENTS = 64
_ARITHMETIC = frozenset({"add", "sub", "mul"})
_UNARY = frozenset({"neg", "pos"})
_EXACT_INT = 2 ** 53  # an int constant below this converts to a float exactly


@dataclass(frozen=True)
class _Plan:
    """What rewriting one loop needs: the accumulators checked at the end, the locals whose
    values before the loop are put back if it runs again, those made NumPy scalars after it,
    and the arguments whose types it relies on."""

    accumulators: tuple[str, ...]
    carried: tuple[str, ...]
    converted: tuple[str, ...]
    relied: frozenset[str]


def _reads(expr: ir.Expr) -> set[str]:
    return {node.id for node in walk_expr(expr) if isinstance(node, ir.Name)}


def _arithmetic(expr: ir.Expr) -> bool:
    """Whether `expr` is names and number constants under `+ - *` (and unary `-`, `+`)."""
    match expr:
        case ir.Name():
            return True
        case ir.Const(value):
            return type(value) is float or (type(value) is int and abs(value) < _EXACT_INT)
        case ir.Op(op, (left, right)) if op in _ARITHMETIC:
            return _arithmetic(left) and _arithmetic(right)
        case ir.Op(op, (operand,)) if op in _UNARY:
            return _arithmetic(operand)
    return False


def _assignment(stmt: ir.Stmt) -> tuple[str, ir.Expr] | None:
    """The name a body statement assigns and the value, if it is a plain arithmetic one
    (`v = e`, `v += e`, `v -= e`, `v *= e`)."""
    match stmt:
        case ir.Assign((ir.Name(name),), value) if _arithmetic(value):
            return name, value
        case ir.AugAssign(ir.Name(name) as target, op, value) if op in _ARITHMETIC and _arithmetic(value):
            return name, ir.Op(op, (target, value))
    return None


class _Planner:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.untracked = untracked_names(function)
        self.assigned = {name for stmt in walk_statements(function.body)
                         for name in assigned_names(stmt)}
        self.env_before = types_before(function)
        self.live = live_after(function)

    def array(self, loop: ir.For) -> str | None:
        """The argument a loop iterates over, if it is a 1-D float64 array never assigned."""
        match loop:
            case ir.For(ir.Name(target), ir.Name(array), _, ()) if target not in self.untracked:
                kind = self.function.argument_types.get(array)
                if isinstance(kind, ir.ArrayKind) and kind.ndim == 1 \
                        and kind.dtype == np.dtype(np.float64) and array not in self.assigned \
                        and array not in self.untracked:
                    return array
        return None

    def plan(self, loop: ir.For, target: str, array: str) -> _Plan | str:
        """How to rewrite the loop, or why it cannot be."""
        env = self.env_before.get(id(loop))
        steps = [_assignment(stmt) for stmt in loop.body]
        if env is None or not steps or any(step is None for step in steps):
            return "its body does more than assign locals with + - *"
        assignments = [step for step in steps if step is not None]
        names = [name for name, _ in assignments]
        if target in names or array in names or self.untracked & set(names):
            return "its body assigns the element, the array or a name other code may touch"
        carried = self._carried(assignments)
        why = self._inputs_are_floats(assignments, set(names), carried, env, target)
        if isinstance(why, str):
            return why
        tainted = self._tainted(assignments, target)
        accumulators = [name for name in tainted if names.count(name) == 1 and name in carried
                        and name in _reads(dict(assignments)[name])]
        if not self._all_reach(assignments, target, tainted, set(accumulators)):
            return "a value computed from an element does not reach an accumulator"
        live = self.live.get(id(loop), frozenset())
        converted = tuple(name for name in [*dict.fromkeys(names), target]
                          if (name in tainted or name == target) and name in live)
        return _Plan(tuple(accumulators), tuple(sorted(carried)), converted,
                     why | {array})

    @staticmethod
    def _carried(assignments: list[tuple[str, ir.Expr]]) -> set[str]:
        """The names a turn reads before it assigns them (their values from the turn before)."""
        carried: set[str] = set()
        bound: set[str] = set()
        for name, value in assignments:
            carried |= _reads(value) - bound
            bound.add(name)
        return carried & bound

    def _inputs_are_floats(self, assignments: list[tuple[str, ir.Expr]], names: set[str],
                           carried: set[str], env: TypeEnv, target: str) -> frozenset[str] | str:
        """The arguments whose types show that every value the body reads from outside the
        turn is a float (the element aside), or why not."""
        relied: set[str] = set()
        outside = {name for _, value in assignments for name in _reads(value)} - names | carried
        for name in outside - {target}:
            known = env.get(name)
            if known is None or known.type is not float:
                return f"{name} is not known to be a float"
            relied |= known.arguments
        return frozenset(relied)

    @staticmethod
    def _tainted(assignments: list[tuple[str, ir.Expr]], target: str) -> set[str]:
        """The names that hold values computed from an element (NumPy scalars in the loop as
        written)."""
        tainted = {target}
        while True:
            new = tainted | {name for name, value in assignments if _reads(value) & tainted}
            if new == tainted:
                return tainted - {target}
            tainted = new

    @staticmethod
    def _all_reach(assignments: list[tuple[str, ir.Expr]], target: str, tainted: set[str],
                   accumulators: set[str]) -> bool:
        """Whether every value computed from an element (and the element itself) flows, within
        its turn, into an accumulator's new value."""
        if not accumulators:
            return False
        feeds = [False] * len(assignments)
        for k in reversed(range(len(assignments))):
            name, _ = assignments[k]
            feeds[k] = name in accumulators or any(
                feeds[j] and name in _reads(assignments[j][1])
                for j in range(k + 1, _next_assignment(assignments, name, k)))
        element_used = any(feeds[j] and target in _reads(value)
                           for j, (_, value) in enumerate(assignments))
        return element_used and all(feeds[k] for k, (name, _) in enumerate(assignments)
                                    if name in tainted)


def _next_assignment(assignments: list[tuple[str, ir.Expr]], name: str, k: int) -> int:
    """The index of the next assignment of `name` after `k` (inclusive of reads in it), or the
    end of the turn."""
    for j in range(k + 1, len(assignments)):
        if assignments[j][0] == name:
            return j + 1
    return len(assignments)


class _Rewriter:
    def __init__(self, function: ir.Function) -> None:
        self.planner = _Planner(function)
        self.taken = all_names(function)
        self.relied: set[str] = set()

    def loop(self, loop: ir.For) -> tuple[ir.Stmt, ...]:
        array = self.planner.array(loop)
        if array is None or not isinstance(loop.target, ir.Name):
            return (loop,)
        plan = self.planner.plan(loop, loop.target.id, array)
        if isinstance(plan, str):
            notes.missed("iterate lists", "not iterated as Python floats: {}", plan, loc=loop.loc)
            return (loop,)
        self.relied |= plan.relied
        notes.changed("iterate lists", "iterate over {}.tolist(), as Python floats",
                      ir.Name(array), loc=loop.loc)
        return self._rewritten(loop, array, plan)

    def _rewritten(self, loop: ir.For, array: str, plan: _Plan) -> tuple[ir.Stmt, ...]:
        loc = loop.loc
        ok = ir.Name(fresh_name("t", self.taken))
        saved = {name: ir.Name(fresh_name("t", self.taken)) for name in plan.carried}
        elements = ir.Name(array)
        gate = ir.BoolOp("and", (
            ir.Compare(("ge",), (ir.Call(ir.Const(len), (elements,)), ir.Const(MIN_ELEMENTS))),
            ir.Compare(("eq",), (ir.Subscript(ir.Call(ir.Const(np.geterr), ()), ir.Const("under")),
                                 ir.Const("ignore")))))
        finite = [ir.Compare(("eq",), (ir.Op("sub", (ir.Name(name), ir.Name(name))), ir.Const(0.0)))
                  for name in plan.accumulators]
        fast = ir.For(loop.target, ir.Call(ir.Attribute(elements, "tolist"), ()),
                      copy_statements(loop.body), (), loc)
        converted = tuple(ir.Assign((ir.Name(name),), ir.Call(ir.Const(np.float64), (ir.Name(name),)), loc)
                          for name in plan.converted)
        restored = tuple(ir.Assign((ir.Name(name),), temp, loc) for name, temp in saved.items())
        fast_path: tuple[ir.Stmt, ...] = (
            *(ir.Assign((temp,), ir.Name(name), loc) for name, temp in saved.items()),
            fast,
            ir.Assign((ok,), finite[0] if len(finite) == 1 else ir.BoolOp("and", tuple(finite)), loc),
            ir.If(ok, converted, restored, loc) if converted else ir.If(ir.Op("not", (ok,)), restored, (), loc),
        )
        return (ir.Assign((ok,), gate, loc), ir.If(ok, fast_path, (), loc),
                ir.If(ir.Op("not", (ok,)), (loop,), (), loc))

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            rewritten = self.loop(stmt) if isinstance(stmt, ir.For) else (stmt,)
            if rewritten != (stmt,):  # (a rewritten loop holds no other loop)
                result += rewritten
                continue
            bodies = nested_bodies(stmt)
            if bodies:
                stmt = with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1]))
            result.append(stmt)
        return unchanged_or_new(body, result)


def iterate_lists(function: ir.Function) -> ir.Function:
    """Run loops over 1-D float64 arrays over their elements as Python floats, where exact."""
    if introspects(function) or not any(isinstance(kind, ir.ArrayKind)
                                        for kind in function.argument_types.values()):
        return function
    rewriter = _Rewriter(function)
    body = rewriter.block(function.body)
    return function.with_body(body).assuming(*type_assumptions(function, rewriter.relied, "iterate_lists"))
