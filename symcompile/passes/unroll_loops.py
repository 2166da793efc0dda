"""unroll_loops: repeat the body of a loop that runs a small, constant number of times.

`for i in range(3): s = s * x` becomes three copies of the body, each after the assignment
the loop itself would make (`i = 0`, `i = 1`, `i = 2`), followed by the `else` clause, which
a loop without `break` always runs. That is exactly what the loop does, and it lets
propagation and folding work on each copy. Only loops over a constant tuple or string (or a
tuple or list display of constants), over `range` of constants or of globals holding ints (the
builtin, at a point where no unseen code can have rebound the names; elsewhere a `range`
of int constants behind a test `range is range_2`, the loop as written kept beside), or over a
compiled object's list (its items checked on entry, see `objects`), of at most 8 turns, with no `break`
or `continue` of their own and a small body.

Example::

    def f(x):
        s = 1.0
        for i in range(3):
            s = s * x + i
        return s
    # --- after unroll_loops ---
    def f(x):
        s = 1.0
        i = 0
        s = s * x + i
        i = 1
        s = s * x + i
        i = 2
        s = s * x + i
        return s
"""

from __future__ import annotations

import builtins

from .. import ir
from ..analysis import objects
from ..analysis.clean_statements import rewrite_clean_statements
from ..ir.names import (
    MAX_FUNCTION_SIZE,
    body_size,
    fallback_size,
    may_leave_block,
    node_kinds,
    size,
    written_names,
)
from ..ir.rewrite import copy_statements, walk_statements
from . import notes

MAX_TURNS = 8
MAX_UNROLLED_NODES = 400
RANGE_IS_BUILTIN = ir.Compare(("is",), (ir.Name("range"), ir.Const(builtins.range)))


def _jumps_out(body: tuple[ir.Stmt, ...]) -> bool:
    """Whether `body` may `break` or `continue` (its own loop's, or, conservatively, a
    nested loop's)."""
    return any(may_leave_block(stmt) for stmt in body)


def _short(iterable: ir.Expr) -> bool:
    """Whether a loop over `iterable` plainly makes at most MAX_TURNS turns (so a refusal to
    unroll it is worth a note)."""
    match iterable:
        case ir.Const(value) if isinstance(value, (tuple, str, bytes)):
            return len(value) <= MAX_TURNS
        case ir.Build("tuple" | "list", items) if _constant_values(items) is not None:
            return len(items) <= MAX_TURNS
        case ir.Call(ir.Name("range"), bounds, ()) if 1 <= len(bounds) <= 3 \
                and (numbers := _int_constants(bounds)) is not None:
            return len(range(*numbers)) <= MAX_TURNS
    return False


def _constant_values(exprs: tuple[ir.Expr, ...]) -> list[object] | None:
    """The values of `exprs` if all are constants, else None."""
    values = [expr.value for expr in exprs if isinstance(expr, ir.Const)]
    return values if len(values) == len(exprs) else None


def _int_constants(exprs: tuple[ir.Expr, ...]) -> list[int] | None:
    """The values of `exprs` if all are int constants (not bools), else None."""
    values = [expr.value for expr in exprs
              if isinstance(expr, ir.Const) and type(expr.value) is int]
    return values if len(values) == len(exprs) else None


def _refused(loop: ir.For, why: str) -> None:
    """Record why `loop` is not unrolled."""
    notes.missed("unroll", "not unrolled for {} in {}: {}", loop.target, loop.iter, why, loc=loop.loc)


class _Unroller:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.written = written_names(function)
        self.assumed: list[ir.Assumption] = []
        self.kept = _kept_loops(function)

    def turns(self, iterable: ir.Expr, loop: ir.For) -> list[object] | None:
        """The values a loop over `iterable` takes, if they are constants; else None."""
        match iterable:
            case ir.Const(value) if isinstance(value, (tuple, str, bytes)):
                return list(value)
            case ir.Const(value) if type(value) is list and self.function.resolve_objects:
                # a compiled object's list (its layers): its items as compiled, checked on entry
                items: list[object] = list(value)
                if len(items) <= MAX_TURNS and body_size(loop.body) * len(items) <= MAX_UNROLLED_NODES:
                    self.assumed += objects.list_facts(value)
                return items
            case ir.Build("tuple" | "list", elts) if (values := _constant_values(elts)) is not None:
                # a display nothing else can reach: building it and iterating it shows nothing
                return values
            case ir.Call(ir.Name("range"), args, ()) if 1 <= len(args) <= 3:
                namespace = self.function.namespace
                found, value = namespace.lookup("range") if namespace else (False, None)
                integers = [self._integer(arg) for arg in args]
                bounds = [integer for integer in integers if integer is not None]
                if not found or value is not builtins.range or len(bounds) < len(integers):
                    return None
                numbers = range(*(bound for bound, _ in bounds))
                if len(numbers) > MAX_TURNS:
                    _refused(loop, f"{len(numbers)} turns (at most {MAX_TURNS})")
                    return None
                self.assumed.append(ir.Assumption("range", value, "range() unrolled"))
                self.assumed += [assumption for _, assumption in bounds if assumption]
                return list(numbers)
        return None

    def _unchanging(self, iterable: ir.Expr) -> bool:
        """`range(...)` of constants and globals nothing can rebind (`ir.Namespace.frozen`)."""
        namespace = self.function.namespace
        return namespace is not None and isinstance(iterable, ir.Call) \
            and isinstance(iterable.func, ir.Name) and namespace.unchanging(iterable.func.id) \
            and all(isinstance(arg, ir.Const) or isinstance(arg, ir.Name)
                    and namespace.unchanging(arg.id) for arg in iterable.args)

    def _integer(self, expr: ir.Expr) -> tuple[int, ir.Assumption | None] | None:
        """An int constant, or a global holding one (and the assumption reading it takes)."""
        if isinstance(expr, ir.Const) and type(expr.value) is int:
            return expr.value, None
        namespace = self.function.namespace
        if isinstance(expr, ir.Name) and namespace is not None and expr.id not in self.written:
            found, value = namespace.lookup(expr.id)
            if found and type(value) is int:
                return value, ir.Assumption(expr.id, value, f"global {expr.id} unrolled")
        return None

    def statement(self, stmt: ir.Stmt, dirty: bool) -> ir.Stmt | tuple[ir.Stmt, ...]:
        if not isinstance(stmt, ir.For):
            return stmt
        if _jumps_out(stmt.body):
            if _short(stmt.iter):
                _refused(stmt, "it may break or continue")
            return stmt
        # `range` may have been rebound, a list changed (unless nothing can change them)
        if dirty and not (isinstance(stmt.iter, ir.Const) and type(stmt.iter.value) is not list) \
                and not self._unchanging(stmt.iter):
            return self._tested(stmt)
        values = self.turns(stmt.iter, stmt)
        if values is None:
            return stmt
        if len(values) > MAX_TURNS:
            _refused(stmt, f"{len(values)} turns (at most {MAX_TURNS})")
            return stmt
        # (a check at a call's fallback goes where a copy is clean: it is not counted)
        turn_size = body_size(stmt.body) - fallback_size(stmt.body)
        if turn_size * len(values) > MAX_UNROLLED_NODES:
            _refused(stmt, f"{len(values)} turns of {turn_size} IR nodes "
                           f"(at most {MAX_UNROLLED_NODES} in all)")
            return stmt
        notes.changed("unroll", "unroll for {} in {}", stmt.target, stmt.iter, loc=stmt.loc)
        return _unrolled(stmt, values)

    def _tested(self, loop: ir.For) -> ir.Stmt:
        """Where unseen code may have run: a loop over `range` of int constants unrolled behind
        `range is range_2` (read where the loop reads `range`), the loop as written otherwise."""
        match loop.iter:
            case ir.Call(ir.Name("range"), args, ()) if 1 <= len(args) <= 3 \
                    and id(loop) not in self.kept and (bounds := _int_constants(args)) is not None:
                numbers = range(*bounds)
                turn_size = body_size(loop.body) - fallback_size(loop.body)
                if "range" in self.written or self.function.namespace is None \
                        or self.function.namespace.lookup("range") != (True, builtins.range):
                    return loop
                if len(numbers) > MAX_TURNS or turn_size * len(numbers) > MAX_UNROLLED_NODES:
                    _refused(loop, f"{len(numbers)} turns of {turn_size} IR nodes (at most "
                                   f"{MAX_TURNS}, {MAX_UNROLLED_NODES} nodes in all)")
                    return loop
                notes.changed("unroll", "unroll for {} in {} (behind a test of range)",
                              loop.target, loop.iter, loc=loop.loc)
                return ir.If(RANGE_IS_BUILTIN, _unrolled(loop, list(numbers), kept=True), (loop,),
                             loop.loc)
        if _short(loop.iter):
            _refused(loop, "calls code the compiler cannot see before it")
        return loop


def _unrolled(loop: ir.For, values: list[object], kept: bool = False) -> tuple[ir.Stmt, ...]:
    """The body of `loop` once per value, after assigning it to the target; then its `else`
    (all of them copies where the loop is `kept` too)."""
    unrolled: list[ir.Stmt] = []
    for turn, value in enumerate(values):
        unrolled.append(ir.Assign((loop.target,), ir.Const(value), loop.loc))
        unrolled += copy_statements(loop.body) if turn or kept else loop.body
    return (*unrolled, *(copy_statements(loop.orelse) if kept else loop.orelse))


def _kept_loops(function: ir.Function) -> set[int]:
    """The loops as written kept beside a copy unrolled behind a test of `range` (by this pass,
    or by unroll_comprehensions)."""
    return {id(loop) for stmt in walk_statements(function.body)
            if isinstance(stmt, ir.If) and stmt.test == RANGE_IS_BUILTIN
            for loop in stmt.orelse if isinstance(loop, ir.For)}


def unroll_loops(function: ir.Function) -> ir.Function:
    """Unroll loops of at most 8 turns over constants."""
    if ir.For not in node_kinds(function) or size(function) > MAX_FUNCTION_SIZE:
        return function
    unroller = _Unroller(function)
    return rewrite_clean_statements(function, unroller.statement, unroller.assumed)
