"""The array code for a loop nest over Python lists of floats and lists of lists of floats, which
vectorize_loops accepted (see that module for the rules): the lists are converted to float64
arrays on entry, the array code of `vectorize_build` runs on those, and the elements it wrote
are stored back into the very lists (and rows) the caller holds, as Python floats. A support
module of `passes/`, no pass.

A Python float and a float64 compute `+ - *`, comparisons, `abs` and `-` to the same bits, but
a float never warns: the arrays are computed with NumPy's floating-point errors ignored. On
entry (`lists_as_arrays`, after the builtins, the ints and the iteration count): every list is
a `list`, every row of a list of lists a `list`, all of one length; the lists written and their
rows are objects no other list touched shares (`[[0.0] * m] * n` shares one row: a write
through one index shows in all, so the loop runs); the loop's work, by the cost model, exceeds
the conversion's; every element read is a `float` exactly (not an int, a subclass, a NumPy
scalar: those run the loop). Bounds are checked on the arrays, as for arrays. Example::

    for i in range(n):
        for j in range(n):
            for k in range(n):
                c[i][j] += A[i][k] * B[k][j]
    # --- becomes ---
    vectorized = False
    if range is range_2 and type(c) is list and ... and type(n) is int and 32 <= n * n * n and ...:
        arrays = lists_as_arrays(64.0 * (n * n * n), ((c, 2, 'rw'), (A, 2, 'r'), (B, 2, 'r')))
        if arrays is not None:
            c_array, A_array, B_array = arrays
            if n - 1 < c_array.shape[0] and ...:
                for fp_ignored in floating_point_errors_ignored():
                    c_new = c_array[0:n, 0:n]
                    for k in range(n):
                        c_new = c_new + A_array[0:n, k][:, None] * B_array[k, 0:n]
                c_array[0:n, 0:n] = c_new
                for row, values in zip(c[0:n], c_array[0:n, 0:n].tolist()):
                    row[0:n] = values
                vectorized = True
    if not vectorized:
        <the loop as written>
"""

from __future__ import annotations

import array as array_module
import math
from itertools import chain
from typing import Any, Iterator, Sequence

import numpy as np

from .. import ir
from ..analysis import cost
from ..analysis.subscripts import to_expr
from ..ir.names import fresh_name
from ..ir.rewrite import rename
from .vectorize_build import Builder, all_of
from .vectorize_nest import list_modes

ListSpec = tuple[Any, int, str]  # a list, its dimensions, its part: "r", "w" or "rw"


def floating_point_errors_ignored() -> Iterator[None]:
    """Run the body of a `for` over this once with every floating-point error ignored, as
    Python floats compute (`1e308 * 10.0` is inf, no warning); the error state is restored."""
    with np.errstate(all="ignore"):
        yield None


def lists_as_arrays(work: float, lists: Sequence[ListSpec]) -> tuple[np.ndarray, ...] | None:
    """Float64 arrays holding the lists' elements (an empty one for a list only written), or
    None where the loop must run: a list or a row that is not a `list`, rows of unequal
    lengths, a written list or row also held elsewhere among the lists, a conversion costing
    more than `work` (ns, the cost model's estimate of the loop), an element read that is not
    exactly a `float`. The cheap tests come first, the scan of the elements last."""
    written: list[int] = []
    others: set[int] = set()
    expense = cost.LIST_CONVERSION
    shapes: list[tuple[int, ...]] = []
    for value, ndim, mode in lists:
        if type(value) is not list:
            return None
        objects = [id(value)]
        if ndim == 2:
            width = len(value[0]) if value and type(value[0]) is list else 0
            for row in value:
                if type(row) is not list or len(row) != width:
                    return None
                objects.append(id(row))
            shapes.append((len(value), width))
            expense += cost.LIST_ROW * len(value)
        else:
            shapes.append((len(value),))
        expense += cost.list_element_cost(mode) * math.prod(shapes[-1])
        if "w" in mode:
            written += objects
        else:
            others.update(objects)
    if work < expense or len(set(written)) != len(written) or not others.isdisjoint(written):
        return None
    arrays: list[np.ndarray] = []
    for (value, ndim, mode), shape in zip(lists, shapes):
        if "r" not in mode:
            arrays.append(np.empty(shape))
            continue
        items: list[float] = list(chain.from_iterable(value)) if ndim == 2 else value
        if list(map(type, items)).count(float) != len(items):
            return None
        # (`array.array` copies floats fastest; its buffer is writable, and kept by the array)
        arrays.append(np.frombuffer(array_module.array("d", items), dtype=np.float64).reshape(shape))
    return tuple(arrays)


class ListBuilder(Builder):
    """The guarded array code for a nest over lists (see the module's example)."""

    def build(self) -> tuple[ir.Stmt, ...]:
        nest, loc = self.nest, self.nest.loop.loc
        flag = fresh_name("vectorized", self.taken)
        converted = fresh_name("arrays", self.taken)
        names = {name: fresh_name(f"{name}_array", self.taken) for name in nest.lists}
        compute, commit = self._statements()
        if nest.may_raise_fp:
            quiet = ir.Call(ir.Const(floating_point_errors_ignored), ())
            compute = [ir.For(ir.Name(fresh_name("fp_ignored", self.taken)), quiet, tuple(compute), (), loc)]
        inner = rename((ir.If(all_of(self._bound_checks()), (*compute, *commit), (), loc),), names)[0]
        assert isinstance(inner, ir.If)
        done = ir.Assign((ir.Name(flag),), ir.Const(True), loc)
        inner = ir.If(inner.test, (*inner.body, *self._stored_back(names), done), (), loc)
        unpack = ir.Assign((ir.Build("tuple", tuple(ir.Name(names[name]) for name in nest.lists)),),
                           ir.Name(converted), loc)
        present = ir.Compare(("isnot",), (ir.Name(converted), ir.Const(None)))
        vector = (ir.Assign((ir.Name(converted),), self._conversion(), loc),
                  ir.If(present, (unpack, inner), (), loc))
        kinds = [ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)), ir.Const(list)))
                 for name in sorted(set(nest.lists) | nest.sized_lists)]
        builtins_checks = len(nest.builtins_read)
        entry = self._entry_checks()
        return (ir.Assign((ir.Name(flag),), ir.Const(False), loc),
                ir.If(all_of(entry[:builtins_checks] + kinds + entry[builtins_checks:]), vector, (), loc),
                ir.If(ir.Op("not", (ir.Name(flag),)), (nest.loop,), (), loc))

    def _conversion(self) -> ir.Expr:
        """`lists_as_arrays(64.0 * (n * n * n), ((c, 2, 'rw'), (A, 2, 'r')))`: the loop's
        work by the cost model, and each list with its dimensions and its part."""
        iterations: ir.Expr = ir.Const(self.nest.turn_cost)
        for level in self.nest.levels:
            length = level.stop.plus(level.start, -1).times(level.step)
            iterations = ir.Op("mul", (iterations, to_expr(length)))
        modes = list_modes(self.nest)
        specs = tuple(ir.Build("tuple", (ir.Name(name), ir.Const(ndim), ir.Const(modes[name])))
                      for name, ndim in self.nest.lists.items())
        return ir.Call(ir.Const(lists_as_arrays), (iterations, ir.Build("tuple", specs)))

    def _stored_back(self, names: dict[str, str]) -> list[ir.Stmt]:
        """Each element written stored into the caller's list as a float: `a[1:n] =
        a_array[1:n].tolist()`; a list of lists row by row, each row the same list object
        (`for row, values in zip(c[0:n], c_array[0:n, 0:m].tolist()): row[0:m] = values`)."""
        loc = self.nest.loop.loc
        statements: list[ir.Stmt] = []
        seen: list[ir.Expr] = []
        for write in self.nest.writes():
            view = self._view(write.access, target=True)
            if view in seen:
                continue
            seen.append(view)
            assert isinstance(view, ir.Subscript)
            name = write.access.array
            values = ir.Call(ir.Attribute(ir.Subscript(ir.Name(names[name]), view.index), "tolist"), ())
            parts = view.index.elts if isinstance(view.index, ir.Build) else (view.index,)
            if len(parts) == 1:
                statements.append(ir.Assign((ir.Subscript(ir.Name(name), parts[0]),), values, loc))
            elif not isinstance(parts[0], ir.Slice):
                target = ir.Subscript(ir.Subscript(ir.Name(name), parts[0]), parts[1])
                statements.append(ir.Assign((target,), values, loc))
            else:
                row, new = fresh_name("row", self.taken), fresh_name("values", self.taken)
                pairs = ir.Call(ir.Const(zip), (ir.Subscript(ir.Name(name), parts[0]), values))
                store = ir.Assign((ir.Subscript(ir.Name(row), parts[1]),), ir.Name(new), loc)
                statements.append(ir.For(ir.Build("tuple", (ir.Name(row), ir.Name(new))), pairs,
                                         (store,), (), loc))
        return statements
