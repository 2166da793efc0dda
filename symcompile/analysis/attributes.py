"""Reading an attribute of a user's object without running any of its code.

The compiler asks the objects it meets for their names and markers (`__name__`, `__module__`,
`_symcompile`) while it compiles. Plain `getattr` would run the object's `__getattr__`, a
property or a `__getattribute__`: user code that could print, raise anything, or call the very
function being compiled. `static_attribute` reads the way `inspect.getattr_static` does, and
also reads the attributes builtin types implement in C (a function's `__name__`, a module's
`__name__`, a slot), whose descriptors run no Python code. A bound method's attributes are its
function's, as for `getattr`. `instance_attribute` reads a plain instance attribute the same way
and says whether an identity test can watch the value it holds.
"""

from __future__ import annotations

import inspect
import types

import numpy as np

MISSING = object()
# descriptors of builtin types, implemented in C: reading through them runs no Python code
_C_DESCRIPTORS = (types.GetSetDescriptorType, types.MemberDescriptorType)
# what a function's type and `object` define (`__name__`, `__code__`, `__doc__`...)
_FUNCTION_TYPE_ATTRIBUTES = frozenset(dir(types.FunctionType))
# the attributes Python and builtin functions hold in C (their types' member and getset
# descriptors, which come before the instance's `__dict__`), read directly: neither type can be
# subclassed, so `getattr` finds the very descriptor `getattr_static` would
_C_FUNCTION_ATTRIBUTES = frozenset(
    (kind, name) for kind in (types.FunctionType, types.BuiltinFunctionType)
    for name, descriptor in vars(kind).items() if isinstance(descriptor, _C_DESCRIPTORS))


def static_attribute(value: object, name: str, default: object = None) -> object:
    """`getattr(value, name, default)`, but never running code of the object's class: a
    property, another Python descriptor or `__getattr__` gives `default` (or the descriptor
    object itself, as `inspect.getattr_static` does)."""
    if (type(value), name) in _C_FUNCTION_ATTRIBUTES:
        return getattr(value, name, default)
    if type(value) is types.FunctionType and name not in _FUNCTION_TYPE_ATTRIBUTES:
        # (a shortcut, asked of every callee: a plain function's other attributes are those
        # in its `__dict__`; `FunctionType` cannot be subclassed)
        found = value.__dict__.get(name, MISSING)
    else:
        found = inspect.getattr_static(value, name, MISSING)
    if found is MISSING:
        if type(value) is types.MethodType:
            return static_attribute(value.__func__, name, default)
        return default
    if isinstance(found, _C_DESCRIPTORS):
        try:
            return found.__get__(value, type(value))
        except (AttributeError, TypeError):
            return default
    return found


# values an identity test cannot watch: equal ones may be distinct objects, and a literal in
# the generated code would be yet another
_VALUE_TYPES = (int, float, complex, str, bytes, tuple, frozenset, np.generic)


def is_plain_instance(value: object) -> bool:
    """Whether `value` is an instance of a user class whose attributes are read without running
    code (no `__getattribute__` of its own), not a module, class or function."""
    if isinstance(value, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                          types.MethodType, np.ndarray, list, dict, set) + _VALUE_TYPES) \
            or value is None:
        return False
    return type(value).__getattribute__ is object.__getattribute__


def watchable(value: object) -> bool:
    """Whether `x is value` tells that x still holds `value` (None, True, False or an object
    without a literal: an array, a function, a list, an instance)."""
    return value is None or value is True or value is False or not isinstance(value, _VALUE_TYPES)


def instance_attribute(value: object, attr: str) -> tuple[bool, object]:
    """(True, `value.attr`) if it is a plain instance attribute (in the instance's `__dict__`,
    not hidden by a property or other data descriptor of its class) holding a watchable value."""
    own = static_attribute(value, "__dict__")
    if not is_plain_instance(value) or not isinstance(own, dict) or attr not in own:
        return False, None
    on_class = inspect.getattr_static(type(value), attr, MISSING)
    if on_class is not MISSING and (
            inspect.getattr_static(type(on_class), "__set__", MISSING) is not MISSING
            or inspect.getattr_static(type(on_class), "__delete__", MISSING) is not MISSING):
        return False, None
    found = own[attr]
    return (True, found) if watchable(found) else (False, None)
