"""fold_constants: evaluate pure operations whose operands are all constants.

Folding runs the real Python (or NumPy) operation, so the value is exactly what the program
would compute. An evaluation that raises, warns, or would build a value larger than CPython's
own folder allows is left in the code to happen at run time. It also reads global constants
(`SCALE = 2.0`, `DEBUG = False`) and constants of modules (`math.pi`); a global it reads
becomes an assumption the generated code checks on every call.

Example::

    import math

    def f(x):
        return x * (2 + 3) + abs(-2) * math.pi + (1 / 0)
    # --- after fold_constants ---
    def f(x):
        return x * 5 + 6.283185307179586 + 1 / 0
"""

from __future__ import annotations

import math
import operator
import types
import warnings
from typing import Callable

import numpy as np

from .. import ir
from ..analysis import written_names
from ..effects import Effects, rewrite_clean_statements
from ..ops import OPS
from ..rewrite import map_statement_expressions, statement_expressions

# CPython's folder refuses results above these sizes; ours are a little more generous
MAX_INT_BITS = 4096
MAX_STR_LENGTH = 4096
MAX_TUPLE_LENGTH = 256

# immutable values a folded result (and a folded global) may be
_FOLDABLE_TYPES = (bool, int, float, complex, str, bytes, type(None), np.generic)

# builtins and math functions that compute a value from their arguments and nothing else
PURE_BUILTINS = frozenset({
    abs, min, max, len, round, int, float, complex, bool, divmod, pow, chr, ord, sum,
})
PURE_MODULES: frozenset[types.ModuleType] = frozenset({math})


def is_foldable_value(value: object) -> bool:
    """An immutable value of bounded size, safe to compute once and write into the code."""
    if isinstance(value, tuple):
        return len(value) <= MAX_TUPLE_LENGTH and all(map(is_foldable_value, value))
    if not isinstance(value, _FOLDABLE_TYPES):
        return False
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() <= MAX_INT_BITS
    if isinstance(value, (str, bytes)):
        return len(value) <= MAX_STR_LENGTH
    return True


def _too_big(function: Callable[..., object], args: tuple[object, ...]) -> bool:
    """Whether evaluating would build an oversized value (checked before running it)."""
    if function in (operator.pow, pow) and len(args) == 2:
        base, exponent = args
        if isinstance(base, int) and isinstance(exponent, int) and exponent > 0:
            return base.bit_length() * exponent > MAX_INT_BITS
    if function is operator.lshift:
        base, shift = args
        if isinstance(base, int) and isinstance(shift, int):
            return base.bit_length() + shift > MAX_INT_BITS
    if function is operator.mul:
        for sequence, count in (args, args[::-1]):
            if isinstance(sequence, (str, bytes, tuple)) and isinstance(count, int):
                return len(sequence) * count > MAX_STR_LENGTH
    if function in (math.factorial, math.comb, math.perm):
        return any(isinstance(arg, int) and arg > 1000 for arg in args)
    return False


def evaluate(function: Callable[..., object], args: tuple[object, ...],
             kwargs: dict[str, object] | None = None) -> tuple[bool, object]:
    """(True, result) if `function(*args)` runs quietly and gives a foldable value, else
    (False, None): an exception, a warning or a NumPy floating-point error leaves it to run time."""
    if _too_big(function, args):
        return False, None
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="raise"):
        warnings.simplefilter("always")
        try:
            result = function(*args, **(kwargs or {}))
        except Exception:
            return False, None
    if caught or not is_foldable_value(result):
        return False, None
    return True, result


def _pure_callee(func: ir.Expr, function: ir.Function, locals_: set[str]) -> tuple[object, ir.Assumption | None] | None:
    """The pure callable a call's function expression names, and the assumption that takes."""
    namespace = function.namespace
    if namespace is None:
        return None
    match func:
        case ir.Const(value) if callable(value) and getattr(value, "__module__", None) in \
                {module.__name__ for module in PURE_MODULES}:
            return value, None
        case ir.Name(name) if name not in locals_:
            found, value = namespace.lookup(name)
            if found and any(value is pure for pure in PURE_BUILTINS):
                return value, ir.Assumption(name, value, f"{name}() folded as the builtin")
        case ir.Attribute(ir.Name(module_name), attr) if module_name not in locals_:
            found, module = namespace.lookup(module_name)
            if found and any(module is pure for pure in PURE_MODULES):
                value = vars(module).get(attr)  # type: ignore[arg-type]
                if callable(value):
                    return value, None
    return None


def _const_values(exprs: tuple[ir.Expr, ...]) -> tuple[object, ...] | None:
    if all(isinstance(e, ir.Const) and is_foldable_value(e.value) for e in exprs):
        return tuple(e.value for e in exprs)  # type: ignore[union-attr]
    return None


def _fold_boolean(op: str, values: tuple[ir.Expr, ...]) -> ir.Expr | None:
    """`True and x` → `x`, `0 or x` → `x`, `0 and x` → `0`: leading constants decide."""
    keep_going = op == "and"  # a truthy operand of `and` (falsy of `or`) passes control on
    index = 0
    while index < len(values) - 1 and isinstance(values[index], ir.Const):
        constant = values[index].value  # type: ignore[union-attr]
        if not is_foldable_value(constant):
            break
        if bool(constant) != keep_going:
            return values[index]
        index += 1
    if index == 0:
        return None
    rest = values[index:]
    return rest[0] if len(rest) == 1 else ir.BoolOp(op, rest)


def _const_index(index: ir.Expr) -> object | None:
    """The value of a constant index or slice (`1`, `1:`, `::-1`), else None."""
    if isinstance(index, ir.Const) and isinstance(index.value, int):
        return index.value
    if isinstance(index, ir.Slice):
        parts = [part for part in (index.lower, index.upper, index.step) if part is not None]
        if all(isinstance(part, ir.Const) and isinstance(part.value, int) for part in parts):
            return slice(*(None if part is None else part.value  # type: ignore[union-attr]
                           for part in (index.lower, index.upper, index.step)))
    return None


def _fold_leading_comparison(ops: tuple[str, ...], operands: tuple[ir.Expr, ...]) -> ir.Expr | None:
    """`1 < 2 < x` → `2 < x`; `3 < 2 < x` → `False` (x is never evaluated)."""
    values = _const_values(operands[:2])
    if values is None:
        return None
    ok, result = evaluate(OPS[ops[0]].evaluate, values)
    if not ok:
        return None
    return ir.Compare(ops[1:], operands[1:]) if result else ir.Const(result)


def fold_expression(expr: ir.Expr, function: ir.Function, locals_: set[str],
                    assumed: list[ir.Assumption] | None) -> ir.Expr:
    """One folding step at `expr` (its children are already folded). Globals and builtins are
    resolved only where `assumed` collects the assumptions that takes (None: nowhere)."""
    match expr:
        case ir.Op(op, args) if (values := _const_values(args)) is not None:
            ok, result = evaluate(OPS[op].evaluate, values)
            return ir.Const(result) if ok else expr
        case ir.Compare(ops, operands) if (values := _const_values(operands)) is not None:
            def chain(*items: object) -> object:
                result: object = True
                for op, left, right in zip(ops, items, items[1:]):
                    result = OPS[op].evaluate(left, right)
                    if not result:
                        return result
                return result
            ok, result = evaluate(chain, values)
            return ir.Const(result) if ok else expr
        case ir.Compare(ops, operands) if len(ops) > 1:
            return _fold_leading_comparison(ops, operands) or expr
        case ir.BoolOp(op, values):
            return _fold_boolean(op, values) or expr
        case ir.Build("tuple", elts) if (values := _const_values(elts)) is not None:
            return ir.Const(values) if is_foldable_value(values) else expr
        case ir.Subscript(ir.Const(sequence), index) if isinstance(sequence, (tuple, str, bytes)):
            key = _const_index(index)
            if key is not None:
                ok, result = evaluate(operator.getitem, (sequence, key))
                return ir.Const(result) if ok else expr
        case ir.IfExp(ir.Const(test), body, orelse) if is_foldable_value(test):
            return body if test else orelse
        case ir.Call(func, args, keywords) if not any(isinstance(a, ir.Starred) for a in args):
            callee = _pure_callee(func, function, locals_)
            values = _const_values(args)
            kw_values = _const_values(tuple(kw.value for kw in keywords))
            if callee is None or values is None or kw_values is None or \
                    any(kw.name is None for kw in keywords):
                return expr
            value, assumption = callee
            if assumption is not None and assumed is None:
                return expr
            kwargs = {kw.name: v for kw, v in zip(keywords, kw_values) if kw.name is not None}
            ok, result = evaluate(value, values, kwargs)  # type: ignore[arg-type]
            if not ok:
                return expr
            if assumption is not None and assumed is not None:
                assumed.append(assumption)
            return ir.Const(result)
        case ir.Name(name) if assumed is not None and name not in locals_ \
                and function.namespace is not None:
            found, value = function.namespace.lookup(name)
            if found and is_foldable_value(value) and not isinstance(value, np.generic):
                assumed.append(ir.Assumption(name, value, f"global {name} folded"))
                return ir.Const(value)
        case ir.Attribute(ir.Name(module_name), attr) if module_name not in locals_ \
                and function.namespace is not None:
            found, module = function.namespace.lookup(module_name)
            if found and isinstance(module, types.ModuleType):
                value = vars(module).get(attr)
                if is_foldable_value(value) and not isinstance(value, np.generic):
                    return ir.Const(value)
    return expr


def fold_constants(function: ir.Function) -> ir.Function:
    """Evaluate operations on constants, and read global and module constants."""
    written = written_names(function)
    assumed: list[ir.Assumption] = []

    effects = Effects(function)

    def fold_statement(stmt: ir.Stmt, dirty: bool) -> ir.Stmt:
        # a global read is only folded where no unseen code can have rebound it since entry
        clean = not dirty and not any(effects.may_run_user_code(expr)
                                      for expr in statement_expressions(stmt))
        collect = assumed if clean else None
        return map_statement_expressions(
            stmt, lambda expr: fold_expression(expr, function, written, collect))

    return rewrite_clean_statements(function, fold_statement, assumed, effects)
