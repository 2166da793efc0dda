"""eliminate_temporaries: compute NumPy expressions into arrays they made themselves.

`2*a + 3*b*b - c/(1+d)` on arrays makes six arrays, one per operation, and frees each once it
is used. This pass evaluates such an expression one operation at a time, and an operation
whose operand is an array made earlier in the statement (or a local at its last read) writes
its result over that operand (`t *= b`, `maximum(t, 0, out=t)`), or into an array an earlier
operation has finished with (`add(1, d, out=t_2)`). The operations, their operands and their
order stay the same, so every value is bit for bit what it was; only fewer, reused arrays
hold them.

An operation is computed into an array only where `value_types` proves it: every operand is a
`numpy.ndarray` or a Python number, and the result has the array's dtype (NumPy's own
resolution, NEP 50), dimensions and shape (so broadcasting cannot enlarge it) and, from
2-D up, C-contiguous layout. The proof rests on the arguments' kinds, which the compiled version
checks on entry. The arrays written are only those the function made by an operation and reads
nowhere but as operands of operations: never an argument, a global, a view, or an array that
is stored, returned or passed on.

An operation is computed into an operand only where NumPy gives the same bits there
(`arrays.exact_in_place`): `+ - * /`, `sqrt`, `maximum`... on real floats (correctly rounded by
IEEE 754), the exact integer and bitwise ones, and unary ones such as `exp` and `log`, whose
loops may differ but which NumPy runs in place as for a new array. Not complex `*` (one-element
arrays were seen to differ). A power only as `t **= 2`, which NumPy computes by squaring
exactly as it does `t ** 2` (`power(t, 2, out=t)` would not take that shortcut). Any ufunc
may compute into a spare array of its result's kind that is none of its operands
(`exp(t, out=t_2)`: NumPy then runs the loop a new array gets); one not exact in every loop
prefers that to its operand, so the result is the array made last, as in the original. Before
an operation makes a new array, the arrays no operation needs any more are freed (`del t_2`):
kept alive, they make glibc trim and regrow its heap on every call (issue 11).

It runs once, after the other passes have settled (see `pipeline.RUN_LAST`): it lowers
expressions into statements, which the other passes would only put back together.

In the example, the annotations stand for the argument kinds the version is compiled for:
1-D float64 arrays of one shape (`n`).

Example::

    def f(a: "float64[n]", b: "float64[n]", c: "float64[n]", d: "float64[n]"):
        return 2 * a + 3 * b * b - c / (1 + d)
    # --- after eliminate_temporaries ---
    def f(a: "float64[n]", b: "float64[n]", c: "float64[n]", d: "float64[n]"):
        t = 2 * a
        t_2 = 3 * b
        t_2 *= b
        t += t_2
        add(1, d, out=t_2)
        divide(c, t_2, out=t_2)
        t -= t_2
        return t
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field

from .. import ir
from ..analysis.arrays import (
    array_operation,
    exact_in_any_loop,
    exact_in_place,
    holds_result,
    may_hold_arrays,
    may_reshape_arrays,
    private_arrays,
    reduced,
)
from ..analysis.value_types import (
    Known,
    TypeEnv,
    type_assumptions,
    type_of,
    types_before,
)
from ..ir.names import (
    all_names,
    assigned_names,
    bound_on_entry,
    fresh_name,
    introspects,
    is_quiet,
    live_after,
    statement_reads,
    untracked_names,
)
from ..ir.rewrite import nested_bodies, rename, unchanged_or_new, walk_expr, with_bodies
from . import notes


@dataclass
class _Statement:
    """The lowering of one statement: what it emits and which arrays it may overwrite."""

    env: TypeEnv
    loc: ir.Loc
    bound: frozenset[str]  # locals certainly bound when the statement starts
    dying: set[str]  # private locals not read after the statement
    reads_left: Counter[str]  # their reads still to come within the statement
    emitted: list[ir.Stmt] = field(default_factory=list)
    owned: dict[str, Known] = field(default_factory=dict)  # arrays free to overwrite
    made: list[str] = field(default_factory=list)  # new names, in order
    spare: list[str] = field(default_factory=list)  # owned arrays no operation needs any more
    freed: list[str] = field(default_factory=list)  # spare arrays freed within the statement
    in_place: int = 0
    relied: set[str] = field(default_factory=set)


class _Lowering:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.types = types_before(function)
        self.live = live_after(function)
        self.private = private_arrays(function)
        self.excluded = untracked_names(function)
        self.taken = all_names(function)
        self.bound = bound_on_entry(function)
        self.relied: set[str] = set()
        # a `del` is code `objects` cannot see through: in a compiled object's method it would
        # cost the inlined structure, so dead arrays there are freed only after statements
        self.free_early = not function.resolve_objects

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            bodies = nested_bodies(stmt)
            if bodies:
                result.append(with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1])))
            else:
                result += self.statement(stmt)
        return unchanged_or_new(body, result)

    def statement(self, stmt: ir.Stmt) -> list[ir.Stmt]:
        """`stmt` lowered (or as it is), then freeing the arrays of private locals it read
        for the last time, as the original frees a temporary once it is used."""
        lowered, freed = self._lowered(stmt)
        env = self.types.get(id(stmt), {})
        bound = self.bound.get(id(stmt), frozenset())
        dying = sorted(name for name in statement_reads(stmt) & self.private
                       if name not in self.live.get(id(stmt), frozenset()) and name in bound
                       and name not in assigned_names(stmt) and name not in freed
                       and (known := env.get(name)) is not None and known.array is not None)
        if not dying or isinstance(stmt, ir.Return):
            return lowered
        notes.changed("free", "free {} after its last use", ", ".join(dying), loc=stmt.loc)
        return [*lowered, _freeing(dying, stmt.loc)]

    def _lowered(self, stmt: ir.Stmt) -> tuple[list[ir.Stmt], list[str]]:
        """`stmt` lowered, and the private locals it freed on the way."""
        match stmt:
            case ir.Assign((ir.Name(target),), value) if target not in self.excluded:
                roots: tuple[ir.Expr, ...] = (value,)
            case ir.Return(ir.Build("tuple", elts)):
                roots = elts
            case ir.Return(value) if value is not None:
                roots = (value,)
            case _:
                return [stmt], []
        env = self.types.get(id(stmt), {})
        if not any(_is_array_operation(root, env) for root in roots):
            return [stmt], []
        reads = Counter(node.id for root in roots for node in walk_expr(root)
                        if isinstance(node, ir.Name) and node.id in self.private)
        work = _Statement(env, stmt.loc, self.bound.get(id(stmt), frozenset()), set(reads) - self.live.get(id(stmt), frozenset()), reads)
        # an item of a returned tuple that is no operation stays where it is only if no
        # operation of a later item would then run before it
        results = [self.lower(root, work, last=not any(_is_array_operation(later, env)
                                                       for later in roots[index + 1:]))
                   for index, root in enumerate(roots)]
        if not work.in_place:
            return [stmt], []
        notes.changed("compute in place", "compute in place ×{}" if work.in_place > 1 else
                      "compute in place", work.in_place, loc=stmt.loc)
        self.relied |= work.relied
        return self._finish(stmt, results, work), work.freed

    def _finish(self, stmt: ir.Assign | ir.Return, results: list[ir.Expr], work: _Statement) -> list[ir.Stmt]:
        emitted = work.emitted
        if isinstance(stmt, ir.Assign) and isinstance(stored := stmt.targets[0], ir.Name):
            target = stored.id
            result = results[0]
            read_in_value = any(isinstance(node, ir.Name) and node.id == target
                                for node in walk_expr(stmt.value))
            if isinstance(result, ir.Name) and result.id in work.made and not read_in_value:
                emitted = list(rename(tuple(emitted), {result.id: target}))
            elif result != ir.Name(target):
                emitted.append(ir.Assign((ir.Name(target),), result, stmt.loc))
            released = [name for name in work.made
                        if ir.Name(name) != result and name not in work.freed]
            if released:
                emitted.append(_freeing(released, stmt.loc))
            return emitted
        returned = stmt.value
        value = ir.Build("tuple", tuple(results)) if isinstance(returned, ir.Build) else results[0]
        return [*emitted, ir.Return(value, stmt.loc)]

    def lower(self, expr: ir.Expr, work: _Statement, last: bool = False) -> ir.Expr:
        """`expr` as an operand: its operations emitted as statements, computed into owned
        arrays where they can be; `last` if nothing after it in the statement is evaluated
        before it is used."""
        found = array_operation(expr)
        known = type_of(expr, work.env)
        if found is None or known is None or known.array is None:
            return self._operand(expr, work, last)
        ufunc, args = found
        later_operation = [any(_is_array_operation(arg, work.env) for arg in args[i + 1:])
                           for i in range(len(args))]
        operands = [self.lower(arg, work, not later_operation[i]) for i, arg in enumerate(args)]
        for arg in args:
            read = reduced(arg) or arg  # `e / sum(e)`: the sum is done before the division runs
            if isinstance(read, ir.Name) and read.id in work.reads_left:
                self._used(read.id, work)
        kind = known.array
        usable = ufunc is not None and kind.shape is not None and kind.contiguous \
            and exact_in_place(ufunc, kind)
        owned = [op for op in operands if isinstance(op, ir.Name) and op.id in work.owned]
        reused = next((op.id for op in owned if usable and work.owned[op.id].type == kind), None)
        is_power = isinstance(expr, ir.Op) and expr.op == "pow"
        if is_power and (reused is None or operands[0] != ir.Name(reused) or operands[1] != ir.Const(2)):
            reused = None  # only `t **= 2`: NumPy squares, as for `t ** 2` (not `power(t, 2)`)
        spare = self._spare_for(kind, work) if holds_result(ufunc, kind) else None
        # an operation exact in any loop writes over its operand, any other into a spare array
        # if there is one (none of its operands), the one made last: the result is then the
        # array made last, as in the original, which keeps glibc from trimming the heap
        prefer_spare = ufunc is not None and not exact_in_any_loop(ufunc, kind)
        out = (spare or reused) if prefer_spare else (reused or spare)
        if out is None and self.free_early:
            self._free_spare(work)
        for op in owned:  # (`t <= t` uses t twice: it is spare once)
            if op.id != out and op.id not in work.spare:
                work.spare.append(op.id)
        if out in work.spare:
            work.spare.remove(out)
        loc = work.loc
        if out is None:
            name = fresh_name("t", self.taken)
            work.made.append(name)
            work.emitted.append(ir.Assign((ir.Name(name),), _rebuilt(expr, tuple(operands)), loc))
            work.owned[name] = known
            return ir.Name(name)
        if isinstance(expr, ir.Op) and len(operands) == 2 and operands[0] == ir.Name(out):
            work.emitted.append(ir.AugAssign(ir.Name(out), expr.op, operands[1], loc))
        else:
            call = ir.Call(ir.Const(ufunc), tuple(operands), (ir.Keyword("out", ir.Name(out)),))
            work.emitted.append(ir.ExprStmt(call, loc))
        # what the result's kind rests on, and the kind of the array it is written into
        work.relied |= known.arguments | work.owned[out].arguments
        work.owned[out] = known
        work.in_place += 1
        return ir.Name(out)

    @staticmethod
    def _spare_for(kind: ir.ArrayKind, work: _Statement) -> str | None:
        """The spare array of kind `kind` made last in the statement (else a dying local's)."""
        fitting = [name for name in work.spare if work.owned[name].type == kind]
        return max(fitting, key=lambda name: work.made.index(name) if name in work.made else -1,
                   default=None)

    @staticmethod
    def _free_spare(work: _Statement) -> None:
        """Before an operation makes a new array, free the arrays no operation needs any more
        (`del t_2`): held, they make the allocator return memory and fault it back in."""
        if work.spare:
            work.emitted.append(_freeing(list(work.spare), work.loc))
            for name in work.spare:
                del work.owned[name]
            work.freed += work.spare
            work.spare.clear()

    @staticmethod
    def _used(name: str, work: _Statement) -> None:
        """An operation about to run uses the private local `name`: once no operation left in
        the statement uses it (loading the name is not using its array: `k * (1 + k * 2)`
        multiplies by k last), a dying local's array is free to overwrite."""
        work.reads_left[name] -= 1
        known = work.env.get(name)
        if not work.reads_left[name] and name in work.dying and known is not None \
                and known.array is not None:
            work.owned[name] = known

    def _operand(self, expr: ir.Expr, work: _Statement, last: bool) -> ir.Expr:
        """An operand that is not an array operation: kept in place if it is a constant or a
        bound local, or if `last`; else evaluated first into a new local, so the order of
        evaluation (and of what it raises: an unbound local, too) stays the same."""
        if is_quiet(expr, work.bound) or last:
            return expr
        name = fresh_name("s", self.taken)
        work.made.append(name)
        work.emitted.append(ir.Assign((ir.Name(name),), expr, work.loc))
        return ir.Name(name)


def _freeing(names: list[str], loc: ir.Loc) -> ir.Stmt:
    """`del names`: the arrays no longer needed are freed at once, as the original frees them."""
    delete = ast.Delete([ast.Name(name, ast.Del()) for name in names])
    return ir.Opaque(delete, "frees arrays no longer needed", loc)


def _is_array_operation(expr: ir.Expr, env: TypeEnv) -> bool:
    known = type_of(expr, env) if array_operation(expr) is not None else None
    return known is not None and known.array is not None


def _rebuilt(expr: ir.Expr, operands: tuple[ir.Expr, ...]) -> ir.Expr:
    if isinstance(expr, ir.Op):
        return ir.Op(expr.op, operands)
    if isinstance(expr, ir.Compare):
        return ir.Compare(expr.ops, operands)
    assert isinstance(expr, ir.Call), expr  # array_operation finds operators and calls only
    return ir.Call(expr.func, operands, ())


def eliminate_temporaries(function: ir.Function) -> ir.Function:
    """Compute array operations into arrays made earlier in the statement (see module doc)."""
    if not may_hold_arrays(function) or introspects(function) or may_reshape_arrays(function):
        return function
    lowering = _Lowering(function)
    body = lowering.block(function.body)
    if body is function.body:
        return function
    assumptions = type_assumptions(function, lowering.relied, "eliminate_temporaries")
    return function.with_body(body).assuming(*assumptions)
