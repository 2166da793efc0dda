"""use_cheaper_numpy_calls: spell NumPy operations the way NumPy runs them fastest, same bits.

A call of a small array operation costs NumPy more in dispatch than in arithmetic, and some
spellings dispatch faster than others for the very same computation:

- `a @ W` → `dot(a, W)`, for a 2-D C-contiguous float32/float64 array `a` and a constant
  2-D C-contiguous array `W` of the same dtype with both extents over 1 (a compiled object's
  weights). For those, NumPy's `matmul` and `dot` make the same BLAS call (`gemv` for one
  row, `gemm` for more), with the same arguments, so the same bits; `dot` skips the ufunc
  machinery. (A warning names `dot` instead of `matmul`.)
- `t + b` → `t + b_row`, for a constant 1-D array `b` beside a 2-D array whose rows it fits:
  `b_row` is `b.reshape(1, -1)`, made once (a view, so updates of `b` in place are seen).
  Broadcasting pairs the same elements; NumPy is faster when the dimensions already match.
- `maximum(t, 0)` → `maximum(t, float32(0))`: a Python number beside a float array is
  converted to the array's dtype on every call (NEP 50); a number that converts exactly is
  converted once, at compile time. Not for `**` (NumPy squares `t ** 2` by a shortcut that
  looks at the exponent's type).

Each rewrite rests on the kinds `value_types` proves, and so on the arguments' kinds checked on
entry. It runs after eliminate_temporaries (see `pipeline.RUN_LAST`), on the statements that
pass makes.

In the example, `x` stands for a 1-D float32 array: the numbers are converted to float32
once, and bound as constants (`float32_2_0` is `np.float32(2.0)`).

Example::

    def f(x: "float32[n]"):
        t = x * 2
        t -= 1
        return t
    # --- after use_cheaper_numpy_calls ---
    def f(x: "float32[n]"):
        t = x * float32_2_0
        t -= float32_1_0
        return t
"""

from __future__ import annotations

import numpy as np

from .. import ir
from ..analysis.arrays import may_hold_arrays
from ..analysis.value_types import (
    ARRAY_UFUNCS,
    Known,
    TypeEnv,
    TypeFlow,
    argument_env,
    operand_dtypes,
    type_assumptions,
    type_of,
)
from ..ir.names import introspects, untracked_names
from ..ir.rewrite import map_statement_expressions
from . import notes

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _as_dot(expr: ir.Expr, env: TypeEnv) -> tuple[ir.Expr, Known] | None:
    """`dot(a, W)` for `a @ W` where NumPy makes the same BLAS call for both."""
    match expr:
        case ir.Op("matmul", (left, ir.Const(np.ndarray() as weights))):
            known = type_of(left, env)
            if known is None or (kind := known.array) is None or kind.ndim != 2 \
                    or not kind.contiguous or kind.dtype not in _FLOATS \
                    or type(weights) is not np.ndarray or weights.ndim != 2 \
                    or weights.dtype != kind.dtype or not weights.flags.c_contiguous \
                    or min(weights.shape) < 2:
                return None
            return ir.Call(ir.Const(np.dot), (left, ir.Const(weights))), known
    return None


def _operands(expr: ir.Expr) -> tuple[np.ufunc, tuple[ir.Expr, ...]] | None:
    """An elementwise operation's ufunc and operands: an operator or a ufunc call."""
    match expr:
        case ir.Op(op, args) if op in ARRAY_UFUNCS:
            return ARRAY_UFUNCS[op], args
        case ir.Call(ir.Const(np.ufunc() as ufunc), args, _) if ufunc.signature is None:
            return ufunc, args
    return None


def _one_dtype(ufunc: np.ufunc, args: tuple[ir.Expr, ...], env: TypeEnv, dtype: object) -> bool:
    """Whether NumPy computes `ufunc` on `args` with every operand cast to `dtype` (so a number
    among them is converted to `dtype`, not to another type: `ldexp(a, 2)` takes an int)."""
    operands = [known for arg in args if (known := type_of(arg, env)) is not None]
    if len(operands) < len(args):
        return False
    try:
        resolved = ufunc.resolve_dtypes((*operand_dtypes(operands), None))
    except (TypeError, ValueError):
        return False
    return all(resolved_dtype == dtype for resolved_dtype in resolved)


def _plain(expr: ir.Expr) -> ir.Expr:
    """The operation `expr` computes, without where it puts the result (`out=`)."""
    if isinstance(expr, ir.Call) and all(kw.name == "out" for kw in expr.keywords):
        return ir.Call(expr.func, expr.args, ())
    return expr


def _row(value: np.ndarray, beside: Known | None) -> np.ndarray | None:
    """`value` (1-D) as one row, if `beside` is a 2-D array whose rows it fits."""
    kind = beside.array if beside is not None else None
    if kind is None or kind.ndim != 2 or kind.shape is None or kind.shape[1] != value.shape[0] \
            or type(value) is not np.ndarray or value.ndim != 1:
        return None
    return value.reshape(1, -1)


class _Cheaper:
    def __init__(self) -> None:
        self.relied: set[str] = set()
        self.scalars: dict[tuple[np.dtype, object], np.generic] = {}  # one object per number

    def _converted(self, value: object, dtype: object) -> np.generic | None:
        """`value` as a NumPy scalar of `dtype`, if it converts exactly."""
        if type(value) not in (int, float) or dtype not in _FLOATS or not isinstance(dtype, np.dtype):
            return None
        with np.errstate(all="ignore"):
            converted = dtype.type(value)
        if float(converted) != value or not np.isfinite(converted):
            return None
        return self.scalars.setdefault((dtype, ir.const_key(value)), converted)

    def node(self, expr: ir.Expr, env: TypeEnv, loc: ir.Loc) -> ir.Expr:
        dot = _as_dot(expr, env)
        if dot is not None:
            notes.changed("use dot", "matmul as dot", loc=loc)
            self.relied |= dot[1].arguments
            return dot[0]
        found = _operands(expr)
        if found is None or found[0] is np.power:
            return expr
        ufunc, args = found
        known = type_of(_plain(expr), env)
        if known is None or known.array is None:
            return expr
        convert = _one_dtype(ufunc, args, env, known.array.dtype)
        new_args = [self._operand(arg, args, known.array.dtype, env, loc, convert) for arg in args]
        if all(new is old for new, old in zip(new_args, args)):
            return expr
        self.relied |= known.arguments
        if isinstance(expr, ir.Op):
            return ir.Op(expr.op, tuple(new_args))
        assert isinstance(expr, ir.Call), expr  # _operands finds operators and calls only
        return ir.Call(expr.func, tuple(new_args), expr.keywords)

    def _operand(self, arg: ir.Expr, args: tuple[ir.Expr, ...], dtype: object, env: TypeEnv,
                 loc: ir.Loc, convert: bool) -> ir.Expr:
        """An operand spelled cheaper: a bias as a row, a number converted once (if `convert`:
        NumPy converts every operand to the result's dtype, `dtype`)."""
        if not isinstance(arg, ir.Const):
            return arg
        others = [type_of(other, env) for other in args if other is not arg]
        if isinstance(arg.value, np.ndarray):
            row = next((row for other in others if (row := _row(arg.value, other)) is not None), None)
            if row is not None:
                notes.changed("shape once", "bias as a row, shaped once", loc=loc)
                return ir.Const(row)
            return arg
        converted = self._converted(arg.value, dtype) if convert else None
        if converted is not None and any(other is not None and other.array is not None and
                                         other.array.dtype == dtype
                                         for other in others):
            notes.changed("convert once", "convert {} once", repr(arg.value), loc=loc)
            return ir.Const(converted)
        return arg

    def statement(self, stmt: ir.Stmt, env: TypeEnv) -> ir.Stmt:
        if isinstance(stmt, ir.AugAssign) and isinstance(stmt.target, ir.Name):
            # `t += b` is `add(t, b, out=t)`: its value is an operand like any other
            as_call = self.node(ir.Op(stmt.op, (stmt.target, stmt.value)), env, stmt.loc)
            if isinstance(as_call, ir.Op) and as_call.args[1] is not stmt.value:
                return ir.AugAssign(stmt.target, stmt.op, as_call.args[1], stmt.loc)
            return stmt
        return map_statement_expressions(stmt, lambda expr: self.node(expr, env, stmt.loc))


def use_cheaper_numpy_calls(function: ir.Function) -> ir.Function:
    """Spell array operations the cheaper ways NumPy computes identically (see module doc)."""
    # nothing to spell without arrays; and `locals()` would see the constants bound
    if not may_hold_arrays(function) or introspects(function):
        return function
    cheaper = _Cheaper()
    body, _ = TypeFlow(untracked_names(function), cheaper.statement).block(
        function.body, argument_env(function))
    if body is function.body:
        return function
    assumptions = type_assumptions(function, cheaper.relied, "use_cheaper_numpy_calls")
    return function.with_body(body).assuming(*assumptions)
