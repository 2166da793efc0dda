"""simplify_algebra: apply algebraic identities, each only for the types it is exact for.

`1.0 * x → x` is exact when x is a float, but not when x is an int (the result is a float) or
an array (the caller's own array would come back). So every rule in `RULES` names its class:
*type-conditional* rules fire only where `value_types` proves the operand types, and *unsafe*
rules (true for real numbers, not for floats: `x + 0.0 → x` is wrong for -0.0) only with
`@symbolic(fastmath=True)`, and then also only for known number types. A rule never drops an
operand that could raise or run code. Types that come from the arguments a version is compiled
for become `of_type` assumptions: the generated code checks them on entry.

In the example, the annotations stand for the argument types the version is compiled for.

Example::

    def f(x: float, n: int):
        return 1.0 * x + n ** 2 * 3 - (x - 0.0) / 2
    # --- after simplify_algebra ---
    def f(x: float, n: int):
        return x + n * n * 3 - x / 2.0
"""

from __future__ import annotations

from .. import ir
from ..analysis.value_types import TypeFlow, argument_env, type_assumptions
from ..ir.names import untracked_names
from .algebra import Simplifier


def simplify_algebra(function: ir.Function) -> ir.Function:
    """Apply the rules of `algebra.RULES` that the known types (and `fastmath`) allow."""
    simplifier = Simplifier(function)
    flow = TypeFlow(untracked_names(function), simplifier.statement)
    body, _ = flow.block(function.body, argument_env(function))
    return function.with_body(body).assuming(*type_assumptions(function, simplifier.relied, "simplify_algebra"))
