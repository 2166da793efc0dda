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
  elements under an `if` on elements (a mask: `np.copyto(out[...], value, where=mask)`);
- every index is one loop variable (coefficient ±1) plus an offset, or fixed; every element read
  and written lies inside its array (checked on entry: else the loop runs and raises, or wraps,
  exactly as written); a written array shares no memory with another array the loop touches;
- no iteration reads what an earlier iteration wrote (Jacobi yes, Gauss-Seidel no; `z[i + 1] =
  f(z[i])` stays a loop), and each element is written by one iteration;
- only operations whose NumPy array loops give the same bits and raise the same way as the
  scalars do: `+ - * /` with a float32/float64 result, comparisons, `& | ^ ~` on ints and
  bools, `abs` and unary minus of floats (integer `+ - *` are left alone: a NumPy integer
  scalar warns on overflow, an array wraps silently);
- warnings: the element values are computed with NumPy's floating-point errors recorded, not
  reported; if any the error state would report was raised (by default overflow, division by
  zero, invalid), nothing has been written and the loop runs as written, so it warns or raises
  exactly as the original;
- the loop variables and scalar locals are not read after the loop (so their last values do
  not matter).

Example::

    def smooth(out: "float64[n]", u: "float64[n]", n: int):
        for i in range(1, n - 1):
            out[i] = (u[i - 1] + u[i + 1]) * 0.5
    # --- after vectorize_loops ---
    def smooth(out: "float64[n]", u: "float64[n]", n: int):
        vectorized = False
        if range is range_2 and 1 < n - 1 and n - 1 < u.shape[0] and not may_share_memory(out, u):
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
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from .. import ir
from ..analysis.subscripts import (
    NEVER,
    Access,
    Affine,
    AtomKey,
    affine,
    distance,
    lexicographic_sign,
    loop_term,
    to_expr,
)
from ..analysis.value_types import Known, TypeEnv, type_assumptions, type_of, types_before
from ..ir.names import (
    all_names,
    assigned_names,
    bound_on_entry,
    fresh_name,
    live_after,
    untracked_names,
)
from ..ir.rewrite import nested_bodies, unchanged_or_new, walk_statements, with_bodies
from . import notes

RULE = "vectorize"
_FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_ARITHMETIC = frozenset({"add", "sub", "mul", "truediv"})
_BITWISE = frozenset({"bitand", "bitor", "bitxor"})
_COMPARISONS = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})


def floating_point_errors_recorded() -> Iterator[list[str]]:
    """Run the body of a `for` over this once, with the floating-point errors NumPy would
    report now (those the error state does not ignore: by default overflow, division by zero
    and invalid, not underflow) recorded in the list it yields (`['overflow']`) instead of
    reported. The error state is restored when the body ends, and when it raises (the
    generator is closed as the loop is left)."""
    seen: list[str] = []
    modes = {kind: "ignore" if mode == "ignore" else "call" for kind, mode in np.geterr().items()}
    with np.errstate(call=lambda kind, _flag: seen.append(kind), **modes):  # type: ignore[arg-type]
        yield seen


class Refused(Exception):
    """A loop left as written: why, as a note's template and subjects (IR or text)."""

    def __init__(self, template: str, *subjects: notes.Subject) -> None:
        super().__init__(template)
        self.template = template
        self.subjects = subjects


@dataclass(frozen=True)
class _Level:
    """One loop of the nest: `for var in range(start, stop, step)`."""

    var: str
    start: Affine
    stop: Affine
    step: int

    def last(self) -> Affine:
        """The variable's last value (steps are ±1), when the range is not empty."""
        return self.stop.shifted(-self.step)


@dataclass
class _Write:
    access: Access
    value: ir.Expr  # the element value stored (for `+=`, the whole `out[i] + x`)
    kind: Known
    loc: ir.Loc
    # under `if test:` (False) or its `else:` (True): the test, and whether it is negated
    mask: tuple[ir.Expr, bool] | None = None


@dataclass
class _Nest:
    loop: ir.For
    levels: list[_Level]
    body: tuple[ir.Stmt, ...]
    steps: list[tuple[str, ir.Expr, Known] | _Write] = field(default_factory=list)
    arrays: dict[str, ir.ArrayKind] = field(default_factory=dict)
    reads: list[tuple[Access, int]] = field(default_factory=list)  # and how many steps came before
    checked_ints: set[str] = field(default_factory=set)
    builtins_read: dict[str, object] = field(default_factory=dict)
    relied: set[str] = field(default_factory=set)
    may_raise_fp: bool = False
    temps: dict[str, Known] = field(default_factory=dict)  # the scalar locals of the body
    assigned: set[str] = field(default_factory=set)  # every name the nest assigns


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

    # ------------------------------------------------------------------ the nest

    def _builtin(self, expr: ir.Expr, value: object, nest: _Nest) -> bool:
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

    def _nest(self, loop: ir.For, env: TypeEnv) -> _Nest:
        nest = _Nest(loop, [], ())
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
        return nest

    def _level(self, stmt: ir.For, env: TypeEnv, nest: _Nest) -> _Level:
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
        return _Level(var, start, stop, step.const)

    def _int_form(self, expr: ir.Expr, env: TypeEnv, nest: _Nest) -> Affine:
        form = affine(expr, lambda atom: self._atom(atom, env, nest))
        if form is None:
            raise Refused("index or bound {} is not affine in the loop variables", expr)
        return form

    def _atom(self, expr: ir.Expr, env: TypeEnv, nest: _Nest) -> AtomKey | None:
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
                return self._extent(array, 0, env, nest, expr)
            case ir.Subscript(ir.Attribute(ir.Name(array), "shape"), ir.Const(int() as axis)):
                return self._extent(array, axis, env, nest, expr)
        return None

    def _extent(self, array: str, axis: int, env: TypeEnv, nest: _Nest, expr: ir.Expr) -> AtomKey | None:
        known = env.get(array)
        kind = known.array if known is not None else None
        if kind is None or not 0 <= axis < kind.ndim:
            return None
        nest.relied |= known.arguments  # type: ignore[union-attr]
        if kind.shape is not None:
            return ("dim", kind.shape[axis])
        return ("expr", expr)

    # ------------------------------------------------------------------ the body

    def _body(self, nest: _Nest, env: TypeEnv) -> None:
        temps: dict[str, Known] = {}
        for stmt in nest.body:
            match stmt:
                case ir.Assign((ir.Name(name),), value) if name not in self.untracked \
                        and name not in nest.arrays and name not in {lv.var for lv in nest.levels}:
                    kind = self._element(value, env, nest, temps)
                    temps[name] = kind
                    nest.steps.append((name, value, kind))
                case ir.Assign((ir.Subscript() as target,), value):
                    self._write(target, value, env, nest, temps, stmt.loc)
                case ir.AugAssign(ir.Subscript() as target, op, value):
                    self._write(target, ir.Op(op, (target, value)), env, nest, temps, stmt.loc)
                case ir.If(test, then, orelse) if _element_writes(then + orelse):
                    condition = self._element(test, env, nest, temps)
                    if condition.array is None or condition.array.dtype != np.dtype(bool):
                        raise Refused("the test {} is not a comparison of elements", test)
                    for branch, negated in ((then, False), (orelse, True)):
                        for inner in branch:
                            target, value = _stored(inner)
                            self._write(target, value, env, nest, temps, inner.loc, (test, negated))
                case _:
                    raise Refused("the body holds {}", _statement_kind(stmt))
        nest.temps = temps

    def _write(self, target: ir.Subscript, value: ir.Expr, env: TypeEnv, nest: _Nest,
               temps: dict[str, Known], loc: ir.Loc, mask: tuple[ir.Expr, bool] | None = None) -> None:
        access = self._access(target, env, nest)
        if access is None:
            raise Refused("writes {}, not an element of a known array", target)
        kind = self._element(value, env, nest, temps)
        self._storable(kind, nest.arrays[access.array], target)
        order = [loop_term(form, self._positions(nest)) for form in access.index]
        moving = [term[0] for term in order if term is not None]
        if moving != [level.var for level in nest.levels] or any(abs(t[1]) != 1 for t in order if t):
            raise Refused("{} is not written once per iteration in loop order", target)
        nest.steps.append(_Write(access, value, kind, loc, mask))

    def _storable(self, kind: Known, array: ir.ArrayKind, target: ir.Expr) -> None:
        dtype = kind.array.dtype if kind.array is not None else None
        if dtype == array.dtype or kind.type is float and array.dtype in _FLOAT_DTYPES:
            return
        raise Refused("stores a value of another type into {}", target)

    def _positions(self, nest: _Nest) -> dict[str, int]:
        return {level.var: position for position, level in enumerate(nest.levels)}

    def _access(self, expr: ir.Expr, env: TypeEnv, nest: _Nest) -> Access | None:
        """`a[i, j]` or `a[i][j]` of a known array, indexing every axis."""
        parts: list[ir.Expr] = []
        while isinstance(expr, ir.Subscript):
            index = expr.index
            parts[:0] = list(index.elts) if isinstance(index, ir.Build) and index.kind == "tuple" else [index]
            expr = expr.value
        if not isinstance(expr, ir.Name) or expr.id in self.untracked or expr.id in nest.assigned:
            return None
        known = env.get(expr.id)
        if known is None or known.array is None or len(parts) != known.array.ndim \
                or expr.id not in self.bound.get(id(nest.loop), frozenset()):
            return None
        forms = tuple(self._int_form(part, env, nest) for part in parts)
        if any(len([k for k, _ in form.terms if k[0] == "name" and k[1] in self._positions(nest)]) > 1
               for form in forms):
            return None
        nest.arrays[expr.id] = known.array
        nest.relied |= known.arguments
        return Access(expr.id, forms)

    def _element(self, expr: ir.Expr, env: TypeEnv, nest: _Nest, temps: dict[str, Known]) -> Known:
        """The type of an element-level expression, refusing what NumPy computes differently."""
        match expr:
            case ir.Const(value) if type(value) in (bool, int, float):
                return Known(type(value))
            case ir.Name(name) if name in temps:
                return temps[name]
            case ir.Name(name) if name in self._positions(nest):
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
                nest.reads.append((access, len(nest.steps)))
                return Known(ir.ArrayKind(nest.arrays[access.array].dtype, 1, None))
            case ir.Op(op, operands) if op in _ARITHMETIC | _BITWISE | {"neg", "invert"}:
                return self._operation(op, expr, [self._element(x, env, nest, temps) for x in operands], nest)
            case ir.Compare((op,), operands) if op in _COMPARISONS:
                kinds = [self._element(x, env, nest, temps) for x in operands]
                return self._typed(ir.Compare((op,), _placeholders(kinds)), kinds, expr)
            case ir.Call(func, (operand,), ()) if self._builtin(func, builtins.abs, nest):
                kind = self._element(operand, env, nest, temps)
                if kind.array is None or kind.array.dtype not in _FLOAT_DTYPES:
                    raise Refused("abs of something other than a float array element: {}", expr)
                return kind
        raise Refused("computes {}, which NumPy's array loops may round differently", expr)

    def _operation(self, op: str, expr: ir.Expr, kinds: list[Known], nest: _Nest) -> Known:
        result = self._typed(ir.Op(op, _placeholders(kinds)), kinds, expr)
        if result.array is None:
            divisor = expr.args[-1] if isinstance(expr, ir.Op) else None
            if op in _ARITHMETIC - {"truediv"} or op in _BITWISE or op == "truediv" and \
                    isinstance(divisor, ir.Const) and divisor.value:
                return result  # numbers once instead of once a turn: the same value, no error
            raise Refused("{} on plain numbers may raise", expr)
        dtype = result.array.dtype
        if op in _ARITHMETIC or op == "neg":
            if dtype not in _FLOAT_DTYPES:
                raise Refused("{}: integer arithmetic warns on overflow as scalars, not as arrays", expr)
            nest.may_raise_fp = nest.may_raise_fp or op in _ARITHMETIC
        elif dtype.kind not in "bui":
            raise Refused("{} on floats", expr)
        return result

    def _typed(self, expr: ir.Expr, kinds: list[Known], original: ir.Expr) -> Known:
        known = type_of(expr, {f"_{k}": kind for k, kind in enumerate(kinds)})
        if known is None or not (known.type in (bool, int, float) or known.array is not None):
            raise Refused("{}: its type is not known", original)
        if known.array is not None and known.array.dtype.kind == "c":
            raise Refused("{} on complex numbers", original)
        return known

    # ---------------------------------------------------------- dependences

    def _dependences(self, nest: _Nest) -> None:
        positions = self._positions(nest)
        writes = [(index, step) for index, step in enumerate(nest.steps) if isinstance(step, _Write)]
        for n, (_, first) in enumerate(writes):
            for _, second in writes[n + 1:]:
                if first.access.array == second.access.array \
                        and distance(first.access, second.access, positions) not in (NEVER, (0,) * len(positions)):
                    raise Refused("{} and {} may write one element in different iterations",
                                  _spell_access(first.access), _spell_access(second.access))
        for read, before in nest.reads:
            if any(isinstance(step, _Write) and step.mask and step.access.array == read.array
                   for step in nest.steps[:before]):
                raise Refused("reads {} after a conditional write to it", _spell_access(read))
            for _, write in writes:
                if write.access.array != read.array:
                    continue
                moves = distance(write.access, read, positions)
                if moves is None:
                    raise Refused("{} may read what {} wrote in another iteration",
                                  _spell_access(read), _spell_access(write.access))
                if moves != NEVER and lexicographic_sign(moves) < 0:  # type: ignore[arg-type]
                    raise Refused("loop-carried dependence: {} reads {}",
                                  _spell_access(write.access), _spell_access(read))

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
        if not isinstance(stmt, ir.For) or not _writes_elements(stmt):
            return None
        env = self.env_before.get(id(stmt))
        if env is None:
            return None
        try:
            nest = self._nest(stmt, env)
            self._body(nest, env)
            self._dependences(nest)
            self._dead_after(nest)
            code = _Builder(self, nest).build()
        except Refused as refusal:
            notes.missed(RULE, "not vectorized: " + refusal.template, *refusal.subjects, loc=stmt.loc)
            return None
        self.relied |= nest.relied
        kind = "element map" if len(nest.levels) == 1 else f"element map over {len(nest.levels)} loops"
        notes.changed(RULE, "vectorize loop {}: {}", _loop_var(stmt), kind, loc=stmt.loc)
        return code

    def _dead_after(self, nest: _Nest) -> None:
        live = self.live.get(id(nest.loop), frozenset())
        names = [level.var for level in nest.levels] + list(nest.temps)
        for name in names:
            if name in live:
                raise Refused("{} is read after the loop", name)


class _Builder:
    """The guarded array code for a nest the vectorizer accepted."""

    def __init__(self, vectorizer: _Vectorizer, nest: _Nest) -> None:
        self.v = vectorizer
        self.nest = nest
        self.positions = vectorizer._positions(nest)
        self.temps: dict[str, str] = {}

    def build(self) -> tuple[ir.Stmt, ...]:
        loc = self.nest.loop.loc
        flag = fresh_name("vectorized", self.v.taken)
        compute, commit = self._statements()
        if self.nest.may_raise_fp:
            errors = fresh_name("fp_errors", self.v.taken)
            watch = ir.For(ir.Name(errors), ir.Call(ir.Const(floating_point_errors_recorded), ()),
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
        compute: list[ir.Stmt] = []
        commit: list[ir.Stmt] = []
        written: dict[tuple[str, tuple[Affine, ...]], str] = {}
        masks: dict[int, str] = {}  # by the test's identity: the name of its computed mask
        for step in self.nest.steps:
            if isinstance(step, _Write):
                if step.mask is not None and id(step.mask[0]) not in masks:
                    masks[id(step.mask[0])] = fresh_name("mask", self.v.taken)
                    compute.append(ir.Assign((ir.Name(masks[id(step.mask[0])]),),
                                             self._vector(step.mask[0], written), step.loc))
                value = self._vector(step.value, written)
                temp = fresh_name(f"{step.access.array}_new", self.v.taken)
                compute.append(ir.Assign((ir.Name(temp),), value, step.loc))
                view = self._view(step.access, target=True)
                if step.mask is None:
                    written[(step.access.array, step.access.index)] = temp
                    commit.append(ir.Assign((view,), ir.Name(temp), step.loc))
                    continue
                where: ir.Expr = ir.Name(masks[id(step.mask[0])])
                where = ir.Op("invert", (where,)) if step.mask[1] else where
                commit.append(ir.ExprStmt(ir.Call(ir.Const(np.copyto), (view, ir.Name(temp)),
                                                  (ir.Keyword("where", where),)), step.loc))
            else:
                name, value, _ = step
                self.temps[name] = fresh_name(name, self.v.taken)
                compute.append(ir.Assign((ir.Name(self.temps[name]),), self._vector(value, written),
                                         self.nest.loop.loc))
        return compute, commit

    def _vector(self, expr: ir.Expr, written: dict[tuple[str, tuple[Affine, ...]], str]) -> ir.Expr:
        match expr:
            case ir.Name(name) if name in self.temps:
                return ir.Name(self.temps[name])
            case ir.Subscript():
                access = self.v._access(expr, self.v.env_before[id(self.nest.loop)], self.nest)
                assert access is not None
                temp = written.get((access.array, access.index))
                return ir.Name(temp) if temp is not None else self._view(access)
            case ir.Op(op, args):
                return ir.Op(op, tuple(self._vector(arg, written) for arg in args))
            case ir.Compare(ops, operands):
                return ir.Compare(ops, tuple(self._vector(x, written) for x in operands))
            case ir.Call(func, args, ()):
                return ir.Call(func, tuple(self._vector(arg, written) for arg in args))
        return expr

    def _view(self, access: Access, target: bool = False) -> ir.Expr:
        """The slices of `access` over the nest, with axes in loop order (transposed and
        with new axes for the loops it does not move with) for reads."""
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
        level = self.nest.levels[self.positions[var]]
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
        checks: list[ir.Expr] = []
        for name, value in self.nest.builtins_read.items():
            checks.append(ir.Compare(("is",), (ir.Name(name), ir.Const(value))))
        for name in sorted(self.nest.checked_ints):
            checks.append(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)), ir.Const(int))))
        for level in self.nest.levels:
            low, high = (level.start, level.stop) if level.step > 0 else (level.stop, level.start)
            checks += _less(low, high)
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
        checks += self._apart()
        unique: list[ir.Expr] = []
        for check in checks:
            if check not in unique:
                unique.append(check)
        return unique[0] if len(unique) == 1 else ir.BoolOp("and", tuple(unique)) if unique else ir.Const(True)

    def _accesses(self) -> list[Access]:
        found = [read for read, _ in self.nest.reads]
        found += [step.access for step in self.nest.steps if isinstance(step, _Write)]
        return found

    def _ends(self, access: Access) -> list[tuple[Affine, Affine | None]]:
        """What keeps `access` inside its array: each moving index's least value (`0 <= x`,
        paired with None) and greatest (`x < extent`) over its range (the index moves
        monotonically); each fixed index within `-extent <= k < extent`."""
        kind = self.nest.arrays[access.array]
        ends: list[tuple[Affine, Affine | None]] = []
        for axis, form in enumerate(access.index):
            key: AtomKey = ("dim", kind.shape[axis]) if kind.shape is not None \
                else ("expr", (access.array, axis))
            extent = _atom_form(key, ir.Subscript(ir.Attribute(ir.Name(access.array), "shape"),
                                                  ir.Const(axis)))
            term = loop_term(form, self.positions)
            if term is None:
                ends += [(form.plus(extent), None), (form, extent)]
                continue
            var, coefficient = term
            level = self.nest.levels[self.positions[var]]
            offset = form.without(("name", var))
            first = offset.plus(level.start, coefficient)
            last = offset.plus(level.last(), coefficient)
            low, high = (first, last) if coefficient * level.step > 0 else (last, first)
            ends += [(low, None), (high, extent)]
        return ends

    def _apart(self) -> list[ir.Expr]:
        written = {step.access.array for step in self.nest.steps if isinstance(step, _Write)}
        checks: list[ir.Expr] = []
        for target in sorted(written):
            for other in sorted(self.nest.arrays):
                if other != target and not (other in written and other < target):
                    share = ir.Call(ir.Const(np.may_share_memory), (ir.Name(target), ir.Name(other)))
                    checks.append(ir.Op("not", (share,)))
        return checks


def _atom_form(key: AtomKey, expr: ir.Expr) -> Affine:
    return Affine(0, ((key, 1),), ((key, expr),))


def _less(low: Affine, high: Affine) -> list[ir.Expr]:
    """`low < high` (spelled `0 <= x` for `-1 < x`), or nothing where their difference shows
    it (a positive constant); a difference that can never be positive leaves a false check."""
    gap = high.plus(low, -1)
    if gap.is_const and gap.const > 0:
        return []
    if low.is_const and low.const == -1:
        return [ir.Compare(("le",), (ir.Const(0), to_expr(high)))]
    return [ir.Compare(("lt",), (to_expr(low), to_expr(high)))]


def _placeholders(kinds: list[Known]) -> tuple[ir.Expr, ...]:
    return tuple(ir.Name(f"_{k}") for k in range(len(kinds)))


def _spell_access(access: Access) -> str:
    return f"{access.array}[{', '.join(map(_affine_text, access.index))}]"


def _affine_text(form: Affine) -> str:
    """`i + 1`, `n - 2 * j`: an affine form as Python spells it."""
    parts: list[str] = []
    atoms = dict(form.atoms)
    for key, coefficient in form.terms:
        text = _atom_text(atoms[key])
        text = text if abs(coefficient) == 1 else f"{abs(coefficient)} * {text}"
        if not parts:
            parts.append(text if coefficient > 0 else f"-{text}")
        else:
            parts.append(f"{'+' if coefficient > 0 else '-'} {text}")
    if form.const or not parts:
        parts.append(str(form.const) if not parts else f"{'-' if form.const < 0 else '+'} {abs(form.const)}")
    return " ".join(parts)


def _atom_text(expr: ir.Expr) -> str:
    match expr:
        case ir.Call(_, (ir.Name(array),), ()):
            return f"len({array})"
        case ir.Subscript(ir.Attribute(ir.Name(array), "shape"), ir.Const(axis)):
            return f"{array}.shape[{axis}]"
    return ir.format_expr(expr)


def _statement_kind(stmt: ir.Stmt) -> str:
    """`an if statement`, `a call`: what a body holds that is not an element assignment."""
    words = {ir.If: "an if statement", ir.For: "a loop that is not the whole body",
             ir.While: "a while loop", ir.ExprStmt: "an expression statement (a call?)"}
    return words.get(type(stmt), f"a {type(stmt).__name__} statement")


def _element_writes(body: tuple[ir.Stmt, ...]) -> bool:
    """Whether every statement of `body` assigns (or augments) one element."""
    return all(isinstance(stmt, ir.Assign) and len(stmt.targets) == 1
               and isinstance(stmt.targets[0], ir.Subscript)
               or isinstance(stmt, ir.AugAssign) and isinstance(stmt.target, ir.Subscript)
               for stmt in body)


def _stored(stmt: ir.Stmt) -> tuple[ir.Subscript, ir.Expr]:
    """The element an `_element_writes` statement stores, and its value (`out[i] + x` for
    `out[i] += x`)."""
    match stmt:
        case ir.AugAssign(ir.Subscript() as target, op, value):
            return target, ir.Op(op, (target, value))
        case ir.Assign((ir.Subscript() as target,), value):
            return target, value
    raise Refused("the body holds {}", _statement_kind(stmt))


def _writes_elements(loop: ir.For) -> bool:
    """Whether the loop is over `range` and assigns an element somewhere: a candidate."""
    return any(isinstance(stmt, (ir.Assign, ir.AugAssign)) and any(
        isinstance(target, ir.Subscript) for target in (
            stmt.targets if isinstance(stmt, ir.Assign) else (stmt.target,)))
        for stmt in walk_statements(loop.body)) and isinstance(loop.iter, ir.Call)


def vectorize_loops(function: ir.Function) -> ir.Function:
    """Rewrite the loops over indices that compute elements independently as array code."""
    if not any(isinstance(kind, ir.ArrayKind) for kind in function.argument_types.values()):
        return function
    vectorizer = _Vectorizer(function)
    body = vectorizer.block(function.body)
    if body is function.body:
        return function
    result = function.with_body(body)
    return result.assuming(*type_assumptions(function, vectorizer.relied, "vectorize_loops"))
