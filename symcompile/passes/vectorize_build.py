"""The array code for a loop nest vectorize_loops accepted (see that module for the rules): the
entry check (builtins, int bounds, every element inside its array, written arrays apart from
the others), the values computed as slices with floating-point errors recorded, the writes
committed only if none occurred, and the loop as written otherwise. A support module of
`passes/`, no pass.

Loops that stay loops (a reduction in order) are Python loops over array slices: `for k in
range(p): c_new = c_new + a[0:n, k][:, None] * b[k, 0:m][None, :]`, the accumulated array
named once before the loop (`c_new = c[0:n, 0:m]`, never changed in place) and stored after.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Iterator

import numpy as np

from .. import ir
from ..analysis.subscripts import Access, Affine, AtomKey, loop_term, to_expr
from ..ir.names import fresh_name
from ..ir.rewrite import statement_expressions, walk_expr
from .vectorize_math import floating_point_errors_checked
from .vectorize_nest import Count, EndReduce, Level, Nest, Path, Reduce, Refused, Temp, Write

WrittenKey = tuple[str, tuple[Affine, ...]]
# below these counts the loop runs (measured: the array code's fixed cost, about 4 µs, is ~30
# turns of `out[i] = a * x[i] + y[i]`; a turn of a kept loop, ~1.5 µs, is ~8 elements)
MIN_ITERATIONS = 32
MIN_ELEMENTS_PER_TURN = 8
# the array operations a last step may compute into a dead temporary (`out=`): the same ufunc
# `a * b` calls on ndarrays, element by element the same bits and the same errors
_INTO = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide}
# the kind an error-state callback is given → the error state's key for it
_ERROR_MODES = {"divide by zero": "divide", "overflow": "over", "underflow": "under",
                "invalid value": "invalid"}


def floating_point_errors_recorded() -> Iterator[list[str]]:
    """Run the body of a `for` over this once, with the floating-point errors NumPy would
    report now (those the error state does not ignore: by default overflow, division by zero
    and invalid, not underflow) recorded in the list it yields (`['overflow']`) instead of
    reported. Every kind is recorded while the body runs, and those the restored state ignores
    are dropped after it (reading the state, `np.geterr()`, costs ~1 µs: only when something
    was recorded; a kind it does not know is kept: the loop runs). The error state is restored
    when the body ends, and when it raises (the generator is closed as the loop is left)."""
    seen: list[str] = []
    with np.errstate(call=lambda kind, _flag: seen.append(kind), all="call"):
        yield seen
    if seen:
        modes: dict[str, object] = dict(np.geterr())
        seen[:] = [kind for kind in seen if modes.get(_ERROR_MODES.get(kind, ""), "raise") != "ignore"]


class Builder:
    """The guarded array code for a nest the vectorizer accepted."""

    def __init__(self, nest: Nest, taken: set[str]) -> None:
        self.nest = nest
        self.taken = taken
        self.vector = nest.vector_levels()
        self.positions = {level.var: position for position, level in enumerate(self.vector)}
        self.temps: dict[str, str] = {}
        # the name holding each element written so far, and whether it holds a plain number
        self.written: dict[WrittenKey, tuple[str, bool]] = {}
        self.views: dict[str, str] = {}  # the scalar locals holding a view: of which array
        # the scalar locals holding a new array of every element (1-D): its dtype
        self.fresh: dict[str, np.dtype[np.generic]] = {}
        self.dtypes: dict[int, np.dtype[np.generic]] = {}  # of the array each compute step makes

    def build(self) -> tuple[ir.Stmt, ...]:
        loc = self.nest.loop.loc
        flag = fresh_name("vectorized", self.taken)
        compute, commit = self._statements()
        if self.nest.may_raise_fp:
            errors = fresh_name("fp_errors", self.taken)
            staging = floating_point_errors_checked if self.nest.array_calls else floating_point_errors_recorded
            watch = ir.For(ir.Name(errors), ir.Call(ir.Const(staging), ()),
                           tuple(compute), (), loc)
            done = (*commit, ir.Assign((ir.Name(flag),), ir.Const(True), loc))
            vector: tuple[ir.Stmt, ...] = (watch, ir.If(ir.Op("not", (ir.Name(errors),)), done, (), loc))
        else:
            vector = (*compute, *commit, ir.Assign((ir.Name(flag),), ir.Const(True), loc))
        return (ir.Assign((ir.Name(flag),), ir.Const(False), loc),
                ir.If(self._guard(), vector, (), loc),
                ir.If(ir.Op("not", (ir.Name(flag),)), (self.nest.loop,), (), loc))

    # the steps -----------------------------------------------------------

    def _statements(self) -> tuple[list[ir.Stmt], list[ir.Stmt]]:
        """The statements computing the new values, and those storing them."""
        if self.nest.kept:
            return self._accumulated()
        loops: list[tuple[Level | None, list[ir.Stmt]]] = [(None, [])]
        commit: list[ir.Stmt] = []
        masks: dict[object, str] = {}  # by the test's identity (a path's: `_where`): its mask's name
        committed: set[str] = set()  # the arrays written by the commits so far
        pairs = self._complements()  # by the `else:` write's position: its `if:` write's
        held: dict[int, str] = {}  # the value of each `if:` write of a pair, by its position
        for position, step in enumerate(self.nest.steps):
            compute = loops[-1][1]
            if isinstance(step, Reduce):
                loops.append((step.level, []))
            elif isinstance(step, EndReduce):
                level, body = loops.pop()
                assert level is not None
                loops[-1][1].append(ir.For(ir.Name(level.var), level.iter, tuple(body), (),
                                           self.nest.loop.loc))
            elif isinstance(step, Temp):
                compute.append(self._temp(step))
            elif isinstance(step, Count):
                commit.append(self._count(step, self._where(step.mask, masks, compute, step.loc)))
            else:
                value = self._cast(step, self._value(step, masks, compute))
                mask = step.mask
                if position in pairs:  # both values read now, before any commit: no copies
                    test = self._where(((mask[-1][0], False),), masks, compute, step.loc)
                    value = ir.Call(ir.Const(np.where), (test, ir.Name(held.pop(pairs[position])), value))
                    mask = mask[:-1]
                elif self._viewed(value) in committed:  # a slice read after a commit changed it
                    value = ir.Call(ir.Const(np.copy), (value,))
                temp = fresh_name(f"{step.access.array}_new", self.taken)
                compute.append(ir.Assign((ir.Name(temp),), value, step.loc))
                if step.kind.array is not None:
                    self.dtypes[id(compute[-1])] = step.kind.array.dtype
                if position in pairs.values():  # committed with the `else:` write
                    held[position] = temp
                    continue
                committed.add(step.access.array)
                view = self._view(step.access, target=True)
                if not mask:
                    if not step.mask:
                        self.written[(step.access.array, step.access.index)] = (temp, step.kind.array is None)
                    commit.append(ir.Assign((view,), ir.Name(temp), step.loc))
                    continue
                where = self._where(mask, masks, compute, step.loc)
                commit.append(ir.ExprStmt(ir.Call(ir.Const(np.copyto), (view, ir.Name(temp)),
                                                  (ir.Keyword("where", where),)), step.loc))
        return self._into_dead_temporaries(loops[0][1], commit), commit

    def _complements(self) -> dict[int, int]:
        """The `if:`/`else:` writes stored as one `np.where(mask, first, second)` (the hand's
        `out[...] = np.where(x < low, low, x)`, one pass instead of two masked copies), by
        the position of the `else:` write: the `if:` one's. Both store the same element, on
        paths differing only in the last test's negation, with nothing but scalar locals
        between them; both values are computed for every element anyway (their errors only
        recorded), and each is of the array's dtype or becomes it as `where` promotes it.
        Not on lists (their conversion is weighed by the cost model, which sees `where` as
        an unknown call: a small loop would no longer pay)."""
        pairs: dict[int, int] = {}
        steps = self.nest.steps if not self.nest.lists else []
        for position, step in enumerate(steps):
            if not isinstance(step, Write) or not step.mask or step.mask[-1][1]:
                continue
            later = next((at for at in range(position + 1, len(steps)) if not isinstance(steps[at], Temp)), None)
            other = steps[later] if later is not None else None
            if later is None or not isinstance(other, Write) or other.access != step.access \
                    or len(other.mask) != len(step.mask) or not other.mask[-1][1]:
                continue
            if all(a[0] is b[0] for a, b in zip(step.mask, other.mask)) and other.mask[:-1] == step.mask[:-1] \
                    and self._selects_exactly(step) and self._selects_exactly(other):
                pairs[later] = position
        return pairs

    def _selects_exactly(self, step: Write) -> bool:
        """Whether `np.where` keeps the value `step` stores as the array's dtype holds it: an
        array (or NumPy scalar) of that dtype, a plain number cast to it (`_cast`), or a
        Python float meeting float64 (weak: NEP 50)."""
        dtype = self.nest.arrays[step.access.array].dtype
        if step.kind.array is not None:
            return step.kind.array.dtype == dtype
        return dtype != np.float64 or step.kind.type is float

    def _accumulated(self) -> tuple[list[ir.Stmt], list[ir.Stmt]]:
        """A reduction in order over the kept loops: each written element's array named before
        them, replaced (never changed in place) by each write inside, stored after."""
        loc = self.nest.loop.loc
        before: list[ir.Stmt] = []
        commit: list[ir.Stmt] = []
        for write in self.nest.writes():
            key = (write.access.array, write.access.index)
            if key not in self.written:
                name = fresh_name(f"{write.access.array}_new", self.taken)
                self.written[key] = (name, False)
                view = self._view(write.access, target=True)
                before.append(ir.Assign((ir.Name(name),), view, loc))
                commit.append(ir.Assign((view,), ir.Name(name), loc))
        body: list[ir.Stmt] = []
        masks: dict[object, str] = {}
        for step in self.nest.steps:
            if isinstance(step, Temp):
                body.append(self._temp(step))
            elif isinstance(step, Write):
                name = self.written[(step.access.array, step.access.index)][0]
                value = self._value(step, masks, body)
                if step.mask:
                    where = self._where(step.mask, masks, body, step.loc)
                    chosen: tuple[ir.Expr, ir.Expr] = (value, ir.Name(name))
                    if isinstance(where, ir.Op) and where.op == "invert":  # `else:` keeps the old where the test holds
                        where, chosen = where.args[0], chosen[::-1]
                    value = ir.Call(ir.Const(np.where), (where, *chosen))
                body.append(ir.Assign((ir.Name(name),), value, step.loc))
        statements: tuple[ir.Stmt, ...] = tuple(body)
        for level in reversed(self.nest.kept):
            statements = (ir.For(ir.Name(level.var), level.iter, statements, (), loc),)
        return [*before, *statements], commit

    def _temp(self, step: Temp) -> ir.Stmt:
        if step.name not in self.temps:
            self.temps[step.name] = fresh_name(step.name, self.taken)
        name = self.temps[step.name]
        value = self._vector(step.value)
        viewed = self._viewed(value)
        self.views.pop(name, None)
        self.fresh.pop(name, None)
        if viewed is not None:
            self.views[name] = viewed
        assign = ir.Assign((ir.Name(name),), value, self.nest.loop.loc)
        if step.kind.array is not None:
            self.dtypes[id(assign)] = step.kind.array.dtype
            if self._new_full_array(value):
                self.fresh[name] = step.kind.array.dtype
        return assign

    def _new_full_array(self, value: ir.Expr) -> bool:
        """Whether `value` makes a new array of every element of a 1-D nest: an arithmetic
        operation on a slice moving with the loop (or on such a local)."""
        return len(self.vector) == 1 and isinstance(value, ir.Op) and value.op in _INTO and any(
            isinstance(part, ir.Subscript) and isinstance(part.index, ir.Slice)
            or isinstance(part, ir.Name) and part.id in self.fresh for part in walk_expr(value))

    def _into_dead_temporaries(self, compute: list[ir.Stmt], commit: list[ir.Stmt]) -> list[ir.Stmt]:
        """Each step `x = a op b` whose operand `a` is a local holding a new array of the
        result's dtype and shape, read by nothing after it, computes into it (`x = multiply(a,
        b, out=a)`): one array fewer alive at once (the hand's `s = x * x; ...; out[:] = s *
        y` frees its temporaries as it goes), the same ufunc on the same elements."""
        steps = list(compute)
        if any(isinstance(step, Reduce) for step in self.nest.steps):
            return steps  # (an accumulator may still be the number it started from)
        for position, stmt in enumerate(steps):
            if not isinstance(stmt, ir.Assign) or not isinstance(stmt.value, ir.Op) \
                    or stmt.value.op not in _INTO or len(stmt.value.args) != 2:
                continue
            later = [expr for after in (*steps[position + 1:], *commit) for expr in statement_expressions(after)]
            for arg in stmt.value.args:
                if isinstance(arg, ir.Name) and arg.id in self.fresh and self.fresh[arg.id] == self.dtypes.get(id(stmt)) \
                        and not _reads(later, arg.id) and _only_operated_on(steps[:position], arg.id):
                    ufunc = ir.Const(_INTO[stmt.value.op])
                    steps[position] = ir.Assign(stmt.targets, ir.Call(ufunc, stmt.value.args, (ir.Keyword("out", arg),)),
                                                stmt.loc)
                    break
        return steps

    def _viewed(self, expr: ir.Expr) -> str | None:
        """The array `expr` is a view of (a slice, transposed or with new axes, or a local
        holding one): its values are read when it is stored, after the commits before."""
        match expr:
            case ir.Subscript(ir.Name(name), _) if name in self.nest.arrays:
                return name
            case ir.Subscript(inner, _) | ir.Call(ir.Const(np.transpose), (inner, _)):
                return self._viewed(inner)
            case ir.Name(name):
                return self.views.get(name)
        return None

    def _value(self, step: Write, masks: dict[object, str], compute: list[ir.Stmt]) -> ir.Expr:
        """The vector of values `step` stores, after computing its mask if it is the first
        step under that test."""
        self._where(step.mask, masks, compute, step.loc)
        return self._vector(step.value)

    def _where(self, path: Path, masks: dict[object, str], compute: list[ir.Stmt], loc: ir.Loc) -> ir.Expr:
        """The mask of the elements `path` runs for: `mask`, `~mask`, or for an `elif` (more
        tests) their conjunction, named once (`mask_3 = ~mask & mask_2`); each test computed
        where the first statement under it stands (before any write is committed)."""
        terms: list[ir.Expr] = []
        for test, negated in path:
            if id(test) not in masks:
                masks[id(test)] = fresh_name("mask", self.taken)
                vector = self._vector(test)
                if self._viewed(vector) in {write.access.array for write in self.nest.writes()}:
                    vector = ir.Call(ir.Const(np.copy), (vector,))  # a bool array written too
                compute.append(ir.Assign((ir.Name(masks[id(test)]),), vector, loc))
            term: ir.Expr = ir.Name(masks[id(test)])
            terms.append(ir.Op("invert", (term,)) if negated else term)
        if len(terms) <= 1:
            return terms[0] if terms else ir.Const(True)
        key = tuple((id(test), negated) for test, negated in path)
        if key not in masks:
            masks[key] = fresh_name("mask", self.taken)
            combined = terms[0]
            for term in terms[1:]:
                combined = ir.Op("bitand", (combined, term))
            compute.append(ir.Assign((ir.Name(masks[key]),), combined, loc))
        return ir.Name(masks[key])

    def _count(self, step: Count, where: ir.Expr) -> ir.Stmt:
        """`count = count + 2 * int(count_nonzero(mask))`: Python ints, exact."""
        counted: ir.Expr = ir.Call(ir.Const(int), (ir.Call(ir.Const(np.count_nonzero), (where,)),))
        if step.amount != 1:
            counted = ir.Op("mul", (ir.Const(step.amount), counted))
        return ir.Assign((ir.Name(step.name),), ir.Op("add", (ir.Name(step.name), counted)), step.loc)

    def _cast(self, step: Write, value: ir.Expr) -> ir.Expr:
        """A plain number stored into a float32 array cast where its overflow is recorded
        (`float32(1e308)`; the loop's stores warn once per element, a slice's once)."""
        dtype = self.nest.arrays[step.access.array].dtype
        if step.kind.array is not None or dtype == np.float64:
            return value
        return ir.Call(ir.Const(dtype.type), (value,))

    def _vector(self, expr: ir.Expr) -> ir.Expr:
        match expr:
            case ir.Name(name) if name in self.temps:
                return ir.Name(self.temps[name])
            case ir.Subscript():
                access = self.nest.accesses[id(expr)]
                found = self.written.get((access.array, access.index))
                if found is None:
                    return self._view(access)
                name, plain = found
                if plain:  # a plain number stored: read back as the array's element type
                    return ir.Call(ir.Const(self.nest.arrays[access.array].dtype.type), (ir.Name(name),))
                return ir.Name(name)
            case ir.Op(op, args):
                return ir.Op(op, tuple(self._vector(arg) for arg in args))
            case ir.Compare(ops, operands):
                vectors = tuple(self._vector(x) for x in operands)
                compared: list[ir.Expr] = [ir.Compare((op,), pair) for op, pair in zip(ops, pairwise(vectors))]
                while len(compared) > 1:  # `(a < b) & (b <= c)`
                    compared[:2] = [ir.Op("bitand", (compared[0], compared[1]))]
                return compared[0]
            case ir.Call(func, args, ()):
                array_func = self.nest.array_calls.get(id(expr))
                return ir.Call(func if array_func is None else ir.Const(array_func),
                               tuple(self._vector(arg) for arg in args))
        return expr

    def _view(self, access: Access, target: bool = False) -> ir.Expr:
        """The slices of `access` over the vector loops, with axes in loop order (transposed
        and with new axes for the loops it does not move with) for reads; the variables of
        the loops that stay loops index as they are."""
        parts: list[ir.Expr] = []
        moving: list[int] = []
        for form in access.index:
            term = loop_term(form, self.positions)
            if term is None:
                parts.append(to_expr(form))
                continue
            var, coefficient = term
            moving.append(self.positions[var])
            parts.append(self._slice(form, var, coefficient))
        view: ir.Expr = ir.Subscript(ir.Name(access.array),
                                     parts[0] if len(parts) == 1 else ir.Build("tuple", tuple(parts)))
        if target or not moving:
            return view
        if moving != sorted(moving):
            order = sorted(range(len(moving)), key=moving.__getitem__)
            view = ir.Call(ir.Const(np.transpose), (view, ir.Const(tuple(order))))
            moving = sorted(moving)
        layout: list[ir.Expr] = [ir.Slice(None, None, None) if position in moving else ir.Const(None)
                                 for position in range(moving[0], len(self.positions))]
        if len(layout) == len(moving):
            return view
        return ir.Subscript(view, ir.Build("tuple", tuple(layout)))

    def _slice(self, form: Affine, var: str, coefficient: int) -> ir.Expr:
        level = self.vector[self.positions[var]]
        key: AtomKey = ("name", var)
        offset = form.without(key)
        first = offset.plus(level.start, coefficient)
        last = offset.plus(level.last(), coefficient)
        stride = coefficient * level.step
        if stride > 0:
            return ir.Slice(to_expr(first), to_expr(last.shifted(1)), None)
        below = last.shifted(-1)
        upper: ir.Expr = to_expr(below) if below.is_const and below.const >= 0 else ir.IfExp(
            ir.Compare(("ge",), (to_expr(below), ir.Const(0))), to_expr(below), ir.Const(None))
        if below.is_const and below.const < 0:
            upper = ir.Const(None)
        return ir.Slice(to_expr(first), upper, ir.Const(-1))

    # the guard -----------------------------------------------------------

    def _guard(self) -> ir.Expr:
        return all_of(self._entry_checks() + self._bound_checks() + self._apart())

    def _entry_checks(self) -> list[ir.Expr]:
        """The builtins, the ints, and whether the array code pays: all before any array."""
        checks: list[ir.Expr] = []
        for name, value in self.nest.builtins_read.items():
            checks.append(ir.Compare(("is",), (ir.Name(name), ir.Const(value))))
        for name in sorted(self.nest.checked_ints):
            checks.append(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)), ir.Const(int))))
        for name, (least, most) in sorted(self.nest.int_ranges.items()):
            checks.append(ir.Compare(("le", "le"), (ir.Const(least), ir.Name(name), ir.Const(most))))
        pays = self._pays()
        checks += pays
        for level in self.nest.levels if not pays or len(self.nest.levels) > 1 else ():
            low, high = (level.start, level.stop) if level.step > 0 else (level.stop, level.start)
            checks += _less(low, high)  # (the count of one loop checked above implies it)
        return checks

    def _bound_checks(self) -> list[ir.Expr]:
        """Every element read and written inside its array."""
        checks: list[ir.Expr] = []
        lowest: dict[object, Affine] = {}  # `0 <= x`: of the forms differing by a constant, the least
        highest: dict[object, tuple[Affine, Affine]] = {}  # `x < extent`: the greatest
        for access in self._accesses():
            for value, extent in self._ends(access):
                if extent is None:
                    key: object = value.shifted(-value.const)
                    if key not in lowest or value.const < lowest[key].const:
                        lowest[key] = value
                    continue
                gap = value.plus(extent, -1)
                key = gap.shifted(-gap.const).terms
                if key not in highest or gap.const > highest[key][0].plus(highest[key][1], -1).const:
                    highest[key] = (value, extent)
        for value in lowest.values():
            checks += _less(Affine(-1, ()), value)
        for value, extent in highest.values():
            checks += _less(value, extent)
        return checks

    def _pays(self) -> list[ir.Expr]:
        """`32 <= len(a)`: enough iterations for the array code to beat the loop (checking
        the error state and the aliasing, and each slice, costs about as much as 30 turns of
        a short loop body); with loops that stay loops, also enough elements per turn of
        them. A count the version knows too small refuses."""
        checks: list[ir.Expr] = []
        wanted = [(MIN_ITERATIONS, self.nest.levels)]
        if self.nest.reduced:
            wanted.append((MIN_ELEMENTS_PER_TURN, self.vector))
        for least, levels in wanted:
            lengths = [level.stop.plus(level.start, -1).times(level.step) for level in levels]
            if least <= 1 or any(length.is_const and length.const <= 0 for length in lengths):
                continue
            known = 1
            for length in lengths:
                known *= length.const if length.is_const else 1
            unknown = [to_expr(length) for length in lengths if not length.is_const]
            if not unknown:
                if known < least:
                    raise Refused("{} iterations: too few for array code to pay", known)
                continue
            product = unknown[0]
            for factor in unknown[1:]:
                product = ir.Op("mul", (product, factor))
            if known != 1:
                product = ir.Op("mul", (ir.Const(known), product))
            checks.append(ir.Compare(("le",), (ir.Const(least), product)))
        return checks

    def _accesses(self) -> list[Access]:
        return [read for read, _ in self.nest.reads] + [write.access for write in self.nest.writes()]

    def _ends(self, access: Access) -> list[tuple[Affine, Affine | None]]:
        """What keeps `access` inside its array: each moving index's least value (`0 <= x`,
        paired with None) and greatest (`x < extent`) over its range (the index moves
        monotonically); each fixed index within `-extent <= k < extent`."""
        kind = self.nest.arrays[access.array]
        positions = self.nest.positions()
        ends: list[tuple[Affine, Affine | None]] = []
        for axis, form in enumerate(access.index):
            key: AtomKey = ("dim", kind.shape[axis]) if kind.shape is not None \
                else ("expr", (access.array, axis))
            extent = Affine(0, ((key, 1),), ((key, ir.Subscript(ir.Attribute(ir.Name(access.array), "shape"),
                                                                 ir.Const(axis))),))
            term = loop_term(form, positions)
            if term is None:
                ends += [(form.plus(extent), None), (form, extent)]
                continue
            var, coefficient = term
            level = self.nest.level(var)
            offset = form.without(("name", var))
            first = offset.plus(level.start, coefficient)
            last = offset.plus(level.last(), coefficient)
            low, high = (first, last) if coefficient * level.step > 0 else (last, first)
            ends += [(low, None), (high, extent)]
        return ends

    def _apart(self) -> list[ir.Expr]:
        written = {write.access.array for write in self.nest.writes()}
        checks: list[ir.Expr] = []
        for target in sorted(written):
            for other in sorted(self.nest.arrays):
                if other != target and not (other in written and other < target):
                    share = ir.Call(ir.Const(np.may_share_memory), (ir.Name(target), ir.Name(other)))
                    checks.append(ir.Op("not", (share,)))
        return checks


def _reads(exprs: list[ir.Expr], name: str) -> bool:
    return any(isinstance(part, ir.Name) and part.id == name for expr in exprs for part in walk_expr(expr))


def _only_operated_on(statements: list[ir.Stmt], name: str) -> bool:
    """Whether every read of `name` in `statements` is an operand of an operator (which makes
    a new array): no other name holds its array, nor a view of it."""
    for stmt in statements:
        for expr in statement_expressions(stmt, targets=False):
            parts = list(walk_expr(expr))
            reads = sum(isinstance(part, ir.Name) and part.id == name for part in parts)
            operands = sum(isinstance(arg, ir.Name) and arg.id == name for part in parts
                           for arg in (part.args if isinstance(part, ir.Op) else part.operands
                                       if isinstance(part, ir.Compare) else ()))
            if reads != operands:
                return False
    return True


def all_of(checks: list[ir.Expr]) -> ir.Expr:
    """`a and b and c` of the checks, each once (`True` for none)."""
    unique: list[ir.Expr] = []
    for check in checks:
        if check not in unique:
            unique.append(check)
    return unique[0] if len(unique) == 1 else ir.BoolOp("and", tuple(unique)) if unique else ir.Const(True)


def _less(low: Affine, high: Affine) -> list[ir.Expr]:
    """`low < high` (spelled `0 <= x` for `-1 < x`), or nothing where their difference shows
    it (a positive constant); a difference that can never be positive leaves a false check."""
    gap = high.plus(low, -1)
    if gap.is_const and gap.const > 0:
        return []
    if low.is_const and low.const == -1:
        return [ir.Compare(("le",), (ir.Const(0), to_expr(high)))]
    return [ir.Compare(("lt",), (to_expr(low), to_expr(high)))]
