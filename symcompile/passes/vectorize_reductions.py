"""Sums reordered under fastmath: the code vectorize_loops builds for a nest whose whole body
accumulates into one scalar local, `s += a[i] * b[i]` → `s = reordered_dot(s, a[0:n],
b[0:n])`, `s += f(x[i])` → `s = reordered_sum(s, f(x[0:n]))`, and for a matrix product's
reduced axis, `c[i, j] += a[i, k] * b[k, j]` → `c_new = reordered_matmul(c[0:n, 0:m], a[0:n,
0:p], b[0:p, 0:m])`. A support module of `passes/`, no pass.

`np.dot` (BLAS) and `np.sum` (pairwise) add in another order than the loop, so the sum rounds
differently: an unsafe rule, only with `fastmath=True` (without it the loop stays, and explain
says so). Everything else must be the loop's:

- the type: a float (or int) `s` plus np.float64 terms is a np.float64 after the loop, and so is
  `s + np.sum(...)`; the range is checked to hold 128 iterations or more on entry, so `s` is
  never left untouched (a loop that does not run leaves a float a float);
- exceptions and warnings: the terms are computed with floating-point errors recorded (any
  sends the call to the loop); the order of additions decides whether a partial sum overflows
  (`1e308 + 1e308 - 1e308`), so the reordered sum is taken only where no order can overflow:
  `|s| + sum|term| <= 2**1020` (bounded by `count * max|term|`, or for a dot product by
  Cauchy-Schwarz; with rounding, every partial sum then stays below 2**1024; a NaN or infinite
  term fails it). A BLAS kernel need not raise the underflow flag of its products, so
  `reordered_dot` runs only where the error state ignores underflow (as by default); a huge
  int `s` (the loop raises OverflowError adding to it) runs the loop.

Example::

    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    # --- with fastmath ---
    s = 0.0
    vectorized = False
    if range is range_2 and len is len_2 and 128 <= len(a) and len(a) - 1 < b.shape[0]:
        for fp_errors in floating_point_errors_recorded():
            s_new = reordered_dot(s, a[0:len(a)], b[0:len(a)], 1)
        if not fp_errors and s_new is not None:
            s = s_new
            vectorized = True
    if not vectorized:
        for i in range(len(a)):
            s += a[i] * b[i]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import ir
from ..analysis.subscripts import Access, loop_term, to_expr
from ..ir.names import fresh_name
from .vectorize_build import Builder, floating_point_errors_recorded
from .vectorize_math import floating_point_errors_checked
from .vectorize_nest import Nest, Refused, Total

# below these the loop runs (measured, minimum of repeats: a reordered sum's fixed cost, about
# 5-7 µs, is ~50 turns of `s += a[i] * b[i]`; a norm's loop, run over `tolist()` by
# iterate_lists, ~35 ns a turn; `a @ b` beats adding k slices in order from about 16 of them)
MIN_TERMS = 128
MIN_PRODUCT_DEPTH = 16
_LIMIT = 2.0 ** 1020  # every partial sum stays below 2**1024, rounding included


def sums_elements(loop: ir.For) -> bool:
    """Whether the innermost body of the perfect nest `loop` starts is one sum (`summed`)."""
    while len(loop.body) == 1 and isinstance(loop.body[0], ir.For):
        loop = loop.body[0]
    return summed(loop.body) is not None


def summed(body: tuple[ir.Stmt, ...]) -> tuple[str, int, ir.Expr, ir.Loc] | None:
    """`s += term`, `s -= term`, `s = s + term`, `s = s - term` as the whole body: the local,
    the sign of the term, the term (read from an array: `s += 1` is no sum of elements)."""
    if len(body) != 1:
        return None
    match body[0]:
        case ir.AugAssign(ir.Name(name), ("add" | "sub") as op, term):
            pass
        case ir.Assign((ir.Name(name),), ir.Op(("add" | "sub") as op, (ir.Name(same), term))) if same == name:
            pass
        case _:
            return None
    if not any(isinstance(part, ir.Subscript) for part in _parts(term)):
        return None
    return name, 1 if op == "add" else -1, term, body[0].loc


def _parts(expr: ir.Expr) -> list[ir.Expr]:
    found = [expr]
    match expr:
        case ir.Op(_, args) | ir.Call(_, args, ()):
            for arg in args:
                found += _parts(arg)
    return found


def _fits(start: Any, magnitude: Any) -> bool:
    """Whether no partial sum of `start` and terms whose magnitudes add up to at most
    `magnitude` (as computed, so within a relative n * eps of it) can overflow, in any order
    (a NaN or infinite magnitude does not fit)."""
    if type(start) is int and not -_LIMIT < start < _LIMIT:
        return False
    return bool(abs(start) + magnitude <= _LIMIT)


def reordered_sum(start: Any, terms: np.ndarray, sign: int, plain: bool) -> Any:
    """`start + sum(terms)` (`-` for a negative sign) with NumPy's pairwise sum, a float if
    `plain` (the terms are floats: `math.exp(...)`) else a np.float64, or None where the order
    could change more than the rounding (see the module). The terms' magnitudes add up to at
    most `size * max|term|` (two passes, no temporary array)."""
    if not _fits(start, terms.size * _largest(terms)):
        return None
    total = np.sum(terms)
    result = start + total if sign > 0 else start - total
    return float(result) if plain else result


def reordered_dot(start: Any, left: np.ndarray, right: np.ndarray, sign: int) -> Any:
    """`start + dot(left, right)` with BLAS, or None (see `reordered_sum`; also where the
    error state does not ignore underflow: a BLAS kernel need not raise the flag where the
    loop's multiplications do). The magnitudes of the products add up to at most
    `sqrt(dot(left, left) * dot(right, right))` (Cauchy-Schwarz; for `dot(a, a)`, the sum)."""
    if np.geterr()["under"] != "ignore":
        return None
    total = np.dot(left, right)
    if left.base is right.base and left.__array_interface__ == right.__array_interface__:  # a norm
        magnitude = total
    else:
        magnitude = np.sqrt(np.dot(left, left)) * np.sqrt(np.dot(right, right))
    if not _fits(start, magnitude):
        return None
    return start + total if sign > 0 else start - total


def reordered_matmul(acc: np.ndarray, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """`acc + left @ right` (BLAS) where no order of the additions can overflow (every sum
    within `max|acc| + p * max|left| * max|right|`) and the error state ignores underflow;
    else (and below 16 of them) the sums in the loop's order, as the reduction in order computes
    them (`acc + left[:, k][:, None] * right[k, :]` for each k), errors recorded as the loop's."""
    depth = left.shape[1]
    if depth >= MIN_PRODUCT_DEPTH and np.geterr()["under"] == "ignore" \
            and _fits(_largest(acc), depth * _largest(left) * _largest(right)):
        product: np.ndarray = acc + left @ right
        return product
    for k in range(depth):
        acc = acc + left[:, k][:, None] * right[k, :]
    return acc


def _largest(values: np.ndarray) -> float:
    """max|value| as a float (NaN if one is NaN: both ends are), without a temporary array."""
    return float(max(values.max(), -values.min()))


def matmul_operands(nest: Nest) -> tuple[ir.Subscript, ir.Subscript] | None:
    """`a[i, k]`, `b[k, j]` of a nest whose body is only `c[i, j] += a[i, k] * b[k, j]` (the
    factors in either order), `k` the one loop kept, stepping by 1; float64 matrices."""
    writes = nest.writes()
    if len(nest.kept) != 1 or nest.kept[0].step != 1 or len(nest.steps) != 1 or len(writes) != 1 \
            or writes[0].mask or len(nest.levels) != 3:
        return None
    match writes[0].value:
        case ir.Op("add", (ir.Subscript() as target, ir.Op("mul", (ir.Subscript() as x, ir.Subscript() as y)))):
            pass
        case _:
            return None
    i, j = (level.var for level in nest.vector_levels())
    k = nest.kept[0].var
    if _indexed(nest, target, (i, j)) and _indexed(nest, x, (i, k)) and _indexed(nest, y, (k, j)):
        return x, y
    if _indexed(nest, target, (i, j)) and _indexed(nest, y, (i, k)) and _indexed(nest, x, (k, j)):
        return y, x  # (`b[k, j] * a[i, k]`: the same products)
    return None


def _indexed(nest: Nest, read: ir.Subscript, order: tuple[str, str]) -> bool:
    """Whether `read` is an element of a float64 matrix indexed by the loops `order`, each with
    coefficient 1."""
    access = nest.accesses.get(id(read))
    if access is None or nest.arrays[access.array].dtype != np.float64 or len(access.index) != 2:
        return False
    return all(loop_term(form, nest.positions()) == (var, 1) for form, var in zip(access.index, order))


class ProductBuilder(Builder):
    """A matrix product's reduced axis as one `reordered_matmul` (fastmath)."""

    def _accumulated(self) -> tuple[list[ir.Stmt], list[ir.Stmt]]:
        loc = self.nest.loop.loc
        write = self.nest.writes()[0]
        operands = matmul_operands(self.nest)
        assert operands is not None
        name = fresh_name(f"{write.access.array}_new", self.taken)
        view = self._view(write.access, target=True)
        left, right = (self._span(self.nest.accesses[id(read)]) for read in operands)
        product = ir.Call(ir.Const(reordered_matmul), (ir.Name(name), left, right))
        return [ir.Assign((ir.Name(name),), view, loc), ir.Assign((ir.Name(name),), product, loc)], \
            [ir.Assign((view,), ir.Name(name), loc)]

    def _span(self, access: Access) -> ir.Expr:
        """The slices of `access` over the vector loops and the kept one."""
        kept = self.nest.kept[0]
        parts: list[ir.Expr] = []
        for form in access.index:
            term = loop_term(form, self.positions)
            if term is not None:
                parts.append(self._slice(form, *term))
                continue
            offset = form.without(("name", kept.var))
            parts.append(ir.Slice(to_expr(offset.plus(kept.start)), to_expr(offset.plus(kept.stop)), None))
        return ir.Subscript(ir.Name(access.array), ir.Build("tuple", tuple(parts)))


class ReductionBuilder(Builder):
    """The guarded code of a nest accumulating into one scalar (see the module's example)."""

    def build(self) -> tuple[ir.Stmt, ...]:
        nest, loc = self.nest, self.nest.loop.loc
        total = nest.total
        assert total is not None
        flag = fresh_name("vectorized", self.taken)
        errors = fresh_name("fp_errors", self.taken)
        result = fresh_name(f"{total.name}_new", self.taken)
        value = self._reduced(total)
        staging = floating_point_errors_checked if nest.array_calls else floating_point_errors_recorded
        watch = ir.For(ir.Name(errors), ir.Call(ir.Const(staging), ()),
                       (ir.Assign((ir.Name(result),), value, loc),), (), loc)
        taken = ir.BoolOp("and", (ir.Op("not", (ir.Name(errors),)),
                                  ir.Compare(("isnot",), (ir.Name(result), ir.Const(None)))))
        done = (ir.Assign((ir.Name(total.name),), ir.Name(result), loc),
                ir.Assign((ir.Name(flag),), ir.Const(True), loc))
        return (ir.Assign((ir.Name(flag),), ir.Const(False), loc),
                ir.If(self._guard(), (watch, ir.If(taken, done, (), loc)), (), loc),
                ir.If(ir.Op("not", (ir.Name(flag),)), (nest.loop,), (), loc))

    def _pays(self) -> list[ir.Expr]:
        """`128 <= len(a)`: enough terms for the reordered sum to beat the loop."""
        lengths = [level.stop.plus(level.start, -1).times(level.step) for level in self.nest.levels]
        if all(length.is_const for length in lengths):
            count = math.prod(length.const for length in lengths)
            if count < MIN_TERMS:
                raise Refused("{} terms: too few for a reordered sum to pay", count)
            return []
        product = to_expr(lengths[0])
        for length in lengths[1:]:
            product = ir.Op("mul", (product, to_expr(length)))
        return [ir.Compare(("le",), (ir.Const(MIN_TERMS), product))]

    def _reduced(self, total: Total) -> ir.Expr:
        sign = ir.Const(total.sign)
        start = ir.Name(total.name)
        if is_dot(self.nest, total):
            assert isinstance(total.term, ir.Op)
            left, right = (self._vector(arg) for arg in total.term.args)
            return ir.Call(ir.Const(reordered_dot), (start, left, right, sign))
        plain = ir.Const(plain_float(total.term, self.nest))
        return ir.Call(ir.Const(reordered_sum), (start, self._vector(total.term), sign, plain))


def plain_float(term: ir.Expr, nest: Nest) -> bool:
    """Whether the loop computes `term` as a float, not a np.float64: a `math` function's
    result, or arithmetic of floats and plain numbers only (a np.float64 operand makes the
    result one, NEP 50)."""
    match term:
        case ir.Call(func, _, ()) if id(term) in nest.array_calls:
            function = func.value if isinstance(func, ir.Const) else \
                nest.builtins_read.get(func.id) if isinstance(func, ir.Name) else None
            return not isinstance(function, np.ufunc)
        case ir.Op(_, args):
            return all(plain_float(arg, nest) for arg in args)
        case ir.Subscript():
            return False
    return True


def is_dot(nest: Nest, total: Total) -> bool:
    """`a[i] * b[i]` in one loop, of two float64 elements: a dot product."""
    match total.term:
        case ir.Op("mul", (ir.Subscript() as left, ir.Subscript() as right)) if len(nest.levels) == 1:
            accesses = [nest.accesses[id(read)] for read in (left, right)]
            return all(nest.arrays[access.array].dtype == np.float64 and any(
                loop_term(form, nest.positions()) for form in access.index) for access in accesses)
    return False
