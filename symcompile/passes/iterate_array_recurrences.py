"""iterate_array_recurrences: run a loop that fills an array from the items before it (the
Thomas algorithm's sweeps) on Python floats, the item just stored kept in a local.

`for i in range(1, n): c[i] = u[i] / (b[i] - a[i] * c[i - 1])` over float64 arrays computes on
NumPy scalars: each `a[i]` makes one, and each operation on them costs several times what it
costs on Python floats. For float64, `+ - * /` give the same bits on both (one IEEE operation
each, rounded to nearest), so the loop can read the arrays it only reads from their
`.tolist()`, and the item it stored the turn before (`c[i - 1]`) from a local that holds it.
The values differ only in what surrounds them, and each difference is handled:

* stores: storing a float or a float64 scalar into a float64 array stores the same bits. Each
  turn stores one item of each array it stores into, at the loop's index, and reads no item of
  it but the one it stored last (the turn before, or earlier in the turn). No array the loop
  reads shares memory with one it stores into (`may_share_memory`, tested), so the lists the
  loop reads hold what the arrays would;
* exceptions and warnings: a float raises ZeroDivisionError where a NumPy scalar warns and
  gives an infinity, and NumPy warns where an operation overflows or is invalid (`inf - inf`).
  So every local the turn assigns is tested where it is assigned: a divisor must be finite and
  not 0, any other local finite (`m - m != 0.0` for an infinity or a NaN); and every array
  stored into is all finite at the end (`isfinite(c).all()`). `+ - *` and a numerator give an
  infinite or NaN result for an infinite or NaN operand, so a value that overflowed on the way
  (or a NaN) shows in a value tested. Where a test fails, the arrays stored into are put back
  as they were (copied before the loop) and the loop as written runs, warning or raising as
  the original does. Underflow warns only under `numpy.seterr(under=...)`, which is tested
  where the loop starts;
* types: the locals the loop assigns are floats in the copy, NumPy scalars in the original
  where their values come from array items: those read after the loop are made float64
  scalars again (a local read after it whose value comes from no item keeps the loop as
  written). A local carried from turn to turn (`s` in `s += y[i] * dx`, read before the turn
  assigns it) and a name the loop only reads (`dx`) are tested to be floats or float64
  scalars and read as floats (same value); the carried ones are put back if the copy's tests
  fail. Every value is a float: an int constant (below 2**53, exact as a float) only beside a
  float.

The loop is a `for` over `range` with a step of 1 or -1 whose bounds are names, ints and
lengths of arrays (`len(y)`) by `+ -`, its body assignments of locals (`=`, `+= -= *= /=`) and
stores into arrays at the index, each value made of float constants, locals, names it only
reads and items of arrays at the index plus a constant, by `+ - * /` (a divisor is a local
assigned before in the turn, a name the loop only reads, tested not 0, or a constant). What
the copy needs is tested where the loop starts: every array an `ndarray` of dtype float64 and one dimension
(the first of `MIN_ELEMENTS` items or more: the copies cost a little), those stored into
writeable, no array stored into
sharing memory with another array of the loop, `range` (and `len`) the builtins, the bounds ints, the range
not empty, every index in range (so reading a list raises nothing the array would not), and
underflow ignored. Otherwise the loop as written runs.

Runs once, last (`pipeline.RUN_LAST`), after iterate_lists, whose copies and their loops as
written it leaves alone (as it leaves its own): the structure it makes is final.

Example::

    def f(a, b, c, n):
        for i in range(1, n):
            m = b[i] - a[i] * c[i - 1]
            c[i] = a[i] / m
        return c
    # --- after iterate_array_recurrences ---
    def f(a, b, c, n):
        t = (type(b) is ndarray and len(b) >= 64 and b.dtype is float64dtype and
            b.ndim == 1 and type(a) is ndarray and a.dtype is float64dtype and
            a.ndim == 1 and type(c) is ndarray and c.dtype is float64dtype and
            c.ndim == 1 and c.flags.writeable and not may_share_memory(c, b) and
            not may_share_memory(c, a) and range is range_2 and type(n) is int and 1 < n and n - 1 < len(b)
            and n - 1 < len(a) and n - 1 < len(c) and geterr()['under'] == 'ignore')
        if t:
            c_before = c.copy()
            t_3 = b.tolist()
            t_4 = a.tolist()
            c_item = float(c[0])
            t_2 = False
            for i in range(1, n):
                m = t_3[i] - t_4[i] * c_item
                if m - m != 0.0 or m == 0.0:
                    t_2 = True
                    break
                c_item = t_4[i] / m
                c[i] = c_item
            t = not t_2 and isfinite(c).all()
            if not t:
                copyto(c, c_before)
        if not t:
            for i in range(1, n):
                m = b[i] - a[i] * c[i - 1]
                c[i] = a[i] / m
        return c
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import numpy as np

from .. import ir
from ..ir.names import (
    all_names,
    bound_on_entry,
    fresh_name,
    introspects,
    live_after,
    opaque_nodes,
    untracked_names,
)
from ..ir.rewrite import (
    copy_statements,
    nested_bodies,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
)
from . import notes

RULE = "iterate recurrence"
#: arrays shorter than this run the loop as written (the copies and the tests would cost more)
MIN_ELEMENTS = 64
_OPERATIONS = frozenset({"add", "sub", "mul", "truediv"})
_EXACT_INT = 2 ** 53  # an int constant below this converts to a float exactly
# statements of opaque code that may catch an exception of the loop
_HANDLERS = (ast.Try, ast.With, ast.AsyncWith, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
_FLOAT64 = np.dtype(np.float64)


@dataclass
class _Shape:
    """A loop the rewrite takes: its index, range and step, the arrays it only reads (with the
    offsets from the index it reads them at), the arrays it stores into (with whether a turn
    reads the item the turn before stored), its locals and which of them divide."""

    index: str
    start: ir.Expr
    stop: ir.Expr
    step: int
    inputs: dict[str, set[int]] = field(default_factory=dict)
    stored: dict[str, bool] = field(default_factory=dict)
    assigned: list[str] = field(default_factory=list)
    divisors: set[str] = field(default_factory=set)
    steps: list[tuple[ir.Expr, ir.Expr]] = field(default_factory=list)  # each target, its value
    carried: list[str] = field(default_factory=list)  # locals a turn reads before it assigns them
    invariants: list[str] = field(default_factory=list)  # names it reads and never assigns
    measured: set[str] = field(default_factory=set)  # arrays whose `len` is a bound
    builtins: set[str] = field(default_factory=set)  # `range` and `len` read by name
    converted: list[str] = field(default_factory=list)  # locals read after it
    forwarded: set[str] = field(default_factory=set)  # arrays whose stored items it reads


class _Refused(Exception):
    """The loop does not take the rewrite (the message says why)."""


def _int_expr(expr: ir.Expr, names: set[str], shape: _Shape) -> bool:
    """Whether `expr` is int constants, names (collected in `names`) and lengths of arrays
    (`len(a)`, noted in `shape`) by `+` and `-`."""
    match expr:
        case ir.Const(value):
            return type(value) is int
        case ir.Name(name):
            names.add(name)
            return True
        case ir.Call(func, (ir.Name(array),), ()) if _builtin(func, len):
            shape.measured.add(array)
            shape.builtins |= {"len"} if isinstance(func, ir.Name) else set()
            return True
        case ir.Op("add" | "sub", (left, right)):
            return _int_expr(left, names, shape) and _int_expr(right, names, shape)
    return False


def _folded(expr: ir.Expr) -> ir.Expr:
    """`-1` as the constant it is (the front end makes it a negation of 1)."""
    match expr:
        case ir.Op("neg", (ir.Const(int() as value),)) if type(value) is int:
            return ir.Const(-value)
    return expr


def _offset(index: ir.Expr, name: str) -> int | None:
    """k for an index `name + k` or `name - k` (0 for `name` itself), else None."""
    match index:
        case ir.Name(found) if found == name:
            return 0
        case ir.Op("add" | "sub" as op, (ir.Name(found), ir.Const(int() as k))) if found == name:
            return k if op == "add" else -k
    return None


def _plus(expr: ir.Expr, k: int) -> ir.Expr:
    if isinstance(expr, ir.Const) and isinstance(value := expr.value, int):
        return ir.Const(value + k)
    match expr:  # `n - 2 + 1` as `n - 1`
        case ir.Op("add" | "sub" as op, (left, ir.Const(int() as offset))):
            return _plus(left, (offset if op == "add" else -offset) + k)
    return expr if k == 0 else ir.Op("add" if k > 0 else "sub", (expr, ir.Const(abs(k))))


def _is(left: ir.Expr, right: object) -> ir.Compare:
    return ir.Compare(("is",), (left, ir.Const(right)))


def _type(expr: ir.Expr) -> ir.Expr:
    return ir.Call(ir.Const(type), (expr,))


class _Recurrences:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.untracked = untracked_names(function)
        self.live = live_after(function)
        self.taken = all_names(function)
        self.bound = bound_on_entry(function)
        self.locals: set[str] = set()  # the locals the loop at hand assigns
        # locals bound to lists somewhere (`out = [0.0] * n`): no array, not worth a test
        self.lists = {stmt.targets[0].id for stmt in walk_statements(function.body)
                      if isinstance(stmt, ir.Assign) and isinstance(stmt.targets[0], ir.Name)
                      and _makes_list(stmt.value)}

    def shape(self, loop: ir.For) -> _Shape:
        match loop:
            case ir.For(ir.Name(index), ir.Call(rng, args, ()), body, ()) \
                    if 1 <= len(args) <= 3 and _builtin(rng, range):
                pass
            case _:
                raise _Refused("it is no loop over a range")
        args = tuple(_folded(arg) for arg in args)
        step = 1
        if len(args) == 3:
            given = args[2].value if isinstance(args[2], ir.Const) else None
            if type(given) is not int or given not in (1, -1):
                raise _Refused("its step is not 1 or -1")
            step = given
        start, stop = (ir.Const(0), args[0]) if len(args) == 1 else (args[0], args[1])
        bounds: set[str] = set()
        shape = _Shape(index, start, stop, step)
        shape.builtins |= {"range"} if isinstance(rng, ir.Name) else set()
        if not _int_expr(start, bounds, shape) or not _int_expr(stop, bounds, shape):
            raise _Refused("its range is not of names, ints and lengths")
        stored = {target.value.id for stmt in body if isinstance(stmt, ir.Assign)
                  for target in stmt.targets if isinstance(target, ir.Subscript)
                  and isinstance(target.value, ir.Name)}
        if not stored:
            raise _Refused("it stores into no array")
        done: set[str] = set()
        self.locals = {target.id for stmt in body for target in _targets(stmt) if isinstance(target, ir.Name)}
        for stmt in body:
            found = _step(stmt)
            if found is None:
                raise _Refused("its body does more than assign locals and store items")
            step_target, step_value = found
            match step_target:
                case ir.Name(name) if name not in shape.assigned and name not in stored \
                        and name != index and name not in self.untracked \
                        and self._value(step_value, shape, stored, done):
                    shape.assigned.append(name)
                case ir.Subscript(ir.Name(stored_into), ir.Name(at)) if at == index \
                        and stored_into not in done and self._value(step_value, shape, stored, done):
                    shape.stored.setdefault(stored_into, False)
                    done.add(stored_into)
                case _:
                    raise _Refused("its body does more than assign locals and store items")
            shape.steps.append((step_target, step_value))
        if any(isinstance(least, ir.Const) and isinstance(least.value, int) and least.value < 0
               for least, _ in _extents(shape).values()):
            raise _Refused("it reads an item before the first")
        written = set(shape.assigned) | {index}
        arrays = set(shape.inputs) | stored | shape.measured
        if arrays & self.lists:
            raise _Refused("an array it indexes is a list")
        if written & (bounds | arrays) or set(shape.invariants) & (arrays | bounds | {index}):
            raise _Refused("it assigns a name its range or an array's")
        outside = arrays | bounds | set(shape.carried) | set(shape.invariants)
        if not outside <= self.bound.get(id(loop), frozenset()) or outside & self.untracked:
            raise _Refused("a name it reads from before it may be unbound")
        tainted = _tainted(shape)
        shape.converted = [name for name in shape.assigned if name in self.live.get(id(loop), frozenset())]
        if not set(shape.converted) <= tainted:
            raise _Refused("a local read after it may not be a NumPy scalar there")
        return shape

    def _value(self, expr: ir.Expr, shape: _Shape, stored: set[str], done: set[str]) -> bool:
        """Check one value a turn computes, noting the arrays it reads and its divisors; whether
        it is a float (else an int constant, exact as a float)."""
        match expr:
            case ir.Const(value) if type(value) is float and np.isfinite(value):
                return True
            case ir.Const(value) if type(value) is int and abs(value) < _EXACT_INT:
                return False
            case ir.Name(name) if name in shape.assigned:
                return True
            case ir.Name(name) if name in self.locals and name not in stored:
                shape.carried += [name] if name not in shape.carried else []
                return True  # (tested to be a float where the loop starts)
            case ir.Name(name) if name != shape.index and name not in stored:
                shape.invariants += [name] if name not in shape.invariants else []
                return True
            case ir.Subscript(ir.Name(array), index) if (k := _offset(index, shape.index)) is not None:
                if array in stored:
                    if array in done and k == 0 or array not in done and k == -shape.step:
                        shape.stored[array] = shape.stored.get(array, False) or k != 0
                        shape.forwarded.add(array)
                        return True
                    raise _Refused(f"it reads an item of {array} other than the one stored last")
                shape.inputs.setdefault(array, set()).add(k)
                return True
            case ir.Op(op, (left, right)) if op in _OPERATIONS:
                floats = self._value(left, shape, stored, done) + self._value(right, shape, stored, done)
                if op == "truediv":
                    match right:
                        case ir.Name(name) if name in shape.assigned or name in shape.invariants:
                            shape.divisors.add(name)
                        case ir.Const(value) if value != 0:
                            pass
                        case _:
                            raise _Refused("it divides by a value that is no local or constant")
                if floats:
                    return True
            case ir.Op("neg" | "pos", (operand,)) if self._value(operand, shape, stored, done):
                return True
        raise _Refused("it computes more than + - * / on numbers and array items")

    def gate(self, shape: _Shape) -> ir.Expr:
        """The test for running the copy, the cheapest first."""
        arrays = [*shape.inputs, *shape.stored]
        first = ir.Name(arrays[0])
        tests: list[ir.Expr] = [
            _is(_type(first), np.ndarray),
            ir.Compare(("ge",), (ir.Call(ir.Const(len), (first,)), ir.Const(MIN_ELEMENTS)))]
        for name in arrays:
            array = ir.Name(name)
            if name != arrays[0]:
                tests.append(_is(_type(array), np.ndarray))
            tests += [_is(ir.Attribute(array, "dtype"), _FLOAT64),
                      ir.Compare(("eq",), (ir.Attribute(array, "ndim"), ir.Const(1)))]
        tests += [ir.Attribute(ir.Attribute(ir.Name(name), "flags"), "writeable") for name in shape.stored]
        for written in shape.stored:  # no array shares memory with one stored into
            tests += [ir.Op("not", (ir.Call(ir.Const(np.may_share_memory), (ir.Name(written), ir.Name(other))),))
                      for other in arrays[arrays.index(written) + 1:]]
            tests += [ir.Op("not", (ir.Call(ir.Const(np.may_share_memory), (ir.Name(written), ir.Name(other))),))
                      for other in shape.inputs]
        tests += [_is(_type(ir.Name(name)), np.ndarray) for name in sorted(shape.measured - set(arrays))]
        tests += [_is(ir.Name(name), {"range": range, "len": len}[name]) for name in sorted(shape.builtins)]
        bounds: set[str] = set()
        _int_expr(shape.start, bounds, shape)
        _int_expr(shape.stop, bounds, shape)
        tests += [_is(_type(ir.Name(name)), int) for name in sorted(bounds)]
        for name in [*shape.carried, *shape.invariants]:  # a float or a float64 scalar
            kind = _type(ir.Name(name))
            tests.append(ir.BoolOp("or", (_is(kind, float), _is(kind, np.float64))))
        tests += [ir.Compare(("ne",), (ir.Name(name), ir.Const(0.0)))
                  for name in shape.invariants if name in shape.divisors]
        tests.append(ir.Compare(("lt",) if shape.step == 1 else ("gt",), (shape.start, shape.stop)))
        for name, (least, greatest) in _extents(shape).items():
            if not isinstance(least, ir.Const):
                tests.append(ir.Compare(("le",), (ir.Const(0), least)))
            tests.append(ir.Compare(("lt",), (greatest, ir.Call(ir.Const(len), (ir.Name(name),)))))
        tests.append(_UNDERFLOW_TEST)
        return ir.BoolOp("and", tuple(tests))

    def rewritten(self, loop: ir.For, shape: _Shape) -> tuple[ir.Stmt, ...]:
        loc = loop.loc
        ok, failed = (ir.Name(fresh_name("t", self.taken)) for _ in range(2))
        lists = {name: ir.Name(fresh_name("t", self.taken)) for name in shape.inputs}
        saved = {name: ir.Name(fresh_name(f"{name}_before", self.taken)) for name in shape.stored}
        items = {name: ir.Name(fresh_name(f"{name}_item", self.taken)) for name in shape.forwarded}
        floats = {name: ir.Name(fresh_name(f"{name}_float", self.taken)) for name in shape.invariants}
        kept = {name: ir.Name(fresh_name(f"{name}_before", self.taken)) for name in shape.carried}

        def read(expr: ir.Expr) -> ir.Expr:
            match expr:
                case ir.Subscript(ir.Name(array)) if array in items:
                    return items[array]
                case ir.Subscript(ir.Name(array), index) if array in lists:
                    return ir.Subscript(lists[array], index)
                case ir.Op(op, operands):
                    return ir.Op(op, tuple(read(operand) for operand in operands))
                case ir.Name(name) if name in floats:
                    return floats[name]
            return expr

        def bail() -> tuple[ir.Stmt, ...]:  # new statements at each test: no object at two places
            return ir.Assign((failed,), ir.Const(True), loc), ir.Break(loc)

        body: list[ir.Stmt] = []
        for target, value in shape.steps:
            value = read(value)
            if isinstance(target, ir.Name):
                body.append(ir.Assign((target,), value, loc))
                test: ir.Expr = ir.Compare(("ne",), (ir.Op("sub", (target, target)), ir.Const(0.0)))
                if target.id in shape.divisors:
                    test = ir.BoolOp("or", (test, ir.Compare(("eq",), (target, ir.Const(0.0)))))
                body.append(ir.If(test, bail(), (), loc))
            else:
                assert isinstance(target, ir.Subscript) and isinstance(target.value, ir.Name)
                if target.value.id in shape.forwarded:
                    item = items[target.value.id]
                    body += [ir.Assign((item,), value, loc), ir.Assign((target,), item, loc)]
                else:
                    body.append(ir.Assign((target,), value, loc))
        checks: list[ir.Expr] = [ir.Op("not", (failed,))] if shape.assigned else []
        checks += [ir.Call(ir.Attribute(ir.Call(ir.Const(np.isfinite), (ir.Name(name),)), "all"), ())
                   for name in shape.stored]
        restored: tuple[ir.Stmt, ...] = (
            *(ir.ExprStmt(ir.Call(ir.Const(np.copyto), (ir.Name(name), copy)), loc) for name, copy in saved.items()),
            *(ir.Assign((ir.Name(name),), copy, loc) for name, copy in kept.items()))
        converted: tuple[ir.Stmt, ...] = tuple(
            ir.Assign((ir.Name(name),), ir.Call(ir.Const(np.float64), (ir.Name(name),)), loc)
            for name in shape.converted)
        fast: tuple[ir.Stmt, ...] = (*(ir.Assign((copy,), ir.Call(ir.Attribute(ir.Name(name), "copy"), ()), loc)
                  for name, copy in saved.items()),
                *(ir.Assign((copy,), ir.Name(name), loc) for name, copy in kept.items()),
                *(ir.Assign((ir.Name(name),), ir.Call(ir.Const(float), (ir.Name(name),)), loc)
                  for name in shape.carried),
                *(ir.Assign((copy,), ir.Call(ir.Const(float), (ir.Name(name),)), loc)
                  for name, copy in floats.items()),
                *(ir.Assign((temp,), ir.Call(ir.Attribute(ir.Name(name), "tolist"), ()), loc)
                  for name, temp in lists.items()),
                *(ir.Assign((items[name],), ir.Call(ir.Const(float), (
                    ir.Subscript(ir.Name(name), _plus(shape.start, -shape.step)),)), loc)
                  for name, back in shape.stored.items() if back),
                *([ir.Assign((failed,), ir.Const(False), loc)] if shape.assigned else []),
                ir.For(loop.target, loop.iter, tuple(body), (), loc),
                ir.Assign((ok,), ir.BoolOp("and", tuple(checks)) if len(checks) > 1 else checks[0], loc),
                ir.If(ok, converted, restored, loc) if converted else ir.If(ir.Op("not", (ok,)), restored, (), loc))
        return (ir.Assign((ok,), self.gate(shape), loc), ir.If(ok, fast, (), loc),
                ir.If(ir.Op("not", (ok,)), copy_statements((loop,)), (), loc))

    def loop(self, loop: ir.For) -> tuple[ir.Stmt, ...]:
        try:
            shape = self.shape(loop)
        except _Refused as refused:
            if any(isinstance(target, ir.Subscript) for stmt in loop.body for target in _targets(stmt)) and isinstance(loop.iter, ir.Call) and _builtin(loop.iter.func, range):
                notes.missed(RULE, "not run on Python floats: {}", str(refused), loc=loop.loc)
            return (loop,)
        notes.changed(RULE, "run on Python floats, the items stored into {} kept in locals",
                      ", ".join(shape.stored), loc=loop.loc)
        return self.rewritten(loop, shape)

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        gates: set[str] = set()
        for stmt in body:
            rewritten = self.loop(stmt) if isinstance(stmt, ir.For) else (stmt,)
            if rewritten != (stmt,):
                result += rewritten
                continue
            if (gate := _gate_name(stmt)) is not None:
                gates.add(gate)
            bodies = nested_bodies(stmt)
            # the copy and the loop as written that iterate_lists made (after the test it
            # assigned) are left as they are: the copy runs on lists, the loop is its fallback;
            # so is the loop vectorize_loops keeps for the calls it does not take (`if not
            # vectorized:`, after `vectorized = False`): short or overlapping arrays
            if bodies and not (isinstance(stmt, ir.If) and _tested_name(stmt.test) in gates):
                stmt = with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1]))
            result.append(stmt)
        return unchanged_or_new(body, result)


_UNDERFLOW_TEST = ir.Compare(("eq",), (ir.Subscript(ir.Call(ir.Const(np.geterr), ()), ir.Const("under")),
                                       ir.Const("ignore")))


def _gate_name(stmt: ir.Stmt) -> str | None:
    """The name a loop copy's test is assigned to (`t = ... and geterr()['under'] == 'ignore'`),
    or a flag set False before array code (`vectorized = False`)."""
    match stmt:
        case ir.Assign((ir.Name(name),), ir.BoolOp("and", (*_, last))) if last == _UNDERFLOW_TEST:
            return name
        case ir.Assign((ir.Name(name),), ir.Const(bool() as flag)) if flag is False:
            return name
    return None


def _tested_name(test: ir.Expr) -> str | None:
    match test:
        case ir.Name(name) | ir.Op("not", (ir.Name(name),)):
            return name
    return None


def _makes_list(expr: ir.Expr) -> bool:
    """Whether `expr` is a list display, a list comprehension or a list display times a number."""
    match expr:
        case ir.Build("list"):
            return True
        case ir.OpaqueExpr(ast.ListComp()):
            return True
        case ir.Op("mul", (left, _)):
            return _makes_list(left)
    return False


def _step(stmt: ir.Stmt) -> tuple[ir.Expr, ir.Expr] | None:
    """A body statement as its one target and the value stored there (`s += v` as `s = s + v`)."""
    match stmt:
        case ir.AugAssign(ir.Name() as target, op, value) if op in _OPERATIONS:
            return target, ir.Op(op, (target, value))
        case ir.Assign((target,), value):
            return target, value
    return None


def _targets(stmt: ir.Stmt) -> tuple[ir.Expr, ...]:
    if isinstance(stmt, ir.AugAssign):
        return (stmt.target,)
    return stmt.targets if isinstance(stmt, ir.Assign) else ()


def _tainted(shape: _Shape) -> set[str]:
    """The locals whose values come from an array's items (NumPy scalars in the original)."""
    tainted: set[str] = set()
    while True:
        new = tainted | {target.id for target, value in shape.steps if isinstance(target, ir.Name)
                         and any(isinstance(node, ir.Subscript) or isinstance(node, ir.Name)
                                 and node.id in tainted for node in walk_expr(value))}
        if new == tainted:
            return tainted
        tainted = new


def _extents(shape: _Shape) -> dict[str, tuple[ir.Expr, ir.Expr]]:
    """The least and the greatest index the loop reads or stores in each array (the item a
    turn reads the turn before stored, the first turn reads where the loop starts)."""
    low, high = (shape.start, _plus(shape.stop, -1)) if shape.step == 1 else \
        (_plus(shape.stop, 1), shape.start)
    offsets = {**shape.inputs, **{name: {0, -shape.step} if back else {0}
                                  for name, back in shape.stored.items()}}
    return {name: (_plus(low, min(found)), _plus(high, max(found))) for name, found in offsets.items()}


def _builtin(func: ir.Expr, builtin: object) -> bool:
    """Whether `func` is the builtin (bound, or by its name: tested where the loop starts)."""
    return isinstance(func, ir.Const) and func.value is builtin or \
        isinstance(func, ir.Name) and func.id == getattr(builtin, "__name__", None)


def iterate_array_recurrences(function: ir.Function) -> ir.Function:
    """Run loops that fill private float64 arrays from their earlier items on Python floats."""
    if introspects(function) or not any(isinstance(stmt, ir.For) for stmt in walk_statements(function.body)) \
            or any(isinstance(node, _HANDLERS) for top in opaque_nodes(function) for node in ast.walk(top)):
        return function
    recurrences = _Recurrences(function)
    body = recurrences.block(function.body)
    return function if body is function.body else function.with_body(body)
