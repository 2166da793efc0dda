"""The functions vectorize_loops computes on arrays, and how it watches them: each `math`
function (and NumPy ufunc) of an element it may replace by a NumPy ufunc of the slices, with
whether that gives the same bits, and the staging that checks the arrays for every
floating-point error the scalar function would raise. A support module of `passes/`, no pass.

`math.sqrt` rounds correctly in libm and in NumPy alike: exact. The others (`exp`, `log`,
`tanh`, `atan2`, `pow`, `**`...) are computed by NumPy's SIMD loops, which may differ from
libm (and from NumPy's own scalar loop) in the last bit: only under `fastmath=True` (an unsafe
rule). fastmath relaxes rounding, never exceptions: `math.log(0.0)` raises ValueError and
`math.exp(1000.0)` OverflowError, whatever NumPy's error state says, while `np.log` and `np.exp`
return -inf and inf and record "divide by zero" and "overflow". So nests calling them compute
their arrays under `floating_point_errors_checked`, which records overflow, division by zero
and invalid even where the error state ignores them; any recorded sends the call to the loop,
which raises (or warns) where it does. (Measured on 0.0, -0.0, ±1, ±2, 0.5, 710, ±1000, 1e308,
1e-310, ±inf and NaN, at every lane of a 40-element array: every argument for which a `math`
function raises makes its ufunc record one of the three.)
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np

from .. import ir
from .vectorize_nest import Nest

# math.f and np.f of one float64 element → the ufunc computing it on arrays
_ONE_ARGUMENT = {
    "exp": np.exp, "expm1": np.expm1, "log": np.log, "log2": np.log2, "log10": np.log10,
    "log1p": np.log1p, "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
}
_TWO_ARGUMENTS = {"atan2": np.arctan2, "hypot": np.hypot, "pow": np.power}

# function → (the ufunc, its number of arguments, whether it rounds as the function does)
ArrayFunction = tuple[np.ufunc, int, bool]
FUNCTIONS: dict[object, ArrayFunction] = {
    math.sqrt: (np.sqrt, 1, True),
    **{getattr(math, name): (ufunc, 1, False) for name, ufunc in _ONE_ARGUMENT.items()},
    **{ufunc: (ufunc, 1, False) for ufunc in _ONE_ARGUMENT.values()},
    **{getattr(math, name): (ufunc, 2, False) for name, ufunc in _TWO_ARGUMENTS.items()},
    **{ufunc: (ufunc, 2, False) for ufunc in _TWO_ARGUMENTS.values()},
}


def array_function(func: ir.Expr, function: ir.Function, nest: Nest) -> object | None:
    """The function `func` calls in `function`, if NumPy computes it on arrays (`math.exp`
    → `np.exp`): bound as it, or a global the loop checks."""
    if isinstance(func, ir.Const):
        return func.value if _hashable_in(func.value) else None
    if isinstance(func, ir.Name) and function.namespace is not None and func.id not in function.locals:
        found, bound = function.namespace.lookup(func.id)
        if found and _hashable_in(bound):
            nest.builtins_read[func.id] = bound
            return bound
    return None


def _hashable_in(value: object) -> bool:
    try:
        return value in FUNCTIONS
    except TypeError:  # an unhashable constant
        return False


def ufunc_name(ufunc: object) -> str:
    """`np.exp`: how explain names the NumPy function computing the arrays."""
    return f"np.{getattr(ufunc, '__name__', ufunc)}"


def function_name(function: object) -> str:
    """`math.exp`, `np.exp`: the function the loop calls."""
    module = "np" if isinstance(function, np.ufunc) else "math"
    return f"{module}.{getattr(function, '__name__', function)}"


_CHECKED = ("over", "divide", "invalid")


def floating_point_errors_checked() -> Iterator[list[str]]:
    """As `vectorize_build.floating_point_errors_recorded` (run the body of a `for` over this
    once, the errors recorded in the list it yields), but overflow, division by zero and
    invalid are recorded even where the error state ignores them: a `math` function raises
    for those whatever NumPy's state (underflow is recorded as the state says)."""
    seen: list[str] = []
    modes = {kind: "call" if kind in _CHECKED or mode != "ignore" else "ignore"
             for kind, mode in np.geterr().items()}
    with np.errstate(call=lambda kind, _flag: seen.append(kind), **modes):  # type: ignore[arg-type]
        yield seen
