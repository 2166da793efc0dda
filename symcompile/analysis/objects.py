"""Compiled objects: an object's structure read at compile time, and the checks that keep it true.

`symbolic(net)` compiles `type(net).__call__` with `self` fixed to `net`. The passes may then
read the structure of the objects the code reaches, where the function is compiled with
`resolve_objects`: `fold_constants` reads plain instance attributes (`self.layers`,
`layer.W`), `unroll_loops` the items of a list it loops over, `inline_calls` calls of a callable
object (`layer(x)` runs `Dense.__call__`). Arrays are bound by reference, so in-place updates
(`layer.W -= step`) are seen; what is read is the binding. Each fact becomes an assumption
with a `fails_when` test, checked on entry like a global's guard: `layer.W = new_W`, appending
a layer, or another class's `__call__` makes the call recompile.

The facts hold during a call only if nothing in it can change them: `holds_during_call` checks
that the compiled function runs no code the compiler cannot see (no unknown call, no attribute
read, no operator on a value of unknown type) and stores into no attribute or item; where it
fails, the function is compiled again without reading objects. Changing a bound array's shape
or dtype in place (`b.shape = ...`) is not noticed: rebind it instead (`layer.b = ...`).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Sized

from .. import ir
from ..ir.rewrite import walk_expr, walk_statements
from .attributes import MISSING, is_plain_instance, static_attribute
from .effects import Effects


def _label(value: object) -> str:
    return f"<{type(value).__name__} at {id(value):#x}>"


def _fact(name: str, value: object, reason: str, fails_when: ir.Expr) -> ir.Assumption:
    return ir.Assumption(name, value, reason, fails_when=fails_when)


def attribute_fact(owner: object, attr: str, value: object) -> ir.Assumption:
    """`owner.attr` holds `value` (checked `owner.attr is not value`)."""
    read = ir.Attribute(ir.Const(owner), attr)
    return _fact(f"{_label(owner)}.{attr}", value, f"{type(owner).__name__}.{attr} as compiled",
                 ir.Compare(("isnot",), (read, ir.Const(value))))


def list_facts(items: list[object]) -> list[ir.Assumption]:
    """The list holds these items, in this order (checked by its length and each item)."""
    facts = [_fact(f"len({_label(items)})", len(items), "a list looped over, as compiled",
                   ir.Compare(("ne",), (ir.Call(ir.Const(len), (ir.Const(items),)),
                                        ir.Const(len(items)))))]
    for index, item in enumerate(items):
        read = ir.Subscript(ir.Const(items), ir.Const(index))
        facts.append(_fact(f"{_label(items)}[{index}]", item, "a list looped over, as compiled",
                           ir.Compare(("isnot",), (read, ir.Const(item)))))
    return facts


def call_facts(value: object, method: object, kind: type | None = None,
               ) -> list[ir.Assumption]:
    """Calling `value` runs `method`: its class (`kind`, by default its class now) and the
    class's `__call__` are as compiled."""
    kind = kind or type(value)
    return [
        _fact(f"type({_label(value)})", kind, "a called object's class, as compiled",
              ir.Compare(("isnot",), (ir.Call(ir.Const(type), (ir.Const(value),)), ir.Const(kind)))),
        _fact(f"{kind.__qualname__}.__call__ at {id(kind):#x}", method, "its __call__, as compiled",
              ir.Compare(("isnot",), (ir.Attribute(ir.Const(kind), "__call__"), ir.Const(method)))),
    ]


def class_call(kind: type) -> object:
    """What a class holds as `__call__` (for a Python function, what `kind.__call__` is)."""
    return inspect.getattr_static(kind, "__call__", None)


def call_method(value: object) -> types.FunctionType | None:
    """The Python function a call of the instance `value` runs (`type(value).__call__`; a
    `@symbolic` one is itself a Python function, whose `original` is what it compiles)."""
    if not is_plain_instance(value):
        return None
    method = class_call(type(value))
    return method if isinstance(method, types.FunctionType) else None


def fails(assumption: ir.Assumption) -> bool:
    """Whether an object fact no longer holds (its `fails_when` test is true now)."""
    if assumption.fails_when is None:
        raise ValueError(f"not an object fact: {assumption.name}")
    return bool(_evaluate(assumption.fails_when))


def _evaluate(expr: ir.Expr) -> object:
    """The value of a fact's test: constants, attribute and item reads, `len`, `type`, `is not`
    and `!=`; the reads run no code of the objects' classes (the facts only name attributes
    read that way, and a class changed since would have its code run on the call path)."""
    match expr:
        case ir.Const(value):
            return value
        case ir.Attribute(owner, attr):
            return static_attribute(_evaluate(owner), attr, MISSING)
        case ir.Subscript(items, ir.Const(int() as index)):
            sequence = _evaluate(items)
            return sequence[index] if isinstance(sequence, list) and index < len(sequence) \
                else MISSING
        case ir.Call(ir.Const(function), (argument,)) if function is len:
            held = _evaluate(argument)
            return len(held) if isinstance(held, Sized) else MISSING
        case ir.Call(ir.Const(function), (argument,)) if function is type:
            return type(_evaluate(argument))
        case ir.Compare(("isnot",), (left, right)):
            return _evaluate(left) is not _evaluate(right)
        case ir.Compare(("ne",), (left, right)):
            return _evaluate(left) != _evaluate(right)
    raise ValueError(f"not a fact's test: {ir.format_expr(expr)}")


def holds_during_call(function: ir.Function) -> list[ir.Assumption] | None:
    """The entry checks (argument kinds, globals) that keep the object facts `function` relies
    on true while it runs; None if nothing can: it may run code the compiler cannot see
    (`effects`: a call, an operator on or a subscript of or NumPy given a value of unknown
    type, an attribute read that may run a property), or it stores into an attribute or item."""
    effects = Effects(function)
    relied = effects.body(function.body)
    if relied is None:
        return None
    for stmt in walk_statements(function.body):
        if isinstance(stmt, (ir.Assign, ir.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ir.Assign) else (stmt.target,)
            if any(isinstance(node, (ir.Attribute, ir.Subscript))
                   for target in targets for node in walk_expr(target)):
                return None
    effects.rely(relied)
    return effects.assumptions()
