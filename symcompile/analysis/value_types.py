"""Value types: the Python number type (bool, int, float, complex) of an expression, or the
kind of NumPy array it is (`ir.ArrayKind`: dtype, dimensions, shape), where certain.

An analysis for the passes whose rewrites are exact for some types only (simplify_algebra,
speculate_loop_types, eliminate_temporaries). Types come from constants, from the argument types
a version is compiled for (`ir.Function.argument_types`) and from tests such as
`if type(x) is float:`. They flow through operators by Python's own rules (`int / int` is a
float, `True + True` an int), and for arrays by NumPy's: an operator on an array is its ufunc
(`a * b` is `np.multiply(a, b)`), whose result dtype NumPy itself resolves (NEP 50: a Python
float beside a float32 array stays float32). They flow through assignments, branches and
loops; a loop over `range(...)` of ints counts in ints where `range` is the builtin bound as
an object (a pass that binds it relies on the global: speculate_clean_loops). A fact that rests on an argument's type remembers that argument, so a rewrite relying on
it can have the argument's type checked on entry.

A whole-array reduction (`np.sum(a)`, `a.max()`) of a known array is the NumPy scalar NumPy
gives for its dtype. Everything else (other calls, subscripts, names opaque code touches) is unknown, and
unknown is always safe: a rule that needs a type does not fire. An array's dtype and dimensions
are taken never to change (code setting `.shape` or `.dtype` is not rewritten).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import math
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from .. import ir
from ..ir.names import (
    assigned_names,
    opaque_names,
    target_names,
    terminates,
    untracked_names,
)
from ..ir.rewrite import required_header, walk_statements

NUMBER_TYPES: tuple[type, ...] = (bool, int, float, complex)
_RANK = {bool: 0, int: 1, float: 2, complex: 3}
_ZEROS: dict[type, bool | int | float | complex] = {bool: False, int: 0, float: 0.0, complex: 0j}
_ARITHMETIC = frozenset({"add", "sub", "mul", "truediv", "floordiv", "mod", "pow"})
_BITWISE = frozenset({"bitand", "bitor", "bitxor", "lshift", "rshift"})
_ALWAYS_BOOL = frozenset({"is", "isnot", "in", "notin"})
# math functions that return a float whenever they return (given any argument)
_FLOAT_FUNCTIONS = frozenset({
    math.sqrt, math.exp, math.expm1, math.log, math.log2, math.log10, math.log1p, math.sin,
    math.cos, math.tan, math.asin, math.acos, math.atan, math.atan2, math.sinh, math.cosh,
    math.tanh, math.asinh, math.acosh, math.atanh, math.hypot, math.fabs, math.pow, math.copysign,
    math.fmod, math.degrees, math.radians, math.erf, math.erfc, math.gamma, math.lgamma,
})
# NumPy's whole-array reductions (no axis): the NumPy scalar each gives depends on the array's
# dtype only (`np.sum` of a float64 array is an np.float64, of an int8 array an np.int64;
# `np.max` of an empty array raises), so it is found by reducing a one-element array
REDUCTIONS: frozenset[Callable[..., object]] = frozenset({
    np.sum, np.prod, np.max, np.min, np.amax, np.amin, np.mean, np.std, np.var})
# the same reductions as methods of an array (`a.sum()`)
REDUCING_METHODS: dict[str, Callable[..., object]] = {
    "sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "mean": np.mean, "std": np.std,
    "var": np.var}
# the ufunc a comparison applies when an operand is an array
COMPARISON_UFUNCS: dict[str, np.ufunc] = {
    "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
    "eq": np.equal, "ne": np.not_equal,
}
# the ufunc each operator applies when an operand is an array (`ndarray.__add__` is np.add)
ARRAY_UFUNCS: dict[str, np.ufunc] = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
    "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power, "bitand": np.bitwise_and,
    "bitor": np.bitwise_or, "bitxor": np.bitwise_xor, "lshift": np.left_shift,
    "rshift": np.right_shift, "neg": np.negative, "pos": np.positive, "invert": np.invert,
}


@dataclass(frozen=True)
class Known:
    """An expression's type, and the arguments whose types (as compiled for) that relies on."""

    type: ir.ArgumentType
    arguments: frozenset[str] = frozenset()

    @property
    def is_number(self) -> bool:
        return self.type in _RANK

    @property
    def array(self) -> ir.ArrayKind | None:
        return self.type if isinstance(self.type, ir.ArrayKind) else None


TypeEnv = Mapping[str, Known]


def join(a: Known | None, b: Known | None) -> Known | None:
    """What is certain of a value that is either `a` or `b`."""
    if a is None or b is None or (a.type is not b.type and a.type != b.type):
        return None  # (two arrays of equal kinds made apart are of one kind)
    return a if a.arguments >= b.arguments else Known(a.type, a.arguments | b.arguments)


def join_envs(a: TypeEnv, b: TypeEnv) -> dict[str, Known]:
    return {name: known for name in a.keys() & b.keys() if (known := join(a[name], b[name]))}


def _both(a: Known, b: Known, result: type) -> Known:
    return Known(result, a.arguments | b.arguments)


def _number(known: Known) -> type | None:
    """The Python number type (bool, int, float, complex) of `known`, if it is one."""
    return known.type if isinstance(known.type, type) and known.type in _RANK else None


def all_known(values: Sequence[Known | None]) -> list[Known] | None:
    """`values`, if every one is known; else None."""
    known = [value for value in values if value is not None]
    return known if len(known) == len(values) else None


def ufunc_result(ufunc: np.ufunc, operands: list[Known]) -> Known | None:
    """The array an elementwise ufunc gives for these operands, at least one of them an
    array: its dtype as NumPy resolves it (None where NumPy refuses the types), dimensions and
    shape as broadcasting gives them (the shape only where it is certain)."""
    if not any(known.array for known in operands) or len(operands) != ufunc.nin \
            or ufunc.nout != 1 or ufunc.signature is not None:
        return None
    try:
        dtype = ufunc.resolve_dtypes((*operand_dtypes(operands), None))[-1]
    except (TypeError, ValueError):  # NumPy has no loop for these types
        return None
    return _new_array(dtype, operands)


def operand_dtypes(operands: list[Known]) -> list[np.dtype[np.generic] | type]:
    """What NumPy's dtype resolution takes for each operand: an array's dtype, a NumPy
    scalar's or a bool's dtype, or a Python int, float or complex as its type (weak, NEP 50)."""
    return [_operand_dtype(known.type) for known in operands]


def _operand_dtype(kind: ir.ArgumentType) -> np.dtype[np.generic] | type:
    if isinstance(kind, ir.ArrayKind):
        return kind.dtype
    return np.dtype(kind) if kind is bool or kind not in _RANK else kind


def _new_array(dtype: np.dtype[np.generic], operands: list[Known]) -> Known:
    """A new array of `dtype` made elementwise from `operands`: broadcast to their shapes,
    laid out like them (C-contiguous if they all are), resting on what they rest on."""
    arrays = [known.array for known in operands if known.array is not None]
    shape: tuple[ir.Dim, ...] | None = arrays[0].shape
    for kind in arrays[1:]:
        shape = broadcast(shape, kind.shape)
    ndim = max(kind.ndim for kind in arrays)
    contiguous = ndim == 1 or all(kind.contiguous for kind in arrays)
    return Known(ir.ArrayKind(dtype, ndim, shape, contiguous),
                 frozenset().union(*(known.arguments for known in operands)))


# NumPy's constructors of a new array of a shape, and of one like another array
_FILLED_ARRAYS = frozenset({np.zeros, np.empty, np.ones})
_ARRAYS_LIKE = frozenset({np.zeros_like, np.empty_like, np.ones_like})


@functools.cache
def _reduced_type(function: Callable[..., object], dtype: np.dtype[np.generic]) -> type:
    return type(function(np.ones(1, dtype)))


def _reduction(function: Callable[..., object], operand: Known | None) -> Known | None:
    """`np.sum(a)` (or another of `REDUCTIONS`) of an array `a` of a known kind: a NumPy
    scalar of the type NumPy gives for a's dtype."""
    if operand is None or operand.array is None:
        return None
    return Known(_reduced_type(function, operand.array.dtype), operand.arguments)


def _fresh_copy(original: Known | None, keep_layout: bool) -> Known | None:
    """A new array of the kind of the array `original` (`a.copy()`, C-contiguous; or
    `np.zeros_like(a)`, laid out as `a` is), or None if that is not a known array."""
    if original is None or original.array is None:
        return None
    kind = original.array
    contiguous = kind.contiguous or not keep_layout
    return Known(ir.ArrayKind(kind.dtype, kind.ndim, kind.shape, contiguous), original.arguments)


def broadcast(a: tuple[ir.Dim, ...] | None, b: tuple[ir.Dim, ...] | None) -> tuple[ir.Dim, ...] | None:
    """The shape NumPy broadcasts shapes `a` and `b` to, where certain: extents that are equal
    or 1 (a symbol may stand for 1 or not, so two different ones give None)."""
    if a is None or b is None:
        return None
    if len(a) < len(b):
        a, b = b, a
    b = (1,) * (len(a) - len(b)) + b
    result: list[ir.Dim] = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            result.append(x)
        elif x == 1:
            result.append(y)
        else:
            return None
    return tuple(result)


def _matmul(left: Known, right: Known) -> Known | None:
    """`a @ b` for two 2-D arrays: a new C-contiguous array of shape (a[0], b[1])."""
    a, b = left.array, right.array
    if a is None or b is None or a.ndim != 2 or b.ndim != 2:
        return None
    try:
        dtype = np.matmul.resolve_dtypes((a.dtype, b.dtype, None))[-1]
    except (TypeError, ValueError):
        return None
    shape = (a.shape[0], b.shape[1]) if a.shape is not None and b.shape is not None else None
    return Known(ir.ArrayKind(dtype, 2, shape), left.arguments | right.arguments)


def _where(operands: list[Known | None]) -> Known | None:
    """`np.where(c, a, b)`: a new array of a's and b's promoted dtype (NEP 50), broadcast."""
    known = all_known(operands)
    if known is None or not any(value.array for value in known):
        return None
    return _new_array(np.result_type(*(_promoted(value.type) for value in known[1:])), known)


def _promoted(kind: ir.ArgumentType) -> np.dtype[np.generic] | bool | int | float | complex:
    """What `np.result_type` takes for a value of `kind`: a Python number as a weak scalar."""
    if isinstance(kind, ir.ArrayKind):
        return kind.dtype
    return _ZEROS[kind] if kind in _ZEROS else np.dtype(kind)


def array_kind(value: object) -> ir.ArrayKind | None:
    """The kind of an array of numbers of at least one dimension; None for anything else."""
    if type(value) is not np.ndarray or value.ndim == 0 or value.dtype.kind not in "biufc" \
            or value.dtype is not np.dtype(value.dtype.char):
        return None
    return ir.ArrayKind(value.dtype, value.ndim, value.shape,
                        value.ndim == 1 or value.flags.c_contiguous)


def _binary(op: str, left: Known, right: Known, exponent: ir.Expr) -> Known | None:
    left_number, right_number = _number(left), _number(right)
    if left_number is None or right_number is None:
        if op == "matmul":
            return _matmul(left, right)
        if op == "pow" and isinstance(exponent, ir.Const) and type(exponent.value) is int \
                and exponent.value == 2:
            # `a ** 2` is `np.square(a)` (NumPy's shortcut, for the int 2 only): a bool array
            # squares to int8
            squared = ufunc_result(np.square, [left])
            return Known(squared.type, squared.arguments | right.arguments) if squared else None
        return ufunc_result(ARRAY_UFUNCS[op], [left, right]) if op in ARRAY_UFUNCS else None
    wider = max(left_number, right_number, key=_RANK.__getitem__)
    if op in _BITWISE:
        if wider in (float, complex):
            return None  # raises TypeError
        both_bool = left.type is bool and right.type is bool and op in ("bitand", "bitor", "bitxor")
        return _both(left, right, bool if both_bool else int)
    if op == "truediv":
        return _both(left, right, complex if wider is complex else float)
    if op == "pow":
        if wider is complex:
            return _both(left, right, complex)
        if right.type in (bool, int) and left.type is float:
            return _both(left, right, float)
        non_negative = isinstance(exponent, ir.Const) and isinstance(exponent.value, (int, float)) \
            and exponent.value >= 0
        if right.type in (bool, int) and non_negative:
            return _both(left, right, int)
        return None  # `2 ** -1` is a float, `(-8.0) ** (1 / 3)` a complex
    if op in _ARITHMETIC and not (wider is complex and op in ("floordiv", "mod")):
        return _both(left, right, int if wider is bool else wider)
    return None


def _unary(op: str, operand: Known) -> Known | None:
    if not operand.is_number:
        return ufunc_result(ARRAY_UFUNCS[op], [operand]) if op in ARRAY_UFUNCS else None
    if op in ("neg", "pos"):
        return Known(int if operand.type is bool else operand.type, operand.arguments)
    if op == "invert" and operand.type in (bool, int):
        return Known(int, operand.arguments)
    return None


def type_of(expr: ir.Expr, env: TypeEnv) -> Known | None:
    """The type `expr` certainly has when it evaluates without raising, or None."""
    return Typer(env, env.known if isinstance(env, Types) else None).of(expr)


class Types(dict[str, Known]):
    """The types of the variables at one point of a `TypeFlow`, never changed once made (like
    every `TypeEnv`), which remembers the type of every expression `type_of` works out in it:
    a pass that asks about each node of an expression, bottom-up, types each node once (with
    a plain mapping, an expression n deep costs n² steps). It lives as long as the flow's
    pass run holds it, and its nodes with it."""

    __slots__ = ("known",)

    def __init__(self, types: Mapping[str, Known] | Iterable[tuple[str, Known]] = ()) -> None:
        super().__init__(types)
        self.known: dict[int, tuple[ir.Expr, Known | None]] = {}  # see `Typer`


class Typer:
    """`type_of` in one environment, remembering the type of every node it has met: a pass
    that asks about many nodes of one statement keeps one `Typer` for the statement's types,
    so each node is typed once however many expressions contain it (without, typing every
    subexpression of an expression n deep costs n² steps). Nodes are remembered by identity,
    and kept alive with their types so an `id` is never reused while the `Typer` lives."""

    def __init__(self, env: TypeEnv, known: dict[int, tuple[ir.Expr, Known | None]] | None = None,
                 ) -> None:
        self.env = env
        # each node's type by the node's identity (`Types` keeps one for its environment)
        self._known = known if known is not None else {}

    def of(self, expr: ir.Expr) -> Known | None:
        """The type `expr` certainly has when it evaluates without raising, or None."""
        found = self._known.get(id(expr))
        if found is None:
            # the match is here, not in a helper: one frame per level of a deep expression
            known: Known | None = None
            match expr:
                case ir.Const(value) if type(value) in NUMBER_TYPES:
                    known = Known(type(value))
                case ir.Const(np.generic() as value) if value.dtype.kind in "biufc":
                    known = Known(type(value))  # a NumPy scalar: its dtype takes part in promotion
                case ir.Const(value) if (kind := array_kind(value)) is not None:
                    known = Known(kind)  # an array bound by reference: its contents may change, not its kind
                case ir.Name(name):
                    known = self.env.get(name)
                case ir.Op("not", _):
                    known = Known(bool)
                case ir.Op(op, (operand,)):
                    known = self.of(operand)
                    known = _unary(op, known) if known else None
                case ir.Op(op, (left, right)):
                    left_type, right_type = self.of(left), self.of(right)
                    known = _binary(op, left_type, right_type, right) if left_type and right_type else None
                case ir.Compare(ops, operands):
                    known = self._comparison(ops, operands)
                case ir.BoolOp(_, (first, *rest)):  # the value is one of the operands
                    known = self.of(first)
                    for value in rest:
                        known = join(known, self.of(value))
                case ir.IfExp(_, body, orelse):
                    known = join(self.of(body), self.of(orelse))
                case ir.Call(ir.Const(function), args, ()) if function in _FLOAT_FUNCTIONS and not any(
                        isinstance(arg, ir.Starred) for arg in args):
                    known = Known(float)
                case ir.Call(ir.Const(function), (condition, left, right), ()) if function is np.where:
                    known = _where([self.of(arg) for arg in (condition, left, right)])
                case ir.Call(ir.Const(function), (left, right), ()) if function is np.dot:
                    known_left, known_right = self.of(left), self.of(right)
                    known = _matmul(known_left, known_right) if known_left and known_right else None
                case ir.Call(ir.Const(np.ufunc() as ufunc), args, ()) if not any(
                        isinstance(arg, ir.Starred) for arg in args):
                    typed = all_known([self.of(arg) for arg in args])
                    known = ufunc_result(ufunc, typed) if typed is not None else None
                case ir.Call(ir.Const(function), (shape, *dtype), keywords) \
                        if function in _FILLED_ARRAYS and len(dtype) + len(keywords) <= 1:
                    known = self._filled(shape, (*dtype, *(kw.value for kw in keywords
                                                           if kw.name == "dtype")), keywords)
                case ir.Call(ir.Const(function), (like,), ()) if function in _ARRAYS_LIKE:
                    known = _fresh_copy(self.of(like), keep_layout=True)
                case ir.Call(ir.Const(function), (operand,), ()) if function in REDUCTIONS:
                    known = _reduction(function, self.of(operand))
                case ir.Call(ir.Attribute(owner, method), (), ()) if method in REDUCING_METHODS:
                    known = _reduction(REDUCING_METHODS[method], self.of(owner))
                case ir.Call(ir.Attribute(owner, "copy"), (), ()):
                    known = _fresh_copy(self.of(owner), keep_layout=False)
                case ir.Subscript(ir.Attribute(owner, "shape"), ir.Const(int() as axis)):
                    array = self.of(owner)
                    known = Known(int, array.arguments) if array is not None and array.array \
                        is not None and -array.array.ndim <= axis < array.array.ndim else None
            found = self._known[id(expr)] = (expr, known)
        return found[1]

    def _filled(self, shape: ir.Expr, dtype: tuple[ir.Expr, ...],
                keywords: tuple[ir.Keyword, ...]) -> Known | None:
        """`np.zeros(shape, dtype)` and its kind (`empty`, `ones`): a new C-contiguous array of
        a number dtype given as a constant (float64 if none), of as many dimensions as `shape`
        has ints."""
        spelled = [part.value for part in dtype if isinstance(part, ir.Const)]
        if any(kw.name != "dtype" for kw in keywords) or len(spelled) != len(dtype):
            return None
        try:
            kind: np.dtype[np.generic] = np.dtype(spelled[0] if spelled else np.float64)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return None
        if kind.kind not in "biufc" or kind.byteorder == ">":
            return None
        extents = shape.elts if isinstance(shape, ir.Build) and shape.kind == "tuple" else (shape,)
        typed = all_known([self.of(extent) for extent in extents])
        if not extents or typed is None or any(known.type is not int for known in typed):
            return None
        sizes = [extent.value for extent in extents
                 if isinstance(extent, ir.Const) and type(extent.value) is int]
        return Known(ir.ArrayKind(kind, len(extents), tuple(sizes) if len(sizes) == len(extents) else None),
                     frozenset().union(*(known.arguments for known in typed)))

    def _comparison(self, ops: tuple[str, ...], operands: tuple[ir.Expr, ...]) -> Known | None:
        if all(op in _ALWAYS_BOOL for op in ops):
            return Known(bool)
        known = all_known([self.of(operand) for operand in operands])
        if known is None:
            return None
        if all(k.is_number for k in known):
            return Known(bool, frozenset().union(*(k.arguments for k in known)))
        if len(ops) == 1 and ops[0] in COMPARISON_UFUNCS:
            return ufunc_result(COMPARISON_UFUNCS[ops[0]], known)
        return None


def refine(test: ir.Expr, env: TypeEnv) -> TypeEnv:
    """`env` where `test` is true: `type(x) is float` makes x a float (so does a test that
    is `and` of it and others)."""
    match test:
        case ir.BoolOp("and", values):
            for value in values:
                env = refine(value, env)
            return env
        case ir.Compare(("is",), (ir.Call(ir.Const(check), (ir.Name(name),), ()), ir.Const(kind))) \
                if check is type and isinstance(kind, type) and kind in NUMBER_TYPES:
            return {**env, name: Known(kind)}
    return env


Rewrite = Callable[[ir.Stmt, TypeEnv], ir.Stmt]


def _keep(stmt: ir.Stmt, env: TypeEnv) -> ir.Stmt:
    return stmt


class TypeFlow:
    """Walks statements in order, knowing the types of variables at each one, and lets
    `rewrite` replace each statement's own expressions (nested bodies are walked by the flow).
    `rewrite` must keep types: the flow continues with what it returns."""

    def __init__(self, untracked: set[str], rewrite: Rewrite = _keep) -> None:
        self.untracked = untracked
        self.rewrite = rewrite

    def block(self, body: tuple[ir.Stmt, ...], env: TypeEnv) -> tuple[tuple[ir.Stmt, ...], TypeEnv]:
        result: list[ir.Stmt] = []
        for stmt in body:
            new, env = self.statement(stmt, env)
            result.append(new)
        return (body if all(a is b for a, b in zip(body, result)) else tuple(result)), env

    def statement(self, stmt: ir.Stmt, env: TypeEnv) -> tuple[ir.Stmt, TypeEnv]:
        env = env if isinstance(env, Types) else Types(env)
        new, after = self._transfer(stmt, env)
        self.bound(stmt, after)
        return new, after

    def bound(self, stmt: ir.Stmt, after: TypeEnv) -> None:
        """Called with the types after each statement; a hook for subclasses."""

    def _transfer(self, stmt: ir.Stmt, env: TypeEnv) -> tuple[ir.Stmt, TypeEnv]:
        match stmt:
            case ir.If(test, then, orelse, loc):
                test = required_header(self.rewrite(stmt, env))
                new_then, after_then = self.block(then, refine(test, env))
                new_else, after_else = self.block(orelse, env)
                if terminates(then):
                    env = after_else
                elif terminates(orelse):
                    env = after_then
                else:
                    env = join_envs(after_then, after_else)
                if test is stmt.test and new_then is then and new_else is orelse:
                    return stmt, env
                return ir.If(test, new_then, new_else, loc), env
            case ir.For() | ir.While():
                return self._loop(stmt, env)
            case ir.Opaque(node):
                return stmt, {n: k for n, k in env.items() if n not in opaque_names(node).stored}
        new = self.rewrite(stmt, env)
        return new, self._after(new, env)

    def _after(self, stmt: ir.Stmt, env: TypeEnv) -> TypeEnv:
        """The types after a simple statement (no nested bodies)."""
        assigned = assigned_names(stmt)
        if not assigned:
            return env
        result = Types(env)  # copied at C speed: a function may have thousands of variables
        for name in assigned:
            result.pop(name, None)
        match stmt:
            case ir.Assign(targets, value) if all(isinstance(t, ir.Name) for t in targets):
                known = type_of(value, env)
            case ir.Assign((ir.Build("tuple" | "list", names),), ir.Attribute(owner, "shape")) \
                    if (array := type_of(owner, env)) is not None and array.array is not None \
                    and array.array.ndim == len(names) \
                    and all(isinstance(name, ir.Name) for name in names):
                known = Known(int, array.arguments)  # `h, w = img.shape`: every extent an int
            case ir.AugAssign(ir.Name(name) as target, op, value):
                known = type_of(ir.Op(op, (target, value)), env)
                if known is not None and known.array is not None:
                    # in place: the array keeps its own kind (if NumPy computes in its dtype)
                    own = env.get(name)
                    same_dtype = own is not None and own.array is not None \
                        and own.array.dtype == known.array.dtype
                    known = Known(own.type, known.arguments) if own is not None and same_dtype \
                        else None
            case _:
                known = None
        if known is not None:
            result.update((name, known) for name in assigned if name not in self.untracked)
        return result

    def _loop(self, stmt: ir.For | ir.While, env: TypeEnv) -> tuple[ir.Stmt, TypeEnv]:
        head = self.loop_head(stmt, env)
        header = self.rewrite(stmt, head if isinstance(stmt, ir.While) else env)
        new_body, _ = self.block(stmt.body, _turn_start(stmt, head))
        new_else, after_else = self.block(stmt.orelse, head)
        after = join_envs(head, after_else)
        if header is stmt and new_body is stmt.body and new_else is stmt.orelse:
            return stmt, after
        if isinstance(header, ir.For):
            return ir.For(header.target, header.iter, new_body, new_else, stmt.loc), after
        if isinstance(header, ir.While):
            return ir.While(header.test, new_body, new_else, stmt.loc), after
        raise ValueError(f"a loop's header rewritten as {type(header).__name__}")

    def loop_head(self, stmt: ir.For | ir.While, env: TypeEnv) -> TypeEnv:
        """What holds at the top of every turn (and wherever the loop is left): a name the
        loop writes keeps a type only if its value on entry and every value the loop gives it
        have that type. Found by iterating from the types on entry until nothing changes."""
        written = {name for inner in walk_statements((stmt,)) for name in assigned_names(inner)}
        head: TypeEnv = env
        while True:
            recorder = _AssignedTypes(self.untracked)
            recorder.block(stmt.body, _turn_start(stmt, head))
            new_head: dict[str, Known] = {}
            for name, entry in env.items():
                known: Known | None = entry
                if name in written:
                    known = None if _loop_target(stmt, name) else known
                    for value in recorder.assigned.get(name, []):
                        known = join(known, value)
                if known is not None:
                    new_head[name] = known
            if new_head == head:
                return head
            head = new_head


def _loop_target(stmt: ir.For | ir.While, name: str) -> bool:
    return isinstance(stmt, ir.For) and name in set(target_names(stmt.target))


def _turn_start(stmt: ir.For | ir.While, head: TypeEnv) -> TypeEnv:
    """The types at the start of a turn: a `for` loop's target holds an element (unknown, but
    an int for `range` itself, bound as an object, of ints)."""
    if isinstance(stmt, ir.For):
        turn = {name: known for name, known in head.items() if not _loop_target(stmt, name)}
        match stmt:
            case ir.For(ir.Name(name), ir.Call(ir.Const(func), args, ())) if func is range and args:
                counts = [type_of(arg, head) for arg in args]
                if all(known is not None and known.type in (int, bool) for known in counts):
                    turn[name] = Known(int, frozenset().union(
                        *(known.arguments for known in counts if known is not None)))
        return turn
    return head


class _AssignedTypes(TypeFlow):
    """A flow that records, for every name, the type of each value a statement binds to it."""

    def __init__(self, untracked: set[str]) -> None:
        super().__init__(untracked)
        self.assigned: dict[str, list[Known | None]] = {}

    def bound(self, stmt: ir.Stmt, after: TypeEnv) -> None:
        for name in assigned_names(stmt):
            self.assigned.setdefault(name, []).append(after.get(name))


def argument_env(function: ir.Function) -> dict[str, Known]:
    """The types of the arguments the version is compiled for, each resting on its argument."""
    untracked = untracked_names(function)
    return {name: Known(kind, frozenset({name})) for name, kind in function.argument_types.items()
            if name not in untracked}


# per compilation (see `types_shared`): each function's `types_before`, by the function's
# identity (the function held, so the id stays its own)
_shared_types: contextvars.ContextVar[dict[int, tuple[ir.Function, dict[int, TypeEnv]]] | None] = \
    contextvars.ContextVar("symcompile_types_before", default=None)


@contextlib.contextmanager
def types_shared() -> Iterator[None]:
    """Inside the block, `types_before` of one function object is worked out once. Most passes
    of a round return the function they were given, and the next asks again about the same
    (immutable) function: a compilation asked some twenty-five times per round."""
    token = _shared_types.set({})
    try:
        yield
    finally:
        _shared_types.reset(token)


def types_before(function: ir.Function) -> dict[int, TypeEnv]:
    """For every statement (by `id`), the types known when it starts (a new dict the caller
    may add to; the environments in it are shared and never changed)."""
    shared = _shared_types.get()
    if shared is None:
        return _types_before(function)
    held = shared.get(id(function))
    if held is None:
        held = shared[id(function)] = (function, _types_before(function))
    return dict(held[1])


def _types_before(function: ir.Function) -> dict[int, TypeEnv]:
    found: dict[int, TypeEnv] = {}

    def record(stmt: ir.Stmt, env: TypeEnv) -> ir.Stmt:
        # one statement object may stand in several places (unrolled copies)
        found[id(stmt)] = join_envs(found[id(stmt)], env) if id(stmt) in found else env
        return stmt

    TypeFlow(untracked_names(function), record).block(function.body, argument_env(function))
    return found


def type_assumptions(function: ir.Function, relied: set[str], relier: str) -> tuple[ir.Assumption, ...]:
    """The entry checks for the types of the arguments `relied` (as the version is compiled
    for them) that a pass named `relier` relied on. An array whose shape is another's brings
    that argument, whose shape its own is checked against."""
    kinds = function.argument_types
    relied = {name for name in relied if name in kinds}
    relied |= {owner for name in relied if isinstance(kind := kinds[name], ir.ArrayKind)
               and (owner := kind.shape_owner) is not None}
    return tuple(ir.Assumption(name, kinds[name], f"{relier} relies on {name}: {_spelled(kinds[name])}",
                               argument=True, of_type=True)
                 for name in kinds if name in relied)  # in the order of the parameters


def _spelled(kind: ir.ArgumentType) -> str:
    return kind.__name__ if isinstance(kind, type) else str(kind)
