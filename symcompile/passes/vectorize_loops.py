"""vectorize_loops: a loop over indices of NumPy arrays becomes whole-array operations.

`for i in range(1, n - 1): out[i] = (u[i - 1] + u[i + 1]) * 0.5` computes, for every element,
what `np.add` and `np.multiply` compute on slices, in the same order and so to the same bits
(`u[i]` of a float64 array is a `np.float64`: the loop already runs NumPy's scalar arithmetic).
Runs after the other passes have settled (a lowering, `RUN_LAST`), only in versions compiled
for the arrays' types (`ir.ArrayKind`), and keeps the loop as the fallback (see the example).

What must hold, each checked where it runs or proven here (see docs/rules.md):

- a perfect nest of `for v in range(...)` loops (steps ±1, bounds that are integer
  expressions of names the nest does not assign, `len(a)`, `a.shape[k]`: each such name is
  checked to be an `int` on entry) whose innermost body assigns elements of arrays the version
  knows (`out[i, j] = ...`, `out[i][j] += ...`), scalar locals computed afresh each turn, and
  elements under an `if` (or an if/elif chain) on elements (a mask per branch: `copyto(out[
  ...], v, where=mask)`; `where(mask, a, b)` for an if/else storing one element, and in a
  reduction); a plain number stored and read back is read as the element type (`float32(x)`);
- counting reductions: an int local increased by an int constant under element tests, and not
  otherwise touched in the loop (`if s[i - 1] < level <= s[i]: count += 1`), is increased by
  `C * int(count_nonzero(mask))` (Python ints: exact) after the array code;
- reductions in order: loops no written index moves with (`k` of `c[i, j] += a[i, k] * b[k,
  j]`, outer, middle or inner) stay Python loops around array code over the others, when each
  written element is read and written only as itself (`c[i, j]`, never `c[i + 1, j]`): every
  element then sees its updates in the loop's order, so its sum rounds as in the loop; and an
  inner loop accumulating into scalar locals set before it in the body (`acc = 0.0; for k in
  ...: acc += a[i, k] * b[k, j]; c[i, j] = acc`) runs over arrays of accumulators, started
  from the same value, their type followed turn by turn until it settles (nothing reorders a
  sum: `np.sum`/`np.dot` would round differently);
- every index is one loop variable (coefficient ±1) plus an offset, or fixed; every element read
  and written lies inside its array (checked on entry: else the loop runs and raises, or wraps,
  exactly as written); a written array shares no memory with another array the loop touches;
- no iteration reads what an earlier iteration wrote (Jacobi yes, Gauss-Seidel no; `z[i + 1] =
  f(z[i])` stays a loop), and each element is written by one iteration; within an iteration,
  nothing is read after a conditional write to its array unless in another branch of the same
  `if` (the elif's `out[i] < lo` after `if out[i] > hi: out[i] = hi`: it reads the value before);
- only operations whose NumPy array loops give the same bits and raise the same way as the
  scalars do: `+ - * /` with a float32/float64 result, comparisons, `& | ^ ~` on ints and
  bools, `abs` and unary minus of floats (integer `+ - *` are left alone: a NumPy integer
  scalar warns on overflow, an array wraps silently);
- with fastmath only (unsafe: the last bits may differ): `math` functions and `**` of float64
  elements as NumPy ufuncs (`math.exp` → `np.exp`, `vectorize_math`), a body summing into one
  scalar as `np.dot`/`np.sum`, a matrix product's reduced axis as `a @ b`
  (`vectorize_reductions`); exceptions, warnings and types stay the loop's;
- warnings: the element values are computed with NumPy's floating-point errors recorded, not
  reported; if any the error state would report was raised (by default overflow, division by
  zero, invalid), nothing has been written and the loop runs as written, so it warns or raises
  exactly as the original;
- the loop variables and scalar locals are not read after the loop (so their last values do
  not matter; a counter may be: its final value is computed);
- it pays: at least 32 iterations in all, and 8 elements per turn of a loop that stays a loop
  (checked on entry; fewer run the loop, which is then faster).

Example::

    def smooth(out: "float64[n]", u: "float64[n]", n: int):
        for i in range(1, n - 1):
            out[i] = (u[i - 1] + u[i + 1]) * 0.5
    # --- after vectorize_loops ---
    def smooth(out: "float64[n]", u: "float64[n]", n: int):
        vectorized = False
        if range is range_2 and 32 <= n - 2 and n - 1 < u.shape[0] and not may_share_memory(out, u):
            for fp_errors in floating_point_errors_recorded():
                out_new = (u[0:n - 2] + u[2:n]) * 0.5
            if not fp_errors:
                out[1:n - 1] = out_new
                vectorized = True
        if not vectorized:
            for i in range(1, n - 1):
                out[i] = (u[i - 1] + u[i + 1]) * 0.5
"""

from __future__ import annotations

import builtins
import itertools

import numpy as np

from .. import ir
from ..analysis import cost
from ..analysis.arrays import may_reshape_arrays
from ..analysis.subscripts import (
    NEVER,
    Access,
    Affine,
    AtomKey,
    Distance,
    affine,
    distance,
    lexicographic_sign,
    loop_term,
)
from ..analysis.value_types import Known, TypeEnv, type_assumptions, type_of, types_before
from ..ir.names import (
    all_names,
    assigned_names,
    bound_on_entry,
    live_after,
    untracked_names,
)
from ..ir.rewrite import nested_bodies, unchanged_or_new, walk_expr, walk_statements, with_bodies
from . import notes
from .vectorize_build import Builder
from .vectorize_lists import ListBuilder
from .vectorize_math import FUNCTIONS, array_function, function_name, ufunc_name
from .vectorize_reductions import ProductBuilder, ReductionBuilder, is_dot, matmul_operands, summed, sums_elements
from .vectorize_nest import (
    Count,
    EndReduce,
    Level,
    Nest,
    Path,
    Reduce,
    Refused,
    Temp,
    Total,
    Write,
    exclusive,
    list_modes,
    spell_access,
)

RULE = "vectorize"
_FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_ARITHMETIC = frozenset({"add", "sub", "mul", "truediv"})
_BITWISE = frozenset({"bitand", "bitor", "bitxor"})
_COMPARISONS = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})


def _loop_var(loop: ir.For) -> str:
    if not isinstance(loop.target, ir.Name):
        raise Refused("not a plain `for v in range(...)` loop")
    return loop.target.id


def _means(expr: ir.Expr, value: object) -> bool:
    return isinstance(expr, ir.Const) and expr.value is value


class _Vectorizer:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.env_before = types_before(function)
        self.bound = bound_on_entry(function)
        self.live = live_after(function)
        self.untracked = untracked_names(function)
        self.taken = all_names(function)
        self.relied: set[str] = set()
        self.arrays = any(isinstance(kind, ir.ArrayKind) for kind in function.argument_types.values())

    # ------------------------------------------------------------------ the nest

    def _builtin(self, expr: ir.Expr, value: object, nest: Nest) -> bool:
        """Whether `expr` is the builtin `value`: bound as it, or a name the loop checks."""
        if _means(expr, value):
            return True
        if isinstance(expr, ir.Name) and self.function.namespace is not None \
                and expr.id not in self.function.locals:
            found, bound = self.function.namespace.lookup(expr.id)
            if found and bound is value:
                nest.builtins_read[expr.id] = value
                return True
        return False

    def _nest(self, nest: Nest, env: TypeEnv) -> None:
        loop = nest.loop
        nest.assigned = {name for inner in walk_statements((loop,)) for name in assigned_names(inner)}
        stmt: ir.Stmt = loop
        while isinstance(stmt, ir.For):
            if not isinstance(stmt.target, ir.Name) or stmt.orelse:
                raise Refused("not a plain `for v in range(...)` loop")
            nest.levels.append(self._level(stmt, env, nest))
            nest.body = stmt.body
            if len(stmt.body) != 1:
                break
            stmt = stmt.body[0]

    def _level(self, stmt: ir.For, env: TypeEnv, nest: Nest) -> Level:
        var = _loop_var(stmt)
        match stmt.iter:
            case ir.Call(func, args, ()) if 1 <= len(args) <= 3 and self._builtin(func, builtins.range, nest):
                pass
            case _:
                raise Refused("not a loop over range()")
        forms = [self._int_form(arg, env, nest) for arg in args]
        if any(var in form.names() or {level.var for level in nest.levels} & form.names()
               for form in forms):
            raise Refused("the range depends on an enclosing loop's variable")
        start, stop = (forms[0], forms[1]) if len(forms) > 1 else (Affine(0, ()), forms[0])
        step = forms[2] if len(forms) == 3 else Affine(1, ())
        if not step.is_const or step.const not in (1, -1):
            raise Refused("range step is not 1 or -1")
        return Level(var, start, stop, step.const, stmt.iter)

    def _int_form(self, expr: ir.Expr, env: TypeEnv, nest: Nest) -> Affine:
        form = affine(expr, lambda atom: self._atom(atom, env, nest))
        if form is None:
            raise Refused("index or bound {} is not affine in the loop variables", expr)
        return form

    def _atom(self, expr: ir.Expr, env: TypeEnv, nest: Nest) -> AtomKey | None:
        loop_vars = {level.var for level in nest.levels}
        match expr:
            case ir.Name(name) if name in loop_vars:
                return ("name", name)
            case ir.Name(name) if name not in self.untracked and name not in nest.assigned:
                known = env.get(name)
                if known is None or known.type is not int:
                    nest.checked_ints.add(name)
                else:
                    nest.relied |= known.arguments
                return ("name", name)
            case ir.Call(func, (ir.Name(array),), ()) if self._builtin(func, builtins.len, nest):
                if self._list_candidate(array, env, nest):
                    nest.sized_lists.add(array)  # checked to be a list before `len` is taken
                    return ("expr", expr)
                return self._extent(array, 0, env, nest, expr)
            case ir.Subscript(ir.Attribute(ir.Name(array), "shape"), ir.Const(int() as axis)):
                return self._extent(array, axis, env, nest, expr)
        return None

    def _extent(self, array: str, axis: int, env: TypeEnv, nest: Nest, expr: ir.Expr) -> AtomKey | None:
        known = env.get(array)
        kind = known.array if known is not None else None
        if kind is None or not 0 <= axis < kind.ndim:
            return None
        nest.relied |= known.arguments  # type: ignore[union-attr]
        if kind.shape is not None:
            return ("dim", kind.shape[axis])
        return ("expr", expr)

    # ------------------------------------------------------------------ the body

    def _body(self, nest: Nest, env: TypeEnv) -> None:
        total = summed(nest.body)
        if total is not None and self._local(total[0], nest):
            self._total(nest, env, *total)
            return
        temps: dict[str, Known] = {}
        for stmt in nest.body:
            match stmt:
                case ir.Assign((ir.Name(name),), value) if self._local(name, nest):
                    self._temp(name, value, env, nest, temps)
                case ir.AugAssign(ir.Name(name), op, value) if self._local(name, nest):
                    self._temp(name, ir.Op(op, (ir.Name(name), value)), env, nest, temps)
                case ir.Assign((ir.Subscript() as target,), value):
                    self._write(target, value, env, nest, temps, stmt.loc)
                case ir.AugAssign(ir.Subscript() as target, op, value):
                    self._write(target, ir.Op(op, (target, value)), env, nest, temps, stmt.loc)
                case ir.If() if _masked_statements(stmt):
                    self._conditional(stmt, env, nest, temps)
                case ir.For() if not nest.reduced and len(nest.body) > 1:
                    self._inner_loop(stmt, env, nest, temps)
                case _:
                    raise Refused("the body holds {}", _statement_kind(stmt))
        nest.temps = temps
        nest.temp_names |= set(temps)
        _functions_beside_float64_only(nest)
        self._shape(nest)
        counters = {count.name for count in nest.counts()}
        if counters and (nest.reduced or counters & nest.temp_names):
            raise Refused("counts into {} in a loop that also accumulates or assigns it",
                          ", ".join(sorted(counters)))

    def _total(self, nest: Nest, env: TypeEnv, name: str, sign: int, term: ir.Expr, loc: ir.Loc) -> None:
        """`s += a[i] * b[i]` as the whole body: `s` a float or int before the loop, the terms
        float64 elements moving with every loop; summed in another order (`np.dot`), so only
        under fastmath (`vectorize_reductions`)."""
        known = env.get(name)
        if known is None or known.type not in (int, float) or name not in self.bound.get(id(nest.loop), frozenset()):
            raise Refused("accumulates into {}, not a float before the loop", name)
        kind = self._element(term, env, nest, {})
        if kind.array is None or kind.array.dtype != np.float64 or nest.lists:
            raise Refused("accumulates {} into {}: not a float64 array element", term, name)
        _functions_beside_float64_only(nest)
        if self._moves_with((term,), nest, 0) != set(nest.positions()):
            raise Refused("accumulates {} into {}: a term not moving with every loop", term, name)
        if not self.function.fastmath:
            raise Refused("accumulates into {}: np.sum or np.dot would round differently: allowed with "
                          "fastmath=True", name)
        nest.relied |= known.arguments
        nest.total = Total(name, sign, term, loc)
        nest.inexact.append("np.dot" if is_dot(nest, nest.total) else "np.sum")

    def _conditional(self, stmt: ir.If, env: TypeEnv, nest: Nest, temps: dict[str, Known]) -> None:
        """`if t1: ... elif t2: ... else: ...` on elements: each branch's element writes and
        counts run under the tests of its path (masks); a test is read where the tests
        before it left the path open (`t2` where not `t1`: before the writes under `t1`)."""
        condition = self._element(stmt.test, env, nest, temps)
        if condition.array is None or condition.array.dtype != np.dtype(bool):
            raise Refused("the test {} is not a comparison of elements", stmt.test)
        outer = nest.branch
        for branch, negated in ((stmt.body, False), (stmt.orelse, True)):
            nest.branch = (*outer, (stmt.test, negated))
            for inner in branch:
                counted = _counted(inner)
                if isinstance(inner, ir.If):
                    self._conditional(inner, env, nest, temps)
                elif counted is not None:
                    self._count(*counted, env, nest, inner.loc)
                else:
                    target, value = _stored(inner)
                    self._write(target, value, env, nest, temps, inner.loc, nest.branch)
        nest.branch = outer

    def _count(self, name: str, op: str, value: ir.Expr, env: TypeEnv, nest: Nest, loc: ir.Loc) -> None:
        """`count += 1` (`-= 3`) under a test on elements: an int local (a Python int: exact,
        never overflows) increased by `amount * count_nonzero(mask)`, where the mask has an
        element for every iteration (its tests move with every loop)."""
        if op not in ("add", "sub") or not isinstance(value, ir.Const) or type(value.value) is not int:
            raise Refused("updates {} with {}: only adding an int constant counts", name, value)
        amount = value.value if op == "add" else -value.value
        known = env.get(name)
        if known is None or known.type is not int or not self._local(name, nest) \
                or name not in self.bound.get(id(nest.loop), frozenset()):
            raise Refused("counts into {}, not an int before the loop", name)
        if self._moving(nest.branch, nest) != {level.var for level in nest.levels}:
            raise Refused("counts into {} under a test that does not move with every loop", name)
        nest.relied |= known.arguments
        nest.steps.append(Count(name, amount, nest.branch, loc))

    def _moving(self, path: Path, nest: Nest) -> set[str]:
        """The loop variables the tests of `path` move with (through the scalar locals they read)."""
        return self._moves_with(tuple(test for test, _ in path), nest, len(nest.steps))

    def _moves_with(self, exprs: tuple[ir.Expr, ...], nest: Nest, before: int) -> set[str]:
        positions = nest.positions()
        found: set[str] = set()
        for part in (part for expr in exprs for part in walk_expr(expr)):
            if isinstance(part, ir.Subscript) and id(part) in nest.accesses:
                found |= {term[0] for form in nest.accesses[id(part)].index
                          if (term := loop_term(form, positions))}
            elif isinstance(part, ir.Name):
                assigned = [k for k, step in enumerate(nest.steps[:before])
                            if isinstance(step, Temp) and step.name == part.id]
                if assigned:  # the value it holds here: its last assignment before
                    step = nest.steps[assigned[-1]]
                    assert isinstance(step, Temp)
                    found |= self._moves_with((step.value,), nest, assigned[-1])
        return found

    def _local(self, name: str, nest: Nest) -> bool:
        return name not in self.untracked and name not in nest.arrays \
            and name not in {level.var for level in nest.levels}

    def _temp(self, name: str, value: ir.Expr, env: TypeEnv, nest: Nest, temps: dict[str, Known]) -> None:
        kind = self._element(value, env, nest, temps)
        temps[name] = kind
        nest.steps.append(Temp(name, value, kind))

    def _inner_loop(self, loop: ir.For, env: TypeEnv, nest: Nest, temps: dict[str, Known]) -> None:
        """An inner loop accumulating into scalar locals of the body (`acc += a[i, k] * b[k, j]`),
        each element's accumulation kept in order as a Python loop over array slices. Its body
        is analysed with the accumulators' types before the first turn, then after each turn,
        until they no longer change (the range is checked not empty on entry)."""
        if not isinstance(loop.target, ir.Name) or loop.orelse:
            raise Refused("not a plain `for v in range(...)` loop")
        nest.levels.append(self._level(loop, env, nest))
        nest.reduced.add(loop.target.id)
        steps, reads = len(nest.steps), len(nest.reads)
        before = dict(temps)
        kinds = dict(temps)
        for _ in range(3):
            del nest.steps[steps:], nest.reads[reads:]
            nest.steps.append(Reduce(nest.levels[-1]))
            turn = dict(kinds)
            for stmt in loop.body:
                match stmt:
                    case ir.Assign((ir.Name(name),), value) if self._local(name, nest):
                        self._temp(name, value, env, nest, turn)
                    case ir.AugAssign(ir.Name(name), op, value) if self._local(name, nest):
                        self._temp(name, ir.Op(op, (ir.Name(name), value)), env, nest, turn)
                    case _:
                        raise Refused("the inner loop holds {}", _statement_kind(stmt))
            nest.steps.append(EndReduce())
            nest.temp_names |= set(turn)
            after = {name: turn[name] for name in before}
            if after == kinds:
                temps.update(after)
                return
            kinds = {**kinds, **after}
        raise Refused("the type of an accumulator of the inner loop does not settle")

    def _write(self, target: ir.Subscript, value: ir.Expr, env: TypeEnv, nest: Nest,
               temps: dict[str, Known], loc: ir.Loc, mask: Path = ()) -> None:
        access = self._access(target, env, nest)
        if access is None:
            raise Refused("writes {}, not an element of a known array", target)
        kind = self._element(value, env, nest, temps)
        self._storable(kind, nest.arrays[access.array], target, value, nest)
        if access.array in nest.lists and kind.array is None and kind.type is not float:
            raise Refused("stores {} into a list: not a float, and the list would keep it", value)
        # a plain number's cast into a float32 array may overflow (recorded: vectorize_build)
        nest.may_raise_fp |= kind.array is None and nest.arrays[access.array].dtype != np.float64
        order = [loop_term(form, nest.positions()) for form in access.index]
        if any(abs(term[1]) != 1 for term in order if term):
            raise Refused("{} is not written once per iteration in loop order", target)
        nest.steps.append(Write(access, value, kind, loc, mask))

    def _shape(self, nest: Nest) -> None:
        """Which loops become array axes: those every written index moves with (each once, in
        loop order); the others of a perfect nest stay loops around the body (a reduction in
        order: every element written sees its updates in the same order)."""
        positions = nest.positions()
        movings = {tuple(term[0] for term in (loop_term(form, positions) for form in write.access.index) if term)
                   for write in nest.writes()}
        vector = tuple(level.var for level in nest.vector_levels())
        if not movings and nest.counts():
            return  # only counts: every loop is an array axis (each count's tests move with all)
        if len(movings) != 1:
            raise Refused("the writes do not all move with the same loops")
        moving = movings.pop()
        if moving == vector:
            return
        if not moving:
            raise Refused("accumulates into one element, {}: nothing to vectorize",
                          spell_access(nest.writes()[0].access))
        if nest.reduced or list(moving) != sorted(moving, key=positions.__getitem__) \
                or len(set(moving)) != len(moving):
            target = nest.writes()[0].access
            raise Refused("{} is not written once per iteration in loop order", spell_access(target))
        nest.kept = [level for level in nest.levels if level.var not in moving]
        nest.reduced = {level.var for level in nest.kept}
        for write in nest.writes():
            dtype = write.kind.array.dtype if write.kind.array is not None else None
            if dtype != nest.arrays[write.access.array].dtype:
                raise Refused("stores a value of another type into {} while accumulating",
                              spell_access(write.access))

    def _storable(self, kind: Known, array: ir.ArrayKind, target: ir.Expr, value: ir.Expr, nest: Nest) -> None:
        if kind.array is not None and kind.array.dtype == array.dtype \
                or kind.type is float and array.dtype in _FLOAT_DTYPES:
            return
        if kind.type in (bool, int) and array.dtype in _FLOAT_DTYPES:
            # converted as the loop's store converts it: a huge int raises OverflowError there,
            # so it must lie in range (a name checked on entry)
            self._ints_in_range((value,), [kind], array.dtype, nest)
            return
        if isinstance(value, ir.Const) and type(value.value) is int and array.dtype.kind in "iu" \
                and np.iinfo(array.dtype.name).min <= value.value <= np.iinfo(array.dtype.name).max:
            return  # an int constant an integer array holds exactly (`mask[i, j] = 1`)
        raise Refused("stores a value of another type into {}", target)

    def _access(self, expr: ir.Expr, env: TypeEnv, nest: Nest) -> Access | None:
        """`a[i, j]` or `a[i][j]` of a known array, indexing every axis."""
        original, parts = expr, list[ir.Expr]()
        while isinstance(expr, ir.Subscript):
            index = expr.index
            parts[:0] = list(index.elts) if isinstance(index, ir.Build) and index.kind == "tuple" else [index]
            expr = expr.value
        if not isinstance(expr, ir.Name) or expr.id in self.untracked or expr.id in nest.assigned:
            return None
        if self._list_candidate(expr.id, env, nest):
            return self._list_access(original, expr.id, parts, env, nest)
        known = env.get(expr.id)
        if known is None or known.array is None or len(parts) != known.array.ndim \
                or expr.id not in self.bound.get(id(nest.loop), frozenset()):
            return None
        forms = self._forms(original, parts, env, nest)
        if forms is None:
            return None
        nest.arrays[expr.id] = known.array
        nest.relied |= known.arguments
        return Access(expr.id, forms)

    def _forms(self, original: ir.Expr, parts: list[ir.Expr], env: TypeEnv,
               nest: Nest) -> tuple[Affine, ...] | None:
        """The affine forms of an access's indices, None where one moves with two loops."""
        forms = tuple(self._int_form(part, env, nest) for part in parts)
        moving = [[k[1] for k, _ in form.terms if k[0] == "name" and k[1] in nest.positions()] for form in forms]
        if any(len(names) > 1 for names in moving):
            return None
        axes = [names[0] for names in moving if names]
        if len(set(axes)) != len(axes):
            raise Refused("{} indexes two axes with one loop variable (a diagonal)", original)
        return forms

    def _list_candidate(self, name: str, env: TypeEnv, nest: Nest) -> bool:
        """Whether `name` may hold a Python list (of floats, or of lists of floats): bound
        before the loop, not assigned in it, of no type the version knows but `list` (each
        checked on entry: `lists_as_arrays`)."""
        known = env.get(name)
        return (known is None or known.type is list) and name not in self.untracked \
            and name not in nest.assigned and name in self.bound.get(id(nest.loop), frozenset())

    def _list_access(self, original: ir.Expr, name: str, parts: list[ir.Expr], env: TypeEnv,
                     nest: Nest) -> Access:
        """`c[i][j]` of a list of lists of floats, `a[i]` of a list of floats: an access to
        the float64 array it is converted to (`c[i, j]` would raise TypeError on a list)."""
        chained: ir.Expr = original
        while isinstance(chained, ir.Subscript):
            if isinstance(chained.index, (ir.Build, ir.Slice)):
                raise Refused("{} indexes a list with a tuple or a slice", original)
            chained = chained.value
        if not 1 <= len(parts) <= 2 or nest.lists.setdefault(name, len(parts)) != len(parts):
            raise Refused("{}: a list indexed with 1 and with 2 subscripts", name)
        forms = self._forms(original, parts, env, nest)
        if forms is None:
            raise Refused("{}: an index moves with two loops", original)
        nest.arrays[name] = ir.ArrayKind(np.dtype(np.float64), len(parts), None)
        return Access(name, forms)

    def _element(self, expr: ir.Expr, env: TypeEnv, nest: Nest, temps: dict[str, Known]) -> Known:
        """The type of an element-level expression, refusing what NumPy computes differently."""
        match expr:
            case ir.Const(value) if type(value) in (bool, int, float):
                return Known(type(value))
            case ir.Name(name) if name in temps:
                return temps[name]
            case ir.Name(name) if name in nest.positions():
                raise Refused("uses the loop variable {} as a value", name)
            case ir.Name(name) if name in nest.assigned:
                raise Refused("{} carries a value from one iteration to the next", name)
            case ir.Name(name):
                known = env.get(name)
                if known is None or known.type not in (bool, int, float) \
                        or name not in self.bound.get(id(nest.loop), frozenset()):
                    raise Refused("{}: not a number of known type", name)
                nest.relied |= known.arguments
                return known
            case ir.Subscript():
                access = self._access(expr, env, nest)
                if access is None:
                    raise Refused("reads {}, not an element of a known array", expr)
                if nest.branch:
                    nest.read_masks[len(nest.reads)] = nest.branch
                nest.reads.append((access, len(nest.steps)))
                nest.accesses[id(expr)] = access
                return Known(ir.ArrayKind(nest.arrays[access.array].dtype, 1, None))
            case ir.Op("pow", args):  # `a[i] ** 2.0`: NumPy's power, as `math.pow`
                return self._function_call(expr, np.power, args, env, nest, temps, "**")
            case ir.Op(op, operands) if op in _ARITHMETIC | _BITWISE | {"neg", "invert"}:
                return self._operation(op, expr, [self._element(x, env, nest, temps) for x in operands], nest)
            case ir.Compare(ops, operands) if len(ops) > 1 and all(op in _COMPARISONS for op in ops):
                # `a < b <= c` is `(a < b) & (b <= c)`: `b` read twice, as the same value
                if not all(isinstance(middle, (ir.Name, ir.Subscript, ir.Const)) for middle in operands[1:-1]):
                    raise Refused("{} compares through a computed middle operand", expr)
                kinds = [self._element(ir.Compare((op,), pair), env, nest, temps)
                         for op, pair in zip(ops, itertools.pairwise(operands))]
                return self._typed(ir.Op("bitand", _placeholders(kinds)), kinds, expr)
            case ir.Compare((op,), operands) if op in _COMPARISONS:
                kinds = [self._element(x, env, nest, temps) for x in operands]
                dtypes = [k.array.dtype for k in kinds if k.array is not None]
                if any(dtype.kind == "c" for dtype in dtypes):  # an array of NaN warns, scalars not
                    raise Refused("{} orders complex numbers", expr)
                floats = [dtype for dtype in dtypes if dtype.kind == "f"]
                # a number compared with float32 (float16) elements is cast to them: 2 ** 200 overflows
                nest.may_raise_fp |= any(k.array is None for k in kinds) and any(d != np.float64 for d in floats)
                if floats:
                    self._ints_in_range(operands, kinds, floats[0], nest, compared=True)
                return self._typed(ir.Compare((op,), _placeholders(kinds)), kinds, expr)
            case ir.Call(func, (operand,), ()) if self._builtin(func, builtins.abs, nest):
                kind = self._element(operand, env, nest, temps)
                if kind.array is None or kind.array.dtype not in _FLOAT_DTYPES:
                    raise Refused("abs of something other than a float array element: {}", expr)
                return kind
            case ir.Call(func, args, ()) if (found := array_function(func, self.function, nest)) is not None:
                return self._function_call(expr, found, args, env, nest, temps)
        raise Refused("computes {}, which NumPy's array loops may round differently", expr)

    def _function_call(self, expr: ir.Expr, function: object, args: tuple[ir.Expr, ...], env: TypeEnv,
                       nest: Nest, temps: dict[str, Known], name: str = "") -> Known:
        """`math.exp(a[i])` → `np.exp` of the slices: of float64 elements (and plain numbers),
        a float64 (`math.exp` returns a float: it computes as a float64 but for its type,
        which only a float32 beside it would see, so no such array may be in the nest). A
        function NumPy rounds differently only under fastmath. Computed under
        `floating_point_errors_checked`: where the scalar raises, the array records an error
        and the loop runs (`vectorize_math`)."""
        ufunc, arity, exact = FUNCTIONS[function]
        name = name or function_name(function)
        if len(args) != arity:
            raise Refused("calls {} with {} arguments", name, len(args))
        if not exact and not self.function.fastmath:
            raise Refused("{} on arrays may round differently from {} (last bit): allowed with fastmath=True",
                          ufunc_name(ufunc), name)
        kinds = [self._element(arg, env, nest, temps) for arg in args]
        elements = [kind for kind in kinds if kind.array is not None]
        if not elements or any(kind.array.dtype != np.float64 for kind in elements) or any(  # type: ignore[union-attr]
                kind.array is None and kind.type not in (int, float) for kind in kinds):
            raise Refused("{} of something other than a float64 array element: {}",
                          name.split(".")[-1], expr)
        self._ints_in_range(args, kinds, np.dtype(np.float64), nest)
        nest.array_calls[id(expr)] = ufunc
        if not exact:
            nest.inexact.append(ufunc_name(ufunc))
        nest.may_raise_fp = True
        return elements[0]

    def _operation(self, op: str, expr: ir.Expr, kinds: list[Known], nest: Nest) -> Known:
        result = self._typed(ir.Op(op, _placeholders(kinds)), kinds, expr)
        if result.array is None:
            divisor = expr.args[-1] if isinstance(expr, ir.Op) else None
            if op in _ARITHMETIC - {"truediv"} or op in _BITWISE or op == "truediv" and \
                    isinstance(divisor, ir.Const) and divisor.value:
                if result.type is float and isinstance(expr, ir.Op):  # `s * 2.0`: OverflowError
                    self._ints_in_range(expr.args, kinds, np.dtype(np.float64), nest)  # for a huge int s
                return result  # numbers once instead of once a turn: the same value, no error
            raise Refused("{} on plain numbers may raise", expr)
        dtype = result.array.dtype
        self._ints_in_range(expr.args if isinstance(expr, ir.Op) else (), kinds, dtype, nest)
        divisor = expr.args[-1] if isinstance(expr, ir.Op) else None
        if op == "truediv" and nest.lists and not (isinstance(divisor, ir.Const) and divisor.value):
            raise Refused("divides list elements: a float raises ZeroDivisionError, an array gives inf")
        if op in _ARITHMETIC or op == "neg":
            if dtype not in _FLOAT_DTYPES:
                raise Refused("{}: integer arithmetic warns on overflow as scalars, not as arrays", expr)
            nest.may_raise_fp = nest.may_raise_fp or op in _ARITHMETIC
        elif dtype.kind not in "bui":
            raise Refused("{} on floats", expr)
        return result

    def _ints_in_range(self, operands: tuple[ir.Expr, ...], kinds: list[Known], dtype: np.dtype,
                       nest: Nest, compared: bool = False) -> None:
        """A plain int meeting array elements of `dtype` is converted to it, and raises
        OverflowError out of its range (`a[i] * 10 ** 400`): where the loop would raise only
        at some element (after writes, or never under an `if`), the array code must not
        raise first. A constant must lie in the range, a name is checked on entry. A Python
        float compares with an int exactly, an array converts the int first: beside list
        elements, a compared int lies within ±2**53, where the conversion is exact."""
        low, high = (-1e308, 1e308) if dtype.kind == "f" else \
            (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)) if dtype.kind in "iu" else (0, 1)
        if compared and nest.lists:
            low, high = -2 ** 53, 2 ** 53
        for operand, kind in zip(operands, kinds):
            if kind.array is not None or kind.type is not int:
                continue
            match operand:
                case ir.Const(int() as value) if low <= value <= high:
                    continue
                case ir.Name(name) if name not in nest.assigned:
                    known_low, known_high = nest.int_ranges.get(name, (low, high))
                    nest.int_ranges[name] = (max(low, known_low), min(high, known_high))
                    continue
            raise Refused("{}: an int that may not fit the array's type, {}", operand, str(dtype))

    def _typed(self, expr: ir.Expr, kinds: list[Known], original: ir.Expr) -> Known:
        known = type_of(expr, {f"_{k}": kind for k, kind in enumerate(kinds)})
        if known is None or not (known.type in (bool, int, float) or known.array is not None):
            raise Refused("{}: its type is not known", original)
        if known.array is not None and known.array.dtype.kind == "c":
            raise Refused("{} on complex numbers", original)
        return known

    # ---------------------------------------------------------- dependences

    def _dependences(self, nest: Nest) -> None:
        positions = nest.positions()
        writes = [(index, step) for index, step in enumerate(nest.steps) if isinstance(step, Write)]
        if nest.kept:
            self._accumulated_alone(nest)
        for n, (_, first) in enumerate(writes):
            for _, second in writes[n + 1:]:
                if first.access.array == second.access.array \
                        and distance(first.access, second.access, positions) not in (NEVER, (0,) * len(positions)):
                    raise Refused("{} and {} may write one element in different iterations",
                                  spell_access(first.access), spell_access(second.access))
        for position, (read, before) in enumerate(nest.reads):
            path = nest.read_masks.get(position, ())
            # a read in a branch no earlier conditional write shares (`elif out[i] < lo` after
            # `if out[i] > hi: out[i] = hi`) reads the value before them, as the slices do
            if any(isinstance(step, Write) and step.mask and step.access.array == read.array
                   and not exclusive(step.mask, path) for step in nest.steps[:before]):
                raise Refused("reads {} after a conditional write to it", spell_access(read))
            for _, write in writes:
                if write.access.array != read.array:
                    continue
                moves = distance(write.access, read, positions)
                if moves is None:
                    raise Refused("{} may read what {} wrote in another iteration",
                                  spell_access(read), spell_access(write.access))
                if moves != NEVER and lexicographic_sign(in_iteration_order(moves, nest)) < 0:  # type: ignore[arg-type]
                    raise Refused("loop-carried dependence: {} reads {}",
                                  spell_access(write.access), spell_access(read))

    def _accumulated_alone(self, nest: Nest) -> None:
        """Around loops that stay loops, each written element is read and written only as
        itself: its updates then come in the order of those loops, whatever the others do."""
        for write in nest.writes():
            for other in [read for read, _ in nest.reads] + [w.access for w in nest.writes()]:
                if other.array == write.access.array and other.index != write.access.index:
                    raise Refused("{} is accumulated into while {} is touched",
                                  spell_access(write.access), spell_access(other))

    # ---------------------------------------------------------- the new code

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        """`body` with its loops vectorized where they may be; inside a loop left alone, its
        inner loops are tried."""
        result: list[ir.Stmt] = []
        for stmt in body:
            new = self.visit(stmt)
            if new is None:
                bodies = nested_bodies(stmt)
                new = (with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1]))
                       if bodies else stmt,)
            result.extend(new)
        return unchanged_or_new(body, result)

    def visit(self, stmt: ir.Stmt) -> tuple[ir.Stmt, ...] | None:
        """The array code for a loop nest, or None where it is left as written."""
        if not isinstance(stmt, ir.For) or not _candidate(stmt):
            return None
        env = self.env_before.get(id(stmt))
        if env is None:
            return None
        nest = Nest(stmt, [], ())
        try:
            self._nest(nest, env)
            self._body(nest, env)
            self._dependences(nest)
            self._dead_after(nest)
            self._lists(nest)
            product = self.function.fastmath and not nest.lists and matmul_operands(nest) is not None
            if product:
                nest.inexact.append("np.matmul")
            builder = ListBuilder if nest.lists else ReductionBuilder if nest.total else \
                ProductBuilder if product else Builder
            code = builder(nest, self.taken).build()
        except Refused as refusal:
            if self.arrays or nest.lists or nest.sized_lists:  # (elsewhere, no array is in sight)
                notes.missed(RULE, "not vectorized: " + refusal.template, *refusal.subjects, loc=stmt.loc)
            return None
        self.relied |= nest.relied
        notes.changed(RULE, "vectorize loop {}: {}", _loop_var(stmt), _rule_name(nest), loc=stmt.loc)
        return code

    def _lists(self, nest: Nest) -> None:
        """Lists converted to arrays: never beside NumPy arrays (a float64 element computes as
        a NumPy scalar, a list's as a float: they warn differently), and only where the loop's
        work may outweigh the conversion. A list an access of which moves with every loop
        costs its conversion on every turn (`out[i] = a[i] * 2.0 + b[i]`: ~50 ns a turn
        against ~60 ns converting): such a loop is left alone; the others weigh it on entry."""
        if not nest.lists and not nest.sized_lists:
            return
        if nest.counts():
            raise Refused("counts over Python lists")
        if nest.array_calls:  # (floats raise where arrays give NaN or inf, errors ignored)
            raise Refused("calls functions on list elements")
        if set(nest.arrays) != set(nest.lists):
            raise Refused("mixes Python lists and NumPy arrays")
        innermost = [stmt for stmt in walk_statements((nest.loop,)) if isinstance(stmt, ir.For)][-1]
        nest.turn_cost = cost.turn_cost(innermost.body, self.env_before)
        modes = list_modes(nest)
        every = set(nest.positions())
        per_turn = 0.0
        for name, mode in modes.items():
            accesses = [read for read, _ in nest.reads] + [write.access for write in nest.writes()]
            if any(access.array == name and {term[0] for form in access.index
                                             if (term := loop_term(form, nest.positions()))} == every
                   for access in accesses):
                per_turn += cost.list_element_cost(mode)
        if per_turn >= nest.turn_cost:
            raise Refused("converting lists {} costs {} a turn, the loop {}: would not pay",
                          ", ".join(sorted(nest.lists)),
                          cost.spelled(per_turn), cost.spelled(nest.turn_cost))

    def _dead_after(self, nest: Nest) -> None:
        live = self.live.get(id(nest.loop), frozenset())
        names = [level.var for level in nest.levels] + sorted(nest.temp_names)
        for name in names:
            if name in live:
                raise Refused("{} is read after the loop", name)


def in_iteration_order(moves: Distance, nest: Nest) -> Distance:
    """Distances in loop variables as distances in iterations: a loop stepping by -1 runs
    its larger values first (`a[i] = a[i + 1]` backwards reads what the turn before wrote)."""
    return tuple(move * level.step for move, level in zip(moves, nest.levels))


def _rule_name(nest: Nest) -> str:
    """`element map`, `element map over 2 loops`, `reduction in order over k (loops i, j as
    arrays)`, each followed by `, on lists converted on entry (c, A, B)` for lists;
    `counting reduction into count` (`element map, counting into count` beside writes)."""
    counters = ", ".join(sorted({count.name for count in nest.counts()}))
    names = list(dict.fromkeys(nest.inexact))  # (at most two named: a note is one short line)
    listed = ", ".join(names[:2]) + (f" and {len(names) - 2} more" if len(names) > 2 else "")
    fastmath = f" with {listed} (fastmath: may differ in the last bit)" if names else ""
    if nest.total:
        loops = f" over {len(nest.levels)} loops" if len(nest.levels) > 1 else ""
        return f"sum into {nest.total.name}{loops}{fastmath}"
    if counters and not nest.writes():
        return f"counting reduction into {counters}"
    name = _nest_kind(nest) + (f", counting into {counters}" if counters else "") + fastmath
    return f"{name}, on lists converted on entry ({', '.join(nest.lists)})" if nest.lists else name


def _nest_kind(nest: Nest) -> str:
    vector = nest.vector_levels()
    if not nest.reduced:
        return "element map" if len(vector) == 1 else f"element map over {len(vector)} loops"
    kept = ", ".join(level.var for level in nest.levels if level.var in nest.reduced)
    arrays = ", ".join(level.var for level in vector)
    if "np.matmul" in nest.inexact:
        return f"matrix product over {kept}"
    return f"reduction in order over {kept} (loop{'s' if len(vector) > 1 else ''} {arrays} as arrays)"


def _functions_beside_float64_only(nest: Nest) -> None:
    """`math.exp(a[i]) * b[i]` is a float times a float32 element: a float32 (NEP 50), where
    the arrays would compute a float64: functions only in nests of no other float arrays."""
    if nest.array_calls and any(kind.dtype.kind == "f" and kind.dtype != np.float64
                                for kind in nest.arrays.values()):
        raise Refused("calls {} beside float32 elements", min(map(function_name, nest.array_calls.values())))


def _placeholders(kinds: list[Known]) -> tuple[ir.Expr, ...]:
    return tuple(ir.Name(f"_{k}") for k in range(len(kinds)))


def _statement_kind(stmt: ir.Stmt) -> str:
    """`an if statement`, `a call`: what a body holds that is not an element assignment."""
    words = {ir.If: "an if statement", ir.For: "a loop that is not the whole body",
             ir.While: "a while loop", ir.ExprStmt: "an expression statement (a call?)"}
    return words.get(type(stmt), f"a {type(stmt).__name__} statement")


def _masked_statements(stmt: ir.If) -> bool:
    """Whether every statement of both branches assigns (or augments) one element, counts
    (`count += 1`), or is an `if` (an `elif`) of such statements."""
    return all(isinstance(inner, ir.Assign) and len(inner.targets) == 1
               and isinstance(inner.targets[0], ir.Subscript)
               or isinstance(inner, ir.AugAssign) and isinstance(inner.target, ir.Subscript)
               or _counted(inner) is not None
               or isinstance(inner, ir.If) and _masked_statements(inner)
               for inner in stmt.body + stmt.orelse)


def _counted(stmt: ir.Stmt) -> tuple[str, str, ir.Expr] | None:
    """`count += 3`: the name, the operator and the value of an augmented local (a counter
    if `_count` accepts it)."""
    match stmt:
        case ir.AugAssign(ir.Name(name), op, value):
            return name, op, value
    return None


def _stored(stmt: ir.Stmt) -> tuple[ir.Subscript, ir.Expr]:
    """The element an `_element_writes` statement stores, and its value (`out[i] + x` for
    `out[i] += x`)."""
    match stmt:
        case ir.AugAssign(ir.Subscript() as target, op, value):
            return target, ir.Op(op, (target, value))
        case ir.Assign((ir.Subscript() as target,), value):
            return target, value
    raise Refused("the body holds {}", _statement_kind(stmt))


def _candidate(loop: ir.For) -> bool:
    """Whether the loop is over `range` and assigns an element, or counts under an `if`,
    somewhere, or its innermost body sums elements (`s += a[i]`): a candidate."""
    return (any(isinstance(stmt, (ir.Assign, ir.AugAssign)) and any(
        isinstance(target, ir.Subscript) for target in (
            stmt.targets if isinstance(stmt, ir.Assign) else (stmt.target,)))
        or isinstance(stmt, ir.If) and any(_counted(inner) is not None for inner in stmt.body + stmt.orelse)
        for stmt in walk_statements(loop.body)) or sums_elements(loop)) \
        and isinstance(loop.iter, ir.Call)


def vectorize_loops(function: ir.Function) -> ir.Function:
    """Rewrite the loops over indices that compute elements independently as array code."""
    if not any(isinstance(kind, ir.ArrayKind) for kind in function.argument_types.values()) and not any(
            isinstance(stmt, ir.For) and _candidate(stmt) for stmt in walk_statements(function.body)):
        return function
    if may_reshape_arrays(function):  # `a.shape = ...`, `a.dtype = ...`: the kinds may not hold
        return function
    vectorizer = _Vectorizer(function)
    body = vectorizer.block(function.body)
    if body is function.body:
        return function
    result = function.with_body(body)
    return result.assuming(*type_assumptions(function, vectorizer.relied, "vectorize_loops"))
