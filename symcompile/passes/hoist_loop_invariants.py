"""hoist_loop_invariants: compute once, before a loop, what every turn computes alike.

An operation whose operands the loop never changes has the same value on every turn. When it
also can neither raise nor run code, computing it once before the loop is exact, even if the
loop runs zero times or the branch holding it never runs: that is so for `+`, `-`, `*`, the
comparisons and the unary operators on ints and bools, or on floats, whose types `value_types`
knows (mixed int and float arithmetic is left alone: a huge int raises OverflowError). An
expression that might raise stays where it is. Types that come from the arguments a version is
compiled for are checked on entry, as for simplify_algebra.

Hoisting must not make the program slower either. Float and bool operations take constant
time, and `+`, `-`, the comparisons and the bitwise operators on ints take time linear in their
operands' sizes (the order of the time that made those operands). A product of two ints does
not (two 5-million-bit ints take a second), so it is hoisted only where the loop's first turn
computes it anyway: a loop sure to run (over `range` of constants with at least one number, a
constant non-empty sequence, `while True`), in a statement before any branch or exit of the
turn (and from a `while` test, which is computed at least once).

In the example, the annotations stand for the argument types the version is compiled for.

Example::

    def f(xs, dt: float, m: float):
        out = []
        for x in xs:
            out.append(x + dt * m)
        return out
    # --- after hoist_loop_invariants ---
    def f(xs, dt: float, m: float):
        out = []
        t = dt * m
        for x in xs:
            out.append(x + t)
        return out
"""

from __future__ import annotations

from .. import ir
from ..analysis.value_types import (
    Known,
    TypeEnv,
    type_assumptions,
    type_of,
    types_before,
)
from ..ir.names import all_names, assigned_names, fresh_name, untracked_names
from ..ir.rewrite import (
    expr_children,
    map_statement_expressions,
    nested_bodies,
    statement_expressions,
    unchanged_or_new,
    walk_statements,
    with_bodies,
)
from . import notes

# operators that never raise on two ints (or bools), or on two floats
_NEVER_RAISE = frozenset({"add", "sub", "mul", "eq", "ne", "lt", "le", "gt", "ge", "neg", "pos",
                          "not"})
_NEVER_RAISE_ON_INTS = _NEVER_RAISE | {"bitand", "bitor", "bitxor", "invert"}
# operators whose time on two ints grows faster than their sizes: hoisted only where the first
# turn computes them anyway
_COSTLY_ON_INTS = frozenset({"mul"})


def _surely_computed(expr: ir.Expr, found: set[ir.Expr]) -> None:
    """Add `expr` and the parts of it that computing it always computes (not the operands
    after the first of `and`/`or`, nor the branches of `x if c else y`) to `found`."""
    found.add(expr)
    match expr:
        case ir.BoolOp(_, values):
            children: tuple[ir.Expr, ...] = values[:1]
        case ir.IfExp(test, _, _):
            children = (test,)
        case _:
            children = tuple(expr_children(expr))
    for child in children:
        _surely_computed(child, found)


def _costly(op: str, facts: list[list[Known]]) -> bool:
    return op in _COSTLY_ON_INTS and all(fact[0].type is int for fact in facts)


class _Hoister:
    def __init__(self, function: ir.Function) -> None:
        self.untracked = untracked_names(function)
        self.env_before = types_before(function)
        self.taken = all_names(function)
        self.taken_locals = function.locals
        self.namespace = function.namespace
        self.relied: set[str] = set()  # the arguments whose types it relied on

    def _safe(self, expr: ir.Expr, fixed: set[str], env: TypeEnv,
              first_turn: set[ir.Expr]) -> list[Known] | None:
        """The type facts showing `expr` is invariant, quiet and cheap to compute once more
        (or computed by the loop's first turn anyway), or None if it is not."""
        match expr:
            case ir.Const():
                known = type_of(expr, env)
                return [known] if known else None
            case ir.Name(name) if name in fixed and (known := env.get(name)):
                return [known]
            case ir.Op(op, args) | ir.Compare((op,), args):
                facts = [fact for arg in args
                         if (fact := self._safe(arg, fixed, env, first_turn)) is not None]
                if len(facts) < len(args):
                    return None
                kinds = {fact[0].type for fact in facts}
                allowed = _NEVER_RAISE_ON_INTS if kinds <= {bool, int} else \
                    _NEVER_RAISE if kinds == {float} else frozenset()
                if op in allowed and (expr in first_turn or not _costly(op, facts)):
                    return [known for fact in facts for known in fact]
        return None

    def _first_turn(self, loop: ir.For | ir.While) -> set[ir.Expr]:
        """The expressions computed whenever the loop starts: a `while` test, and if the loop
        is sure to run, its first turn's statements up to the first that branches or exits."""
        found: set[ir.Expr] = set()
        if isinstance(loop, ir.While):
            _surely_computed(loop.test, found)
        if not self._sure_to_run(loop):
            return found
        for stmt in loop.body:
            if not isinstance(stmt, (ir.Assign, ir.AugAssign, ir.ExprStmt)):
                break
            _surely_computed(stmt.value, found)
        return found

    def _sure_to_run(self, loop: ir.For | ir.While) -> bool:
        """Whether the loop's body runs at least once (`range` that the program has rebound
        since would cost one product more, never a wrong value)."""
        match loop:
            case ir.While(ir.Const(value)):
                return value is True
            case ir.For(iter=ir.Const(value)) if isinstance(value, (tuple, str, bytes)):
                return len(value) > 0
            case ir.For(iter=ir.Call(func, bounds, ())) if self._is_range(func) \
                    and 1 <= len(bounds) <= 3 \
                    and len(ints := [b.value for b in bounds
                                     if isinstance(b, ir.Const) and type(b.value) is int]) == len(bounds):
                return len(range(*ints)) > 0
        return False

    def _is_range(self, func: ir.Expr) -> bool:
        if isinstance(func, ir.Const):
            return func.value is range
        namespace = self.namespace
        return isinstance(func, ir.Name) and func.id == "range" and func.id not in self.taken_locals \
            and namespace is not None and namespace.lookup("range") == (True, range)

    def _invariants(self, loop: ir.For | ir.While, env: TypeEnv) -> dict[ir.Expr, list[Known]]:
        """The largest quiet expressions in the loop whose operands it never changes."""
        fixed = {name for name in env if name not in self.untracked} - {
            name for stmt in walk_statements((loop,)) for name in assigned_names(stmt)}
        first_turn = self._first_turn(loop)
        found: dict[ir.Expr, list[Known]] = {}

        def visit(expr: ir.Expr) -> None:
            facts = self._safe(expr, fixed, env, first_turn) \
                if isinstance(expr, (ir.Op, ir.Compare)) else None
            if facts is not None:
                found[expr] = facts
                return
            if isinstance(expr, ir.Op):
                args = [fact for arg in expr.args
                        if (fact := self._safe(arg, fixed, env, first_turn)) is not None]
                if len(args) == len(expr.args):
                    why = "a product of ints may be slow, and the loop may not compute it" \
                        if _costly(expr.op, args) else "may raise"
                    notes.missed("hoist", "not hoisted {}: {}", expr, why, loc=loop.loc)
            for child in expr_children(expr):
                visit(child)

        parts = [loop.test] if isinstance(loop, ir.While) else []
        for stmt in walk_statements(loop.body):
            parts += statement_expressions(stmt, targets=False)
        for expr in parts:
            visit(expr)
        return found

    def loop(self, loop: ir.For | ir.While) -> tuple[ir.Stmt, ...]:
        """The loop with its invariants read from temporaries, preceded by their assignments."""
        env = self.env_before.get(id(loop))
        invariants = self._invariants(loop, env) if env is not None else {}
        if not invariants:
            return (loop,)
        temps = {expr: ir.Name(fresh_name("t", self.taken)) for expr in invariants}
        used: set[ir.Expr] = set()

        def replace(node: ir.Expr) -> ir.Expr:
            if node in temps:
                used.add(node)
                return temps[node]
            return node

        def rewrite_block(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
            return unchanged_or_new(body, [rewrite(stmt) for stmt in body])

        def rewrite(stmt: ir.Stmt) -> ir.Stmt:
            stmt = map_statement_expressions(stmt, replace)
            bodies = nested_bodies(stmt)
            return with_bodies(stmt, rewrite_block(bodies[0]), rewrite_block(bodies[1])) if bodies else stmt

        header = map_statement_expressions(loop, replace) if isinstance(loop, ir.While) else loop
        new_loop = with_bodies(header, rewrite_block(loop.body), loop.orelse)
        hoisted = []
        for expr, facts in invariants.items():
            if expr in used:  # (one inside a larger invariant is replaced there first)
                hoisted.append(ir.Assign((temps[expr],), expr, loop.loc))
                notes.changed("hoist", "hoist {} out of the loop", expr, loc=loop.loc)
                self.relied.update(name for fact in facts for name in fact.arguments)
        return (*hoisted, new_loop)

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            if isinstance(stmt, (ir.For, ir.While)):
                *hoisted, stmt = self.loop(stmt)
                result += hoisted
            bodies = nested_bodies(stmt)
            if bodies:
                stmt = with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1]))
            result.append(stmt)
        return unchanged_or_new(body, result)


def hoist_loop_invariants(function: ir.Function) -> ir.Function:
    """Move quiet operations on values a loop never changes to before the loop."""
    hoister = _Hoister(function)
    body = hoister.block(function.body)
    return function.with_body(body).assuming(*type_assumptions(function, hoister.relied, "hoist_loop_invariants"))
