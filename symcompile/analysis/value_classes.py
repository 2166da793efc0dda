"""Value classes: small user classes whose objects are only their fields.

A *value class* is made by a `class` statement with no base but `object` and no metaclass;
its own `__init__` only stores each parameter in turn as a field (`self.x = x`), and it defines
no hook that runs code when an object is made, read, stored to or freed (`__new__`,
`__setattr__`, `__getattribute__`, `__getattr__`, `__delattr__`, `__del__`, `__slots__`, a
class attribute named like a field). Its fields can then live in locals while nothing else
sees the objects (passes/unbox_objects.py, passes/interchange_object_loops.py); the test that
the class is still so is `methods.value_class_check`.
"""

from __future__ import annotations

import types
from dataclasses import dataclass

from .. import ir
from ..errors import SymbolicError
from ..frontend.build import build_function, read_function_source
from .methods import resolved_method, value_class_intact


@dataclass
class ValueClass:
    """A class whose `__init__` only stores its parameters as fields."""

    cls: type
    init: types.FunctionType
    params: tuple[str, ...]  # the fields, in the order of `__init__`'s parameters


def function_ir(function: types.FunctionType) -> ir.Function | None:
    """The IR of a plain function without defaults, keywords, closure or generator flags (the
    shapes the value-class rewrites read); None for any other or one without source."""
    code = function.__code__
    if code.co_freevars or code.co_flags & (0x04 | 0x08 | 0x20 | 0x80 | 0x100 | 0x200) \
            or function.__defaults__ or function.__kwdefaults__ or code.co_kwonlyargcount \
            or code.co_posonlyargcount:
        return None
    try:
        return build_function(read_function_source(function))
    except (SymbolicError, OSError, SyntaxError):
        return None


def value_class(cls: object) -> ValueClass | None:
    """`cls` as a value class: plain, its `__init__` a plain function whose body is
    `self.f = f` for each parameter in turn (fields named as ordinary names), nothing the
    class check rules out (see `value_class_check`)."""
    init, _ = resolved_method(cls, "__init__")
    if init is None or not isinstance(cls, type):
        return None
    body = function_ir(init)
    names = init.__code__.co_varnames[:init.__code__.co_argcount]
    if body is None or len(names) < 2 or len(body.body) != len(names) - 1:
        return None
    stored: list[str] = []
    for stmt, param in zip(body.body, names[1:]):
        match stmt:
            case ir.Assign((ir.Attribute(ir.Name(owner), attr),), ir.Name(value)) \
                    if owner == names[0] and value == param and not attr.startswith("__"):
                stored.append(attr)
            case _:
                return None
    if len(set(stored)) != len(stored) or not value_class_intact(cls, init, stored):
        return None
    return ValueClass(cls, init, tuple(stored))
