"""iterate_lists: loop over a float64 array's Python floats (`.tolist()`), not its NumPy scalars.

`for x in a:` over a NumPy array makes a NumPy scalar per element, and so does `a[i]` in
`for i in range(len(a)):`; arithmetic on NumPy scalars is several times slower than on
Python floats. For float64, `+`, `-` and `*` give the
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
  `numpy.seterr(under=...)`, which the rewrite tests where the loop starts;
* division, `**`, calls and everything else that raises or warns differently on the two
  (`x / 0.0` raises ZeroDivisionError on a float, warns on a NumPy scalar) is not rewritten.

The array is an argument the version is compiled for as a float64 vector, which the function
never assigns; the loop body assigns locals only (plain assignments of names, no branch, call
or exit), and the names it reads besides those are floats. A variable the loop carries from
turn to turn whose type is not known (`s = a[0]` before it) is made a float. In the indexed
form the index is read only in `a[i]` and in stores `out[i] = s` of a name or constant into
an array the function made just before (`np.zeros`, `np.empty_like`...: no other code has
seen it), where a float and a float64 scalar store the same bits; running the loop again
stores every item again.

What the copy needs is tested where the loop starts, the cheapest first: the array is an
`ndarray` of `MIN_ELEMENTS` elements or more (copying costs a little, and a short array then
pays for two tests only, not a check of its kind on entry), of dtype float64 and one
dimension; `range` and `len` are the builtins; a carried variable of unknown type is a float
or a float64 scalar; an array stored into is a float64 `ndarray`; underflow is ignored.

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
        t = (type(samples) is ndarray and len(samples) >= 64 and samples.dtype is float64dtype
             and samples.ndim == 1 and geterr()['under'] == 'ignore')
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

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import ir
from ..analysis.value_types import TypeEnv, type_assumptions, types_before
from ..ir.names import (
    all_names,
    assignment_counts,
    fresh_name,
    introspects,
    live_after,
    statement_reads,
    untracked_names,
)
from ..ir.rewrite import (
    copy_statements,
    map_statement_expressions,
    map_statements,
    nested_bodies,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
)
from . import notes

#: arrays shorter than this run the loop as written (the copy and the checks would cost more)
MIN_ELEMENTS = 64
_ARITHMETIC = frozenset({"add", "sub", "mul"})
_UNARY = frozenset({"neg", "pos"})
_EXACT_INT = 2 ** 53  # an int constant below this converts to a float exactly
# NumPy functions that return a new array, which no other code has seen
_NEW_ARRAYS: frozenset[object] = frozenset({np.empty, np.zeros, np.ones, np.full, np.empty_like,
                                            np.zeros_like, np.ones_like, np.full_like})
_FLOAT64 = np.dtype(np.float64)

Assignment = tuple[str, ir.Expr]


@dataclass(frozen=True)
class _Shape:
    """A loop in a form the rewrite takes: over the elements of `array` (`for x in a:`) or
    over its indices (`for i in range(len(a)):`, reading `a[i]`, storing `out[i] = v`), its
    body's assignments with each element read as the name `element`, and the arrays it
    stores into."""

    array: str
    element: str
    index: str | None
    assignments: tuple[Assignment, ...]
    stores: frozenset[str]


@dataclass(frozen=True)
class _Plan:
    """What rewriting one loop needs: the accumulators checked at the end, the locals whose
    values before the loop are put back if it runs again, those of unknown type checked and
    made floats, those made NumPy scalars after it, and the arguments whose types it relies on."""

    shape: _Shape
    accumulators: tuple[str, ...]
    carried: tuple[str, ...]
    checked: tuple[str, ...]
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


def _assignment(stmt: ir.Stmt) -> Assignment | None:
    """The name a body statement assigns and the value, if it is a plain arithmetic one
    (`v = e`, `v += e`, `v -= e`, `v *= e`)."""
    match stmt:
        case ir.Assign((ir.Name(name),), value) if _arithmetic(value):
            return name, value
        case ir.AugAssign(ir.Name(name) as target, op, value) if op in _ARITHMETIC and _arithmetic(value):
            return name, ir.Op(op, (target, value))
    return None


def _builtin(expr: ir.Expr, builtin: object) -> bool:
    """Whether `expr` names the builtin (bound, or by its name: tested where the loop starts)."""
    return isinstance(expr, ir.Const) and expr.value is builtin or \
        isinstance(expr, ir.Name) and expr.id == getattr(builtin, "__name__", None)


def _item(array: str, index: str) -> ir.Expr:
    return ir.Subscript(ir.Name(array), ir.Name(index))


def _reading(old: ir.Expr, new: ir.Expr) -> Callable[[ir.Expr], ir.Expr]:
    """A map that puts `new` where an expression is `old`."""
    return lambda expr: new if expr == old else expr


class _Planner:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.untracked = untracked_names(function)
        self.counts = assignment_counts(function)
        self.env_before = types_before(function)
        self.live = live_after(function)
        self.taken = all_names(function)

    def _array(self, name: str) -> bool:
        kind = self.function.argument_types.get(name)
        return isinstance(kind, ir.ArrayKind) and kind.ndim == 1 and kind.dtype == _FLOAT64 \
            and self.counts[name] == 1 and name not in self.untracked  # (bound as a parameter)

    def shape(self, loop: ir.For, before: tuple[ir.Stmt, ...]) -> _Shape | str | None:
        """The loop's shape, why it cannot take one, or None for a loop over no float64
        vector argument."""
        match loop:
            case ir.For(ir.Name(element), ir.Name(array), body, ()) if self._array(array):
                return self._body(body, array, element, None, before)
            case ir.For(ir.Name(index), ir.Call(rng, (ir.Call(length, (ir.Name(array),), ()),), ()),
                        body, ()) if _builtin(rng, range) and _builtin(length, len) and self._array(array):
                return self._body(body, array, fresh_name("element", set(self.taken)), index, before)
        return None

    def _body(self, body: tuple[ir.Stmt, ...], array: str, element: str, index: str | None,
              before: tuple[ir.Stmt, ...]) -> _Shape | str:
        assignments: list[Assignment] = []
        stores: set[str] = set()
        for stmt in body:
            match stmt:
                case ir.Assign((ir.Subscript(ir.Name(target), ir.Name(at)),), ir.Name() | ir.Const(float()) as stored) \
                        if index is not None and at == index and self._fresh(target, before):
                    stores.add(target)
                    assignments.append(("", stored))  # a read that feeds nothing
                    continue
            if index is not None:
                stmt = map_statement_expressions(stmt, _reading(_item(array, index), ir.Name(element)))
            step = _assignment(stmt)
            if step is None:
                return "its body does more than assign locals with + - *"
            assignments.append(step)
        names = {name for name, _ in assignments if name}
        reads = {read for _, value in assignments for read in _reads(value)}
        if names & ({element, array, index} | stores | self.untracked) or \
                reads & ({array, index} | stores):
            return "its body uses the array, the index or an element other than as a float"
        return _Shape(array, element, index, tuple(assignments), frozenset(stores))

    def _fresh(self, name: str, before: tuple[ir.Stmt, ...]) -> bool:
        """Whether `name` holds an array made just before the loop by NumPy, which the code
        since has only stored items into."""
        if self.counts[name] != 1 or name in self.untracked:
            return False
        made = False
        for stmt in before:
            match stmt:
                case ir.Assign((ir.Name(bound),), ir.Call(function, _, _)) if bound == name:
                    made = any(self._numpy_function(function) is new for new in _NEW_ARRAYS)
                case ir.Assign((ir.Subscript(ir.Name(stored), index),), value) if stored == name \
                        and name not in _reads(index) | _reads(value):
                    pass
                case _ if any(name in statement_reads(inner) for inner in walk_statements((stmt,))):
                    return False
        return made

    def _numpy_function(self, func: ir.Expr) -> object:
        """The function of NumPy `func` names (bound at compile time, or `np.f` of a global
        the function never assigns: module attributes are taken as fixed), or None."""
        namespace = self.function.namespace
        match func:
            case ir.Const(value):
                return value
            case ir.Attribute(ir.Name(module), attr) if self.counts[module] == 0 \
                    and namespace is not None and namespace.lookup(module) == (True, np):
                return vars(np).get(attr)
        return None

    def plan(self, loop: ir.For, shape: _Shape) -> _Plan | str:
        """How to rewrite the loop, or why it cannot be."""
        env = self.env_before.get(id(loop))
        if env is None:
            return "its types are unknown"
        assignments = shape.assignments
        names = [name for name, _ in assignments if name]
        carried = self._carried(assignments)
        inputs = self._inputs(assignments, set(names), carried, env, shape.element)
        if isinstance(inputs, str):
            return inputs
        relied, checked = inputs
        tainted = self._tainted(assignments, {shape.element, *checked})
        accumulators = [name for name in tainted if names.count(name) == 1 and name in carried
                        and name in _reads(dict(assignments)[name])]
        if not self._all_reach(assignments, shape.element, tainted, set(accumulators)):
            return "a value computed from an element does not reach an accumulator"
        live = self.live.get(id(loop), frozenset())
        element = [shape.element] if shape.index is None else []
        converted = tuple(name for name in [*dict.fromkeys(names), *element]
                          if (name in tainted or name == shape.element) and name in live)
        return _Plan(shape, tuple(accumulators), tuple(sorted(carried)), tuple(sorted(checked)),
                     converted, relied)

    @staticmethod
    def _carried(assignments: tuple[Assignment, ...]) -> set[str]:
        """The names a turn reads before it assigns them (their values from the turn before)."""
        carried: set[str] = set()
        bound: set[str] = set()
        for name, value in assignments:
            carried |= _reads(value) - bound
            bound.add(name)
        return carried & bound

    @staticmethod
    def _inputs(assignments: tuple[Assignment, ...], names: set[str], carried: set[str],
                env: TypeEnv, element: str) -> tuple[frozenset[str], frozenset[str]] | str:
        """The arguments whose types show that the values the body reads from outside the turn
        are floats, and the carried names of unknown type (to check); or why not."""
        relied: set[str] = set()
        checked: set[str] = set()
        outside = {name for _, value in assignments for name in _reads(value)} - names | carried
        for name in outside - {element}:
            known = env.get(name)
            if known is None and name in carried:
                checked.add(name)
            elif known is None or known.type is not float:
                return f"{name} is not known to be a float"
            else:
                relied |= known.arguments
        return frozenset(relied), frozenset(checked)

    @staticmethod
    def _tainted(assignments: tuple[Assignment, ...], sources: set[str]) -> set[str]:
        """The names that hold values computed from an element (NumPy scalars in the loop as
        written), or from a carried name that may hold one on entry."""
        tainted = set(sources)
        while True:
            new = tainted | {name for name, value in assignments if name and _reads(value) & tainted}
            if new == tainted:
                return tainted - sources | (sources & {name for name, _ in assignments})
            tainted = new

    @staticmethod
    def _all_reach(assignments: tuple[Assignment, ...], element: str, tainted: set[str],
                   accumulators: set[str]) -> bool:
        """Whether every value computed from an element (and the element itself) flows, within
        its turn, into an accumulator's new value."""
        if not accumulators:
            return False
        feeds = [False] * len(assignments)
        for k in reversed(range(len(assignments))):
            name, _ = assignments[k]
            feeds[k] = name in accumulators or bool(name) and any(
                feeds[j] and name in _reads(assignments[j][1])
                for j in range(k + 1, _next_assignment(assignments, name, k)))
        element_used = any(feeds[j] and element in _reads(value)
                           for j, (_, value) in enumerate(assignments))
        return element_used and all(feeds[k] for k, (name, _) in enumerate(assignments)
                                    if name in tainted)


def _next_assignment(assignments: tuple[Assignment, ...], name: str, k: int) -> int:
    """The end (exclusive) of the statements after `k` that can read the value `k` assigns:
    up to and including the next assignment of `name`, or to the end of the turn."""
    for j in range(k + 1, len(assignments)):
        if assignments[j][0] == name:
            return j + 1
    return len(assignments)


class _Rewriter:
    def __init__(self, function: ir.Function) -> None:
        self.planner = _Planner(function)
        self.taken = self.planner.taken
        self.relied: set[str] = set()

    def loop(self, loop: ir.For, before: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        shape = self.planner.shape(loop, before)
        if shape is None:
            return (loop,)
        plan = self.planner.plan(loop, shape) if isinstance(shape, _Shape) else shape
        if isinstance(plan, str):
            notes.missed("iterate lists", "not iterated as Python floats: {}", plan, loc=loop.loc)
            return (loop,)
        self.relied |= plan.relied
        notes.changed("iterate lists", "iterate over {}.tolist(), as Python floats",
                      ir.Name(plan.shape.array), loc=loop.loc)
        return self._rewritten(loop, plan)

    def _gate(self, plan: _Plan) -> ir.Expr:
        """The test for running the copy: the array's kind and 64 elements or more, the
        builtins it relies on, the types of the values it checks, NumPy's underflow setting."""
        shape = plan.shape
        array = ir.Name(shape.array)
        tests: list[ir.Expr] = [  # the cheapest first: a short array pays for these two only
            ir.Compare(("is",), (ir.Call(ir.Const(type), (array,)), ir.Const(np.ndarray))),
            ir.Compare(("ge",), (ir.Call(ir.Const(len), (array,)), ir.Const(MIN_ELEMENTS))),
            ir.Compare(("is",), (ir.Attribute(array, "dtype"), ir.Const(_FLOAT64))),
            ir.Compare(("eq",), (ir.Attribute(array, "ndim"), ir.Const(1)))]
        if shape.index is not None:
            tests += [ir.Compare(("is",), (ir.Name("range"), ir.Const(range))),
                      ir.Compare(("is",), (ir.Name("len"), ir.Const(len)))]
        for name in plan.checked:
            kind = ir.Call(ir.Const(type), (ir.Name(name),))
            tests.append(ir.BoolOp("or", (ir.Compare(("is",), (kind, ir.Const(float))),
                                          ir.Compare(("is",), (kind, ir.Const(np.float64))))))
        for name in sorted(shape.stores):
            tests.append(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)), ir.Const(np.ndarray))))
            tests.append(ir.Compare(("is",), (ir.Attribute(ir.Name(name), "dtype"), ir.Const(_FLOAT64))))
        tests.append(ir.Compare(("eq",), (ir.Subscript(ir.Call(ir.Const(np.geterr), ()), ir.Const("under")),
                                          ir.Const("ignore"))))
        return ir.BoolOp("and", tuple(tests))

    def _fast_loop(self, loop: ir.For, shape: _Shape) -> tuple[ir.Stmt, ...]:
        """The loop over Python floats (after the list of them, in the indexed form)."""
        listed = ir.Call(ir.Attribute(ir.Name(shape.array), "tolist"), ())
        if shape.index is None:
            return (ir.For(loop.target, listed, copy_statements(loop.body), (), loop.loc),)
        floats = ir.Name(fresh_name("t", self.taken))
        item, index = _item(shape.array, shape.index), shape.index

        read_list = _reading(item, ir.Subscript(floats, ir.Name(index)))
        body = map_statements(copy_statements(loop.body),
                              lambda stmt: map_statement_expressions(stmt, read_list))
        return (ir.Assign((floats,), listed, loop.loc),
                ir.For(loop.target, loop.iter, body, (), loop.loc))

    def _rewritten(self, loop: ir.For, plan: _Plan) -> tuple[ir.Stmt, ...]:
        loc = loop.loc
        ok = ir.Name(fresh_name("t", self.taken))
        saved = {name: ir.Name(fresh_name("t", self.taken)) for name in plan.carried}
        finite = [ir.Compare(("eq",), (ir.Op("sub", (ir.Name(name), ir.Name(name))), ir.Const(0.0)))
                  for name in plan.accumulators]
        converted = tuple(ir.Assign((ir.Name(name),), ir.Call(ir.Const(np.float64), (ir.Name(name),)), loc)
                          for name in plan.converted)
        restored = tuple(ir.Assign((ir.Name(name),), temp, loc) for name, temp in saved.items())
        fast_path: tuple[ir.Stmt, ...] = (
            *(ir.Assign((temp,), ir.Name(name), loc) for name, temp in saved.items()),
            *(ir.Assign((ir.Name(name),), ir.Call(ir.Const(float), (ir.Name(name),)), loc)
              for name in plan.checked),
            *self._fast_loop(loop, plan.shape),
            ir.Assign((ok,), finite[0] if len(finite) == 1 else ir.BoolOp("and", tuple(finite)), loc),
            ir.If(ok, converted, restored, loc) if converted else ir.If(ir.Op("not", (ok,)), restored, (), loc),
        )
        return (ir.Assign((ok,), self._gate(plan), loc), ir.If(ok, fast_path, (), loc),
                ir.If(ir.Op("not", (ok,)), (loop,), (), loc))

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for position, stmt in enumerate(body):
            rewritten = self.loop(stmt, body[:position]) if isinstance(stmt, ir.For) else (stmt,)
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
