"""Reading an attribute of a user's object without running any of its code.

The compiler asks the objects it meets for their names and markers (`__name__`, `__module__`,
`_symcompile`) while it compiles. Plain `getattr` would run the object's `__getattr__`, a
property or a `__getattribute__`: user code that could print, raise anything, or call the very
function being compiled. `static_attribute` reads the way `inspect.getattr_static` does, and
also reads the attributes builtin types implement in C (a function's `__name__`, a module's
`__name__`, a slot), whose descriptors run no Python code. A bound method's attributes are its
function's, as for `getattr`.
"""

from __future__ import annotations

import inspect
import types

_MISSING = object()
# descriptors of builtin types, implemented in C: reading through them runs no Python code
_C_DESCRIPTORS = (types.GetSetDescriptorType, types.MemberDescriptorType)


def static_attribute(value: object, name: str, default: object = None) -> object:
    """`getattr(value, name, default)`, but never running code of the object's class: a
    property, another Python descriptor or `__getattr__` gives `default` (or the descriptor
    object itself, as `inspect.getattr_static` does)."""
    found = inspect.getattr_static(value, name, _MISSING)
    if found is _MISSING:
        if type(value) is types.MethodType:
            return static_attribute(value.__func__, name, default)
        return default
    if isinstance(found, _C_DESCRIPTORS):
        try:
            return found.__get__(value, type(value))
        except (AttributeError, TypeError):
            return default
    return found
