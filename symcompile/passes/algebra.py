"""algebra: the rule engine of simplify_algebra — the algebraic identities (`RULES`), each
with its class, and the `Simplifier` that applies them to expressions of known types.

simplify_algebra runs it over a function; speculate_loop_types runs it as a trial on a loop's
body, to see whether a float copy of the body would simplify. A rule gives the new expression
and the type facts it relied on; the `Simplifier` collects the arguments behind those facts,
which the pass turns into assumptions checked on entry. Which identity holds for which types:
see simplify_algebra and docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

from .. import ir
from ..analysis.value_types import Known, TypeEnv, type_of
from ..ir.rewrite import map_statement_expressions
from . import notes

RuleClass = Literal["type-conditional", "unsafe"]
# what a rule gives: the new expression and the type facts it relied on
Result = tuple[ir.Expr, tuple[Known, ...]] | None


@dataclass(frozen=True)
class Rule:
    """One rewrite: its identity as text, its class, and the function that tries it on a node."""

    identity: str
    rule_class: RuleClass
    apply: Callable[[ir.Op, TypeEnv], Result]


def _const(expr: ir.Expr, *values: object) -> bool:
    """Whether `expr` is one of these constants (by type and bits: 1.0 is not 1, -0.0 not 0.0)."""
    return isinstance(expr, ir.Const) and any(expr == ir.Const(value) for value in values)


def _typed(expr: ir.Expr, env: TypeEnv, *types: type) -> Known | None:
    known = type_of(expr, env)
    return known if known is not None and known.type in types else None


def _quiet(expr: ir.Expr) -> bool:
    """Reading it can neither raise nor run code (a typed name is a bound local)."""
    return isinstance(expr, (ir.Name, ir.Const))


def _operands(node: ir.Op, *ops: str) -> tuple[ir.Expr, ir.Expr] | None:
    """The two operands of a binary operation among `ops`, else None."""
    match node.args:
        case (left, right) if node.op in ops:
            return left, right
    return None


def _identity(op: str, unit: object, types: tuple[type, ...], sides: str = "both") -> Callable[[ir.Op, TypeEnv], Result]:
    """`x op unit → x` (and `unit op x → x` unless `sides` is "right") for x of `types`."""
    def apply(node: ir.Op, env: TypeEnv) -> Result:
        if (operands := _operands(node, op)) is None:
            return None
        left, right = operands
        for kept, unit_side in ((left, right), (right, left))[:1 if sides == "right" else 2]:
            if _const(unit_side, unit) and (known := _typed(kept, env, *types)):
                return kept, (known,)
        return None
    return apply


def _int_constant_as_float(node: ir.Op, env: TypeEnv) -> Result:
    """`3 * x → 3.0 * x` for a float x: Python converts the int to a float itself, exactly."""
    if (operands := _operands(node, "add", "sub", "mul", "truediv", "floordiv", "mod", "pow")) is None:
        return None
    left, right = operands
    for index, (constant, other) in enumerate(((left, right), (right, left))):
        if isinstance(constant, ir.Const) and (type(value := constant.value) is int or type(value) is bool) \
                and (known := _typed(other, env, float)):
            try:
                converted = ir.Const(float(value))
            except OverflowError:
                return None  # too big for a float: the operation raises, as written
            args = (converted, other) if index == 0 else (other, converted)
            return ir.Op(node.op, args), (known,)
    return None


def _square(node: ir.Op, env: TypeEnv) -> Result:
    """`x ** 2 → x * x` for an int x (for a float, `1e200 ** 2` raises OverflowError)."""
    if (operands := _operands(node, "pow")) is None:
        return None
    base, exponent = operands
    if _const(exponent, 2) and _quiet(base) and \
            (known := _typed(base, env, int, bool)):
        return ir.Op("mul", (base, base)), (known,)
    return None


def _difference_of_equals(result: object, types: tuple[type, ...]) -> Callable[[ir.Op, TypeEnv], Result]:
    """`x - x → result` for x of `types`."""
    def apply(node: ir.Op, env: TypeEnv) -> Result:
        if (operands := _operands(node, "sub")) is None:
            return None
        left, right = operands
        if left == right and _quiet(left) and (known := _typed(left, env, *types)):
            return ir.Const(result), (known,)
        return None
    return apply


def _absorbing_zero(zero: object, types: tuple[type, ...]) -> Callable[[ir.Op, TypeEnv], Result]:
    """`x * 0 → 0` for x of `types` (both orders)."""
    def apply(node: ir.Op, env: TypeEnv) -> Result:
        if (operands := _operands(node, "mul")) is None:
            return None
        left, right = operands
        for kept, other in ((left, right), (right, left)):
            if _const(other, zero) and _quiet(kept) and (known := _typed(kept, env, *types)):
                return ir.Const(zero), (known,)
        return None
    return apply


def _double_negation(node: ir.Op, env: TypeEnv) -> Result:
    """`-(-x) → x` for an int, float or complex x (not a bool: `-(-True)` is 1)."""
    match node:
        case ir.Op("neg", (ir.Op("neg", (inner,)),)) if (known := _typed(inner, env, int, float, complex)):
            return inner, (known,)
    return None


_INVERSE = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}


def _negated_comparison(types: tuple[type, ...], ops: frozenset[str]) -> Callable[[ir.Op, TypeEnv], Result]:
    """`not (a < b) → a >= b` for `a`, `b` of `types` and comparisons in `ops`."""
    def apply(node: ir.Op, env: TypeEnv) -> Result:
        match node:
            case ir.Op("not", (ir.Compare((op,), (left, right)),)) if op in ops:
                known_left, known_right = _typed(left, env, *types), _typed(right, env, *types)
                if known_left and known_right:
                    return ir.Compare((_INVERSE[op],), (left, right)), (known_left, known_right)
        return None
    return apply


_INTS = (int,)
_FLOATS = (float,)
_ORDER = frozenset({"lt", "le", "gt", "ge"})

# The rule table. A rule applies where its identity holds bit for bit (type-conditional) or,
# with fastmath, where it holds for real numbers (unsafe). Wrong for: see docs/rules.md.
RULES: tuple[Rule, ...] = (
    # float: 1.0 * x == x, x / 1.0 == x, x - 0.0 == x, x + -0.0 == x for every float x
    Rule("x * 1.0 → x", "type-conditional", _identity("mul", 1.0, _FLOATS)),
    Rule("x / 1.0 → x", "type-conditional", _identity("truediv", 1.0, _FLOATS, "right")),
    Rule("x - 0.0 → x", "type-conditional", _identity("sub", 0.0, _FLOATS, "right")),
    Rule("x + -0.0 → x", "type-conditional", _identity("add", -0.0, _FLOATS)),
    # float: float.__mul__ converts an int operand with float(); done once, at compile time
    Rule("3 * x → 3.0 * x", "type-conditional", _int_constant_as_float),
    # int: the usual identities are exact on Python's unbounded ints
    Rule("x + 0 → x", "type-conditional", _identity("add", 0, _INTS)),
    Rule("x - 0 → x", "type-conditional", _identity("sub", 0, _INTS, "right")),
    Rule("x * 1 → x", "type-conditional", _identity("mul", 1, _INTS)),
    Rule("x // 1 → x", "type-conditional", _identity("floordiv", 1, _INTS, "right")),
    Rule("x ** 1 → x", "type-conditional", _identity("pow", 1, _INTS, "right")),
    Rule("x ** 2 → x * x", "type-conditional", _square),
    Rule("x * 0 → 0", "type-conditional", _absorbing_zero(0, _INTS)),
    Rule("x - x → 0", "type-conditional", _difference_of_equals(0, _INTS)),
    Rule("-(-x) → x", "type-conditional", _double_negation),
    # not (a == b) is a != b for numbers (NaN included); the order comparisons only for ints
    Rule("not (a == b) → a != b", "type-conditional",
         _negated_comparison((bool, int, float, complex), frozenset({"eq", "ne"}))),
    Rule("not (a < b) → a >= b", "type-conditional", _negated_comparison((bool, int), _ORDER)),
    # fastmath only: true for real numbers, wrong for -0.0, NaN or infinities. fastmath changes
    # float values, never exceptions: `x / x → 1.0` is no rule, 0.0 / 0.0 raises ZeroDivisionError
    Rule("x + 0.0 → x", "unsafe", _identity("add", 0.0, _FLOATS)),
    Rule("x * 0.0 → 0.0", "unsafe", _absorbing_zero(0.0, _FLOATS)),
    Rule("x - x → 0.0", "unsafe", _difference_of_equals(0.0, _FLOATS)),
    Rule("not (a < b) → a >= b (floats)", "unsafe", _negated_comparison(_FLOATS, _ORDER)),
)


class Simplifier:
    """Applies the rules allowed for a function, recording what they relied on."""

    def __init__(self, function: ir.Function) -> None:
        self.rules = [rule for rule in RULES if function.fastmath or rule.rule_class != "unsafe"]
        self.relied: set[str] = set()  # the arguments whose types it relied on

    def node(self, expr: ir.Expr, env: TypeEnv, loc: ir.Loc) -> ir.Expr:
        """`expr` (whose operands are simplified) with rules applied until none fires."""
        changed = True
        while changed and isinstance(expr, ir.Op):
            changed = False
            for rule in self.rules:
                result = rule.apply(expr, env)
                if result is not None:
                    expr, facts = result
                    notes.changed("simplify", "simplify {}", rule.identity, loc=loc)
                    self.relied.update(name for fact in facts for name in fact.arguments)
                    changed = True
                    break
        return expr

    def statement(self, stmt: ir.Stmt, env: TypeEnv) -> ir.Stmt:
        return map_statement_expressions(stmt, lambda expr: self.node(expr, env, stmt.loc))
