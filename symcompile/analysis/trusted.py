"""Trusted code and plain values: the effects analysis's tables, and its verdicts' vocabulary.

The lowest part of the effects analysis (`effects` judges a function's operations with it).
An operation runs no code the compiler cannot see only where each value it works on is
*plain*: a bool, int, float, complex, str, bytes or None, a tuple of plain values, a NumPy
array or scalar of a numeric dtype (exact types: no subclasses), a dtype, a builtin number type
or a function or class of NumPy, math or cmath (`plain_value`). Trusted calls are the builtins
of `TRUSTED_BUILTINS` and the functions of the `TRUSTED_MODULES`, given plain arguments (the
`STRUCTURAL_BUILTINS` also take lists and dicts the function built itself, whose structure they
read without running their items' code; the `BLIND_BUILTINS` take anything); and the
`CONTAINER_METHODS` of those lists and dicts.

A verdict is what "runs no unseen code" rests on (`Relied`: names of arguments whose types and
of globals whose values it needs), or None where unseen code may run; `union` joins verdicts.
"""

from __future__ import annotations

import builtins
import types
from typing import Iterable

import numpy as np

from .. import ir
from .attributes import static_attribute

# modules whose functions, given plain values, never call back into user code
TRUSTED_MODULES = ("numpy", "math", "cmath")
TRUSTED_BUILTINS = frozenset({
    "abs", "all", "any", "bool", "complex", "divmod", "enumerate", "float", "id", "int",
    "isinstance", "len", "list", "max", "min", "pow", "print", "range", "reversed", "round",
    "sorted", "sum", "tuple", "type", "zip",
})
# builtins that read only the structure of a list or dict the function built (not its items)
STRUCTURAL_BUILTINS = frozenset({"len", "enumerate", "zip", "reversed", "list", "tuple"})
# builtins that run no code of their one argument, whatever it is
BLIND_BUILTINS = frozenset({"type", "id"})
# methods of a list or dict the function built itself that run no code of their own (their
# arguments must be plain: a key is hashed, an index converted), and the one that takes any
CONTAINER_METHODS = frozenset({"append", "pop", "insert", "reverse", "copy", "clear", "get",
                               "keys", "values", "items"})
ANY_ARGUMENT_METHODS = frozenset({"append"})
_PLAIN_TYPES = (bool, int, float, complex, str, bytes, type(None))
_PLAIN_CLASSES = frozenset({bool, int, float, complex, str})
_NUMERIC_KINDS = "biufc"

Relied = frozenset[str]
NOTHING: Relied = frozenset()


def union(parts: Iterable[Relied | None]) -> Relied | None:
    """All of `parts` together, or None if one of them is None. (Most parts are empty, and
    most unions have one part that is not: no new set for those.)"""
    result = NOTHING
    for part in parts:
        if part is None:
            return None
        if part:
            result = result | part if result else frozenset(part)
    return result


def plain_value(value: object) -> bool:
    """Whether operations on `value` (or passing it to a builtin or NumPy) run no user code."""
    if type(value) in _PLAIN_TYPES or isinstance(value, np.dtype):
        return True
    if type(value) is tuple:
        return all(plain_value(item) for item in value)
    if type(value) is np.ndarray:
        return value.dtype.kind in _NUMERIC_KINDS
    if isinstance(value, np.generic):
        return type(value) is value.dtype.type and value.dtype.kind in _NUMERIC_KINDS
    if isinstance(value, type) and value in _PLAIN_CLASSES:
        return True
    return library_object(value)


def library_object(value: object) -> bool:
    """Whether `value` is a function or class of NumPy, math or cmath."""
    if not callable(value) or isinstance(value, types.ModuleType):
        return False
    module = static_attribute(value, "__module__") or ""
    return isinstance(module, str) and module.split(".")[0] in TRUSTED_MODULES


def bound_builtin(func: ir.Expr) -> str | None:
    """The name of the trusted builtin `func` holds as a bound object (`type` in a loop's
    `type(a) is float`), or None."""
    if isinstance(func, ir.Const):
        for name in TRUSTED_BUILTINS:
            if func.value is getattr(builtins, name):
                return name
    return None


def plain_type(kind: ir.ArgumentType) -> bool:
    """Whether every value of the argument type `kind` is plain."""
    return isinstance(kind, ir.ArrayKind) or kind in _PLAIN_CLASSES


def builds_container(value: ir.Expr) -> bool:
    """Whether `value` builds a new list or dict (a display, `list()`, `dict()`)."""
    match value:
        case ir.Build("list", _) | ir.DictDisplay():
            return True
        case ir.Call(ir.Name("list" | "dict"), ()):
            return True
    return False
