"""Methods of user classes: which function an operation on an instance calls, and the test
that says, where it runs, that it still calls that function.

An analysis for inline_calls, which inlines `m[i, j]` as `Matrix.__getitem__`'s body (and
`m[i, j] = v` as `Matrix.__setitem__`'s) when the
version is compiled for an argument `m` of exactly the class `Matrix` (the runtime passes such
classes among the argument types, see `receiver_class`). Python finds the method an operator
calls on the type, never on the instance: `m[i, j]` runs the first `__getitem__` of
`type(m).__mro__` (no `__getattr__`, `__getattribute__` or instance attribute takes part).
Where that is a plain Python function it can be inlined; anything else (a builtin base's slot,
a `staticmethod`, a callable object) is called as written. Code the compiler cannot see may
assign `m.__class__`, rebind `Matrix.__getitem__` or delete it at any time, so the inlined
body sits behind `method_check`, made where Python looks the method up:
`type(m) is Matrix and getattr(Matrix, '__getitem__', None) is getitem`. The class's
metaclass is `type`, so the lookup is that of `Matrix.__mro__`'s dicts, as Python's for the
operation, and finds a function as it is; a method deleted gives None, where `Matrix.__getitem__`
would raise AttributeError (the operation as written raises the TypeError Python raises).
"""

from __future__ import annotations

import types
from typing import Iterable

from .. import ir
from ..ir.ops import OPS, binary_methods
from ..ir.rewrite import walk_statements

# the operations on an instance whose method is inlined, by the method's name
SUBSCRIPT_METHOD = "__getitem__"
STORE_METHOD = "__setitem__"  # `m[i, j] = v`
# the methods whose operations inline_calls inlines: a class defining one is passed as a kind
INLINED_METHODS = (SUBSCRIPT_METHOD, STORE_METHOD,
                   *(pair[0] for name in OPS if (pair := binary_methods(name)) is not None))
# a heap type (a class made by a `class` statement), as `type.__flags__` says
_HEAPTYPE = 1 << 9


def receiver_class(value: object) -> type | None:
    """The class of `value` if it is a plain user class (made by `class` statements only,
    with no metaclass and no builtin base but `object`) defining a method inline_calls may
    inline; else None. The runtime compiles a version for such an argument's class."""
    cls = type(value)
    if not _plain_class(cls):
        return None
    return cls if any(_lookup(cls, name) is not None for name in INLINED_METHODS) else None


def receiver_class_kind(kind: object) -> bool:
    """Whether an argument's kind is a class `receiver_class` passes (not a number type)."""
    return isinstance(kind, type) and kind not in (bool, int, float, complex) \
        and _plain_class(kind)


def _plain_class(cls: type) -> bool:
    return all(type(klass) is type and klass.__flags__ & _HEAPTYPE
               for klass in cls.__mro__[:-1]) and cls.__mro__[-1] is object


def _lookup(cls: type, name: str) -> object | None:
    """What Python's lookup of a special method finds on `cls`: the first class dict of its
    method resolution order holding `name` (None if none does)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            found: object = klass.__dict__[name]
            return found
    return None


def resolved_method(cls: object, name: str) -> tuple[types.FunctionType | None, str]:
    """The plain function an operation on an instance of exactly `cls` calls for the method
    `name`, or None and why not."""
    if not isinstance(cls, type) or not _plain_class(cls):
        return None, f"{getattr(cls, '__name__', cls)} is not a plain Python class"
    found = _lookup(cls, name)
    if found is None:
        return None, f"{cls.__name__} has no {name}"
    if type(found) is not types.FunctionType:
        return None, f"{cls.__name__}.{name} is not a plain function ({type(found).__name__})"
    return found, ""


def method_check(receiver: ir.Expr, cls: type, name: str, function: types.FunctionType,
                 *more: ir.Expr) -> ir.Expr:
    """`type(m) is Matrix and getattr(Matrix, '__getitem__', None) is getitem`: that the
    operation on `receiver` still calls `function`; false, never raising, where the method is
    rebound or deleted (see `ir.names.falls_back`, which recognizes this test)."""
    exact = ir.Compare(("is",), (ir.Call(ir.Const(type), (receiver,), ()), ir.Const(cls)))
    lookup = ir.Call(ir.Const(getattr), (ir.Const(cls), ir.Const(name), ir.Const(None)), ())
    same = ir.Compare(("is",), (lookup, ir.Const(function)))
    return ir.BoolOp("and", (exact, same, *more))


def operand_check(operand: ir.Expr, cls: type, known: object) -> ir.Expr | None:
    """For `a + b` inlined as `cls.__add__(a, b)`: the test that `type(b)` is not a proper
    subclass of `cls` (whose reflected method Python would call first), `type(b) is D` for
    the class `b` is known to be in the version (`cls` where not known); None where nothing
    needs testing (a number type: never a subclass of a plain class)."""
    if known in (bool, int, float, complex):
        return None
    expected = known if isinstance(known, type) and _plain_class(known) else cls
    if expected is not cls and issubclass(expected, cls):
        expected = cls  # (a proper subclass may reflect: only `cls` itself is inlined for)
    return ir.Compare(("is",), (ir.Call(ir.Const(type), (operand,), ()), ir.Const(expected)))


def may_return_not_implemented(callee: types.FunctionType, body: tuple[ir.Stmt, ...]) -> bool:
    """Whether a binary operator's method may return NotImplemented (then Python tries the
    other operand's reflected method, which an inlined body would not): unless each `return`
    gives an operator's or comparison's result, a display, a constant other than
    NotImplemented, or an instance made by calling a plain class of its module (no `__new__`
    of its own) — and falling off the end returns None."""
    return any(isinstance(stmt, ir.Return) and not _never_not_implemented(stmt.value, callee)
               for stmt in walk_statements(body))


def _never_not_implemented(value: ir.Expr | None, callee: types.FunctionType) -> bool:
    match value:
        case None | ir.Compare() | ir.Build() | ir.DictDisplay():
            return True
        case ir.Const(constant):
            return constant is not NotImplemented
        case ir.Op(op):
            return OPS[op].kind == "binary" or op == "not"
        case ir.IfExp(_, body, orelse):
            return _never_not_implemented(body, callee) and _never_not_implemented(orelse, callee)
        case ir.Call(ir.Name(name)):
            made = callee.__globals__.get(name)
            return isinstance(made, type) and _plain_class(made) \
                and not any("__new__" in klass.__dict__ for klass in made.__mro__[:-1])
    return False


# what a value class (passes/unbox_objects.py) must not define: code that would run when
# an object is made (`__new__`), stored to, read or freed; `object`'s are fixed
_ABSENT = ("__new__", "__setattr__", "__getattribute__", "__getattr__", "__delattr__",
           "__del__")
# what `cls.__dict__.get(name, NOT_DEFINED)` gives for a name the class does not define
NOT_DEFINED = type("NotDefined", (), {"__repr__": lambda self: "NOT_DEFINED"})()


def value_class_intact(cls: type, init: types.FunctionType, fields: list[str]) -> bool:
    """Whether `cls` is now as `value_class_check` tests: a class made by a `class`
    statement with no base but `object` and no metaclass, whose own `__init__` is `init`,
    defining none of `_ABSENT`, no `__slots__` and no class attribute named like a field (a
    data descriptor would take the field's stores and reads)."""
    own = cls.__dict__
    return _plain_class(cls) and cls.__mro__ == (cls, object) and type(cls) is type \
        and own.get("__init__") is init and "__slots__" not in own \
        and not any(name in own for name in (*_ABSENT, *fields))


def value_class_check(cls: type, own: ir.Expr, init: types.FunctionType,
                      fields: tuple[str, ...], used: dict[str, types.FunctionType]) -> ir.Expr:
    """The test that `value_class_intact` still holds and each method in `used` is still the
    class's own (`own` holds `cls.__dict__`, read before)."""
    return _own_dict_check(cls, own, (
        ("__init__", init), ("__dict__", cls.__dict__["__dict__"]), *sorted(used.items()),
        *((name, NOT_DEFINED) for name in (*_ABSENT, *fields))))


def _own_dict_check(cls: type, own: ir.Expr, expected: Iterable[tuple[str, object]]) -> ir.Expr:
    """`len(Vec2.__mro__) == 2`, then for each name and value `own.get(name, NOT_DEFINED) is
    value` (`own` holds `cls.__dict__`): reads of the class's own dict, which run no code of
    anyone's, where `Vec2.__add__` would run a descriptor's `__get__`."""
    def holds(name: str, value: object) -> ir.Expr:
        read = ir.Call(ir.Attribute(own, "get"), (ir.Const(name), ir.Const(NOT_DEFINED)), ())
        return ir.Compare(("is",), (read, ir.Const(value)))
    mro = ir.Call(ir.Const(len), (ir.Attribute(ir.Const(cls), "__mro__"),), ())
    return ir.BoolOp("and", (ir.Compare(("eq",), (mro, ir.Const(2))),
                             *(holds(name, value) for name, value in expected)))


def plain_attributes_intact(cls: type, attr: str) -> bool:
    """Whether reading `attr` of an instance of exactly `cls` reads its `__dict__` and runs no
    code: `cls` has no base but `object`, and its own dict holds no `__getattribute__` and
    nothing named `attr` (a data descriptor there would run on the read)."""
    own = cls.__dict__
    return _plain_class(cls) and cls.__mro__ == (cls, object) and type(cls) is type \
        and "__getattribute__" not in own and attr not in own \
        and isinstance(own.get("__dict__"), types.GetSetDescriptorType)


def plain_attributes_check(cls: type, attrs: tuple[str, ...],
                           used: dict[str, types.FunctionType]) -> ir.Expr:
    """The test that `plain_attributes_intact` still holds for `attrs` and each method in
    `used` is still the class's own, reading only the class's dict."""
    return _own_dict_check(cls, ir.Attribute(ir.Const(cls), "__dict__"), (
        ("__dict__", cls.__dict__["__dict__"]), *sorted(used.items()),
        *((name, NOT_DEFINED) for name in ("__getattribute__", *sorted(set(attrs))))))
