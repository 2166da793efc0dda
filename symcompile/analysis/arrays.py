"""Analyses of NumPy arrays, for the passes that compute into them (eliminate_temporaries).

Which expressions are array operations that make a new array (`array_operation`), which of
those NumPy computes into an operand with the same bits (`exact_in_place`) or into another
array (`holds_result`), which locals hold arrays no one else can see (`private_arrays`), and
whether a function may change an array's shape or dtype in place (`may_reshape_arrays`). The kinds of the arrays themselves come from
`value_types`.
"""

from __future__ import annotations

import ast
import types
from collections import Counter

import numpy as np

from .. import ir
from ..ir.names import local_names, parameter_names, untracked_names
from ..ir.rewrite import statement_expressions, walk_expr, walk_statements
from .value_types import ARRAY_UFUNCS, COMPARISON_UFUNCS, REDUCING_METHODS, REDUCTIONS

# ufuncs whose every NumPy loop gives the same bits for real dtypes, so that computing into an
# operand (which may take another loop: SIMD or not, by overlap and length) cannot change a
# result: IEEE's correctly rounded `+ - * / sqrt`, and exact ones. Not complex multiply (its
# loops round differently), nor exp, log, sin... (their loops may differ in the last bit)
EXACT_UFUNCS = frozenset({
    np.add, np.subtract, np.multiply, np.true_divide, np.negative, np.positive, np.absolute,
    np.sqrt, np.square, np.maximum, np.minimum, np.bitwise_and, np.bitwise_or,
    np.bitwise_xor, np.invert, np.left_shift, np.right_shift,
})
EXACT_ON_INTEGERS = frozenset({np.floor_divide, np.remainder})
# unary ufuncs on real floats that may differ by loop but run the same loop in place: each
# element is read before it is written, and NumPy's SIMD loops take an output that is exactly
# the input as not overlapping it (`nomemoverlap`), as they take a fresh output. Checked bit
# for bit against a fresh output, in place and into another array, on float64 and float32 of
# 1-70, 1000, 4097 and 1e5 elements (tests/test_never_slower.py)
SAME_LOOP_IN_PLACE = frozenset({
    np.exp, np.exp2, np.expm1, np.log, np.log2, np.log10, np.log1p, np.sin, np.cos, np.tan,
    np.sinh, np.cosh, np.tanh, np.arcsin, np.arccos, np.arctan, np.arcsinh, np.arctanh,
    np.cbrt, np.floor, np.ceil, np.rint, np.trunc,
})

# attributes whose store (or call: `a.resize(...)`) changes an array's shape or dtype in place
_RESHAPING_ATTRIBUTES = frozenset({"shape", "dtype", "strides", "resize"})


def array_operation(expr: ir.Expr) -> tuple[np.ufunc | None, tuple[ir.Expr, ...]] | None:
    """The ufunc `expr` applies and its operands, if it is an operator or a ufunc call (for
    `a @ b`, `where(c, a, b)` and a comparison, which make new arrays but are not computed into
    one here, no ufunc)."""
    match expr:
        case ir.Op(op, args) if op in ARRAY_UFUNCS:
            return ARRAY_UFUNCS[op], args
        case ir.Op("matmul", args):
            return None, args
        case ir.Call(ir.Const(function), (_, _, _) as args, ()) if function is np.where:
            return None, args
        case ir.Compare((op,), args) if op in COMPARISON_UFUNCS:
            return None, args  # a new array of bools
        case ir.Call(ir.Const(np.ufunc() as ufunc), args, ()) if not any(
                isinstance(arg, ir.Starred) for arg in args):
            return ufunc, args
    return None


def reduced(expr: ir.Expr) -> ir.Expr | None:
    """The array a whole-array reduction reads (`np.sum(e)`, `e.max()`), which keeps no
    reference to it (when it is an array: the reduction's result is a new NumPy scalar)."""
    match expr:
        case ir.Call(ir.Const(function), (operand,), ()) if function in REDUCTIONS:
            return operand
        case ir.Call(ir.Attribute(operand, method), (), ()) if method in REDUCING_METHODS:
            return operand
    return None


def private_arrays(function: ir.Function) -> set[str]:
    """Locals whose arrays nothing else can see: every assignment is an operation's result
    (or an in-place operator) and every read is an operand of an operation (a comparison
    too) or the array a reduction reads (`np.sum(e)`)."""
    mentioned: Counter[str] = Counter()
    allowed: Counter[str] = Counter()  # as a whole target of those assignments, or an operand
    for stmt in walk_statements(function.body):
        match stmt:
            case ir.Assign((ir.Name(name),), value) if array_operation(value) is not None:
                allowed[name] += 1
            case ir.AugAssign(ir.Name(name), op) if op in ARRAY_UFUNCS:
                allowed[name] += 1
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                if isinstance(node, ir.Name):
                    mentioned[node.id] += 1
                found = array_operation(node)
                allowed.update(arg.id for arg in (found[1] if found else ()) if isinstance(arg, ir.Name))
                if isinstance(operand := reduced(node), ir.Name):
                    allowed[operand.id] += 1
    candidates = local_names(function) - set(parameter_names(function)) - untracked_names(function)
    return {name for name in candidates if mentioned[name] == allowed[name]}


def may_reshape_arrays(function: ir.Function) -> bool:
    """Whether the function may change an array's shape or dtype in place (`a.shape = ...`)."""
    for stmt in walk_statements(function.body):
        if isinstance(stmt, ir.Opaque):
            nodes = ast.walk(stmt.node)
            if any(isinstance(node, ast.Attribute) and node.attr in _RESHAPING_ATTRIBUTES
                   and not isinstance(node.ctx, ast.Load) for node in nodes):
                return True
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                if isinstance(node, ir.Attribute) and node.attr == "resize":
                    return True
        if isinstance(stmt, ir.Assign) and any(
                isinstance(target, ir.Attribute) and target.attr in _RESHAPING_ATTRIBUTES
                for target in stmt.targets):
            return True
    return False


def may_hold_arrays(function: ir.Function) -> bool:
    """Whether a value of the function may be known to be a NumPy array: an argument of an
    array kind (or of any kind but a builtin type), or a NumPy object it reads (a module, a
    function, an array or scalar; by name or bound). The array lowerings have nothing to do
    without one (the value types know arrays only from these)."""
    if any(not isinstance(kind, type) or kind.__module__ != "builtins"
           for kind in function.argument_types.values()):
        return True
    namespace = function.namespace
    local = local_names(function)
    for stmt in walk_statements(function.body):
        if isinstance(stmt, ir.Opaque):
            return True
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                match node:
                    case ir.OpaqueExpr():
                        return True
                    case ir.Const(value) if _from_numpy(value):
                        return True
                    case ir.Name(name) if namespace is not None and name not in local \
                            and _from_numpy(namespace.lookup(name)[1]):
                        return True
    return False


def _from_numpy(value: object) -> bool:
    module = value.__name__ if isinstance(value, types.ModuleType) \
        else getattr(value, "__module__", None) or type(value).__module__
    return isinstance(module, str) and module.split(".")[0] == "numpy" \
        or type(value).__module__.split(".")[0] == "numpy"


def exact_in_any_loop(ufunc: np.ufunc, kind: ir.ArrayKind) -> bool:
    """Whether every NumPy loop of `ufunc` gives the same bits for results of kind `kind`."""
    dtype = kind.dtype
    if dtype.kind in "biu":
        return ufunc in EXACT_UFUNCS or ufunc in EXACT_ON_INTEGERS or ufunc is np.power
    return dtype.kind == "f" and dtype.itemsize >= 4 and (ufunc in EXACT_UFUNCS or ufunc is np.power)


def exact_in_place(ufunc: np.ufunc, kind: ir.ArrayKind) -> bool:
    """Whether computing `ufunc` into an operand's array is sure to give the same bits."""
    dtype: np.dtype = kind.dtype
    return exact_in_any_loop(ufunc, kind) or (
        dtype.kind == "f" and dtype.itemsize >= 4 and ufunc in SAME_LOOP_IN_PLACE)


def holds_result(ufunc: np.ufunc | None, kind: ir.ArrayKind) -> bool:
    """Whether an array of the result's kind `kind`, one that is none of the operands, can
    take `ufunc`'s result with the same bits (`out=`): NumPy then runs the loop it runs for a
    new array, which it makes of that dtype and shape, C-contiguous (so known extents and a
    contiguous layout are needed; a power's `t ** 2` squares, `power(t, 2, out=)` does not)."""
    return ufunc is not None and ufunc is not np.power and kind.shape is not None \
        and kind.contiguous
