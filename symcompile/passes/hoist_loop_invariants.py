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

A call of a function of `math` on floats is hoisted too: the same arguments give the same
bits, and it runs no code of the program's. Some never raise on a float (`atan`, `tanh`,
`fabs`, `atan2`, `hypot`...) and move like `+`. The others raise only outside a range
(`cos(inf)` and `sqrt(-1.0)` raise ValueError, `exp(710.0)` OverflowError), and a call hoisted
before a loop that runs zero times, or before the branch that holds it, would raise where the
original does not. Such a call (of a name or a constant) is hoisted behind a test of its
range, and the loop as it was is kept for the values outside it:

    if -1.7976931348623157e+308 <= theta <= 1.7976931348623157e+308:
        t = cos(theta)
        for ...: ...t...
    else:
        for ...: ...cos(theta)...     # raises when and where the original does

The test costs two float comparisons per run of the loop; a loop bigger than
`GUARDED_COPY_BUDGET` nodes is not copied, and a loop in the `else` of such a test (the copy)
never gets the same test again.

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

import math
import sys
import types
from dataclasses import dataclass

from .. import ir
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
    body_size,
    fresh_name,
    node_kinds,
    untracked_names,
    written_names,
)
from ..ir.rewrite import (
    copy_statements,
    expr_children,
    map_statement_expressions,
    map_statements,
    nested_bodies,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
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

# a loop is copied (hoisted calls behind a test, the loop as it was beside them) only up to
# this many nodes
GUARDED_COPY_BUDGET = 400
_MAX_FLOAT = sys.float_info.max


@dataclass(frozen=True)
class Domain:
    """The floats `low <(=) x <(=) high` on which a function of `math` never raises (a bound
    of None: no bound on that side); NaN is outside every domain."""

    low: float | None
    high: float | None
    low_op: str = "le"
    high_op: str = "le"

    def holds(self, x: float) -> bool:
        low_ok = self.low is None or (self.low <= x if self.low_op == "le" else self.low < x)
        high_ok = self.high is None or (x <= self.high if self.high_op == "le" else x < self.high)
        return low_ok and high_ok and not math.isnan(x)

    def test(self, x: ir.Expr) -> ir.Expr:
        """The comparison that is true exactly when `x` is in the domain."""
        ops: list[str] = []
        operands: list[ir.Expr] = []
        if self.low is not None:
            ops.append(self.low_op)
            operands.append(ir.Const(self.low))
        operands.append(x)
        if self.high is not None:
            ops.append(self.high_op)
            operands.append(ir.Const(self.high))
        return ir.Compare(tuple(ops), tuple(operands))


# functions of math that never raise on floats, by their number of arguments (checked over
# every kind of float by tests/test_loop_rewrites.py)
TOTAL_ON_FLOATS: dict[object, int] = {
    math.atan: 1, math.asinh: 1, math.tanh: 1, math.erf: 1, math.erfc: 1, math.fabs: 1,
    math.degrees: 1, math.radians: 1, math.atan2: 2, math.copysign: 2, math.hypot: 2,
}
_FINITE = Domain(-_MAX_FLOAT, _MAX_FLOAT)
_EXP = Domain(None, 709.0)  # exp(709.79) overflows
_HYPERBOLIC = Domain(-709.0, 709.0)
_LOG = Domain(0.0, None, "lt")
_UNIT = Domain(-1.0, 1.0)
# one-float functions of math that raise (ValueError, OverflowError) only outside a domain
DOMAINS: dict[object, Domain] = {
    math.sin: _FINITE, math.cos: _FINITE, math.tan: _FINITE,
    math.exp: _EXP, math.expm1: _EXP, math.sinh: _HYPERBOLIC, math.cosh: _HYPERBOLIC,
    math.sqrt: Domain(0.0, None), math.log: _LOG, math.log2: _LOG, math.log10: _LOG,
    math.log1p: Domain(-1.0, None, "lt"), math.asin: _UNIT, math.acos: _UNIT,
    math.atanh: Domain(-1.0, 1.0, "lt", "lt"), math.acosh: Domain(1.0, None),
}


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
        self.written = written_names(function)
        self.relied: set[str] = set()  # the arguments whose types it relied on
        # the tests known false where the loop at hand is (it is in their `else`): a call
        # guarded by one of them is not hoisted again
        self.blocked: frozenset[ir.Expr] = frozenset()

    def _math_function(self, func: ir.Expr) -> object | None:
        """The function of `math` of the tables above that `func` names (bound at compile
        time, or `math.f` of a global the function never assigns), or None."""
        value: object = None
        match func:
            case ir.Const(value):
                pass
            case ir.Attribute(ir.Const(module), attr) if module is math:
                value = vars(math).get(attr)
            case ir.Attribute(ir.Name(name), attr) if name not in self.written \
                    and self.namespace is not None and self.namespace.lookup(name) == (True, math):
                value = vars(math).get(attr)
        if isinstance(value, types.BuiltinFunctionType) and (value in TOTAL_ON_FLOATS or value in DOMAINS):
            return value
        return None

    def _tests(self, function: object, args: tuple[ir.Expr, ...]) -> tuple[ir.Expr, ...] | None:
        """The tests under which calling the function of `math` on these float arguments
        cannot raise (none for a function that never does, or a constant in its domain), or
        None where no test will do (an argument that is not a name, one blocked here)."""
        domain = DOMAINS.get(function)
        if domain is None:
            return ()
        match args:
            case (ir.Const(float() as value),):
                return () if domain.holds(value) else None
            case (ir.Name() as name,) if (test := domain.test(name)) not in self.blocked:
                return (test,)
        return None

    def _call(self, expr: ir.Call, fixed: set[str], env: TypeEnv,
              first_turn: set[ir.Expr]) -> list[Known] | None:
        """The type facts showing a call of a function of `math` is invariant and raises no
        differently before the loop (given its tests), or None."""
        function = self._math_function(expr.func)
        if function is None or expr.keywords or len(expr.args) != TOTAL_ON_FLOATS.get(function, 1) \
                or self._tests(function, expr.args) is None:
            return None
        facts = [fact for arg in expr.args
                 if (fact := self._safe(arg, fixed, env, first_turn)) is not None
                 and (known := type_of(arg, env)) is not None and known.type is float]
        if len(facts) < len(expr.args):
            return None
        return [Known(float, frozenset().union(*(known.arguments for fact in facts for known in fact)))]

    def _tests_in(self, expr: ir.Expr) -> list[ir.Expr]:
        """The tests the calls of `math` functions in a hoistable `expr` need."""
        found: list[ir.Expr] = []
        for node in walk_expr(expr):
            if isinstance(node, ir.Call) and (function := self._math_function(node.func)) is not None:
                found += self._tests(function, node.args) or ()
        return found

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
            case ir.Call():
                return self._call(expr, fixed, env, first_turn)
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
        parts = [loop.test] if isinstance(loop, ir.While) else []
        for stmt in walk_statements(loop.body):
            parts += statement_expressions(stmt, targets=False)
        pending = parts[::-1]  # each expression before its operands, in order
        while pending:
            expr = pending.pop()
            facts = self._safe(expr, fixed, env, first_turn) \
                if isinstance(expr, (ir.Op, ir.Compare, ir.Call)) else None
            if facts is not None:
                found[expr] = facts
                continue
            if isinstance(expr, ir.Op):
                args = [fact for arg in expr.args
                        if (fact := self._safe(arg, fixed, env, first_turn)) is not None]
                if len(args) == len(expr.args):
                    why = "a product of ints may be slow, and the loop may not compute it" \
                        if _costly(expr.op, args) else "may raise"
                    notes.missed("hoist", "not hoisted {}: {}", expr, why, loc=loop.loc)
            pending += expr_children(expr)[::-1]
        return found

    def loop(self, loop: ir.For | ir.While) -> tuple[ir.Stmt, ...]:
        """The loop with its invariants read from temporaries, preceded by their assignments;
        those that need a test come after it, and the loop as it was is kept for its `else`."""
        env = self.env_before.get(id(loop))
        invariants = self._invariants(loop, env) if env is not None else {}
        if not invariants:
            return (loop,)
        tests = {expr: self._tests_in(expr) for expr in invariants}
        guarded = {expr: facts for expr, facts in invariants.items() if tests[expr]}
        if guarded and body_size((loop,)) > GUARDED_COPY_BUDGET:
            for expr in guarded:
                notes.missed("hoist", "not hoisted {}: it may raise, and the loop is too big "
                             "to keep a copy of", expr, loc=loop.loc)
            guarded = {}
        free = {expr: facts for expr, facts in invariants.items() if expr not in guarded}
        hoisted, new_loop, _ = self._hoist(loop, free, "hoist {} out of the loop")
        checked, fast, used = self._hoist(new_loop, guarded,
                                          "hoist {} out of the loop, behind a test of its range")
        conditions = list(dict.fromkeys(test for expr in used for test in tests[expr]))
        if not conditions:
            return (*hoisted, new_loop)
        test = conditions[0] if len(conditions) == 1 else ir.BoolOp("and", tuple(conditions))
        return (*hoisted, ir.If(test, (*checked, fast), copy_statements((new_loop,)), loop.loc))

    def _hoist(self, loop: ir.Stmt, invariants: dict[ir.Expr, list[Known]], said: str,
               ) -> tuple[list[ir.Stmt], ir.Stmt, list[ir.Expr]]:
        """The assignments of `invariants` to temporaries, the loop reading those instead, and
        the invariants it held."""
        temps = {expr: ir.Name(fresh_name("t", self.taken)) for expr in invariants}
        used: set[ir.Expr] = set()

        def replace(node: ir.Expr) -> ir.Expr:
            if node in temps:
                used.add(node)
                return temps[node]
            return node

        header = map_statement_expressions(loop, replace) if isinstance(loop, ir.While) else loop
        body, orelse = nested_bodies(loop)
        new_loop = with_bodies(header, map_statements(
            body, lambda stmt: map_statement_expressions(stmt, replace)), orelse)
        hoisted: list[ir.Stmt] = []
        # (one inside a larger invariant is replaced there first)
        held = [expr for expr in invariants if expr in used]
        for expr in held:
            hoisted.append(ir.Assign((temps[expr],), expr, loop.loc))
            notes.changed("hoist", said, expr, loc=loop.loc)
            self.relied.update(name for fact in invariants[expr] for name in fact.arguments)
        return hoisted, new_loop, held

    def block(self, body: tuple[ir.Stmt, ...], blocked: frozenset[ir.Expr] = frozenset(),
              ) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            if isinstance(stmt, (ir.For, ir.While)):
                self.blocked = blocked
                *hoisted, stmt = self.loop(stmt)
                result += hoisted
            bodies = nested_bodies(stmt)
            if bodies:
                known_false = blocked | _conjuncts(stmt.test) if isinstance(stmt, ir.If) else blocked
                stmt = with_bodies(stmt, self.block(bodies[0], blocked),
                                   self.block(bodies[1], known_false))
            result.append(stmt)
        return unchanged_or_new(body, result)


def _conjuncts(test: ir.Expr) -> frozenset[ir.Expr]:
    """The tests that are all true where `test` is."""
    return frozenset(test.values) if isinstance(test, ir.BoolOp) and test.op == "and" \
        else frozenset({test})


def hoist_loop_invariants(function: ir.Function) -> ir.Function:
    """Move quiet operations on values a loop never changes to before the loop."""
    if not node_kinds(function) & {ir.For, ir.While}:
        return function
    hoister = _Hoister(function)
    body = hoister.block(function.body)
    return function.with_body(body).assuming(*type_assumptions(function, hoister.relied, "hoist_loop_invariants"))
