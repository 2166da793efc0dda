"""interchange_object_loops: time steps over a list of objects, each object's steps at once
with its fields in locals.

`for _ in range(steps): for p in particles: p.vy -= g * DT; p.y += p.vy * DT; ...` reads and
stores the same attributes of each object on every step. Where the body only computes `+ - *`
and comparisons of floats from the fields of `p` and of names the loops never assign, each
object's next state depends on its own state alone, so running every step of one object
before the next gives each object the same sequence of states (an object listed twice too:
it goes through its steps twice either way), and nothing else can look in between. Written
out, each object's fields are read once into locals, stepped, and stored back once:

    for p in particles:
        p_y = p.y
        p_vy = p.vy
        for _ in t_steps:
            p_vy -= g * DT
            p_y += p_vy * DT
        p.y = p_y
        p.vy = p_vy

What that relies on is tested where the loops start, the nest as written kept for the rest:
`range(steps)` evaluated as written and a range of two turns or more, the list a list of one
object or more, each exactly the value class (`analysis/value_classes.py`, checked as
`methods.value_class_check` does: no hook runs code when a field is read or stored) with float
fields (`getattr(p, 'y', None)`: the class as tested, that reads the object's own dict and runs
no code), the other names the body reads floats. Then the body runs no code of anyone's and
raises nothing, and the loop names and the locals it sets end with the values of the last
object's last step, as they do in the nest as written. A RUN_LAST pass (the rounds would
rewrite the kept nest again).

Example::

    class Particle:
        def __init__(self, y, vy):
            self.y = y
            self.vy = vy


    def fall(start, steps, g):
        ps = [Particle(p.y, p.vy) for p in start]
        for _ in range(steps):
            for p in ps:
                p.vy -= g * 0.01
                p.y += p.vy * 0.01
        return ps
    # --- after interchange_object_loops ---
    def fall(start, steps, g):
        ps = [Particle(p.y, p.vy) for p in start]
        t_steps = range(steps)
        Particle_dict = Particle_2.__dict__
        ok = False
        if type(t_steps) is range_2 and t_steps[1:] and type(ps) is list and len(ps
            ) >= 1 and (len(Particle_2.__mro__) == 2 and Particle_dict.get(
            '__init__', notdefined) is init and Particle_dict.get('__dict__',
            notdefined) is dict and Particle_dict.get('__new__', notdefined) is
            notdefined and Particle_dict.get('__setattr__', notdefined) is
            notdefined and Particle_dict.get('__getattribute__', notdefined) is
            notdefined and Particle_dict.get('__getattr__', notdefined) is
            notdefined and Particle_dict.get('__delattr__', notdefined) is
            notdefined and Particle_dict.get('__del__', notdefined) is
            notdefined and Particle_dict.get('vy', notdefined) is notdefined and
            Particle_dict.get('y', notdefined) is notdefined) and type(g) is float:
            ok = True
            for t_e in ps:
                if not (type(t_e) is Particle_2 and type(getattr(t_e, 'vy',
                    None)) is float and type(getattr(t_e, 'y', None)) is float):
                    ok = False
                    break
        if ok:
            t_inv = g * 0.01
            for p in ps:
                p_vy = p.vy
                p_y = p.y
                for _ in t_steps:
                    p_vy -= t_inv
                    p_y += p_vy * 0.01
                p.vy = p_vy
                p.y = p_y
        else:
            for _ in t_steps:
                for p in ps:
                    p.vy -= g * 0.01
                    p.y += p.vy * 0.01
        return ps
"""

from __future__ import annotations

import ast
import builtins
import math

from .. import ir
from ..analysis import methods
from ..analysis.value_classes import ValueClass, value_class
from ..ir.names import all_names, bound_on_entry, fresh_name, introspects, node_kinds
from ..ir.rewrite import (copy_statements, expand_statements, statement_expressions, walk_expr,
                          walk_statements)
from . import notes

_ARITHMETIC = frozenset({"add", "sub", "mul"})
_COMPARISONS = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})
_EXACT_INT = 2 ** 53


class _Body:
    """What a loop body over objects reads and stores, and whether it is float arithmetic."""

    def __init__(self, element: str, function: ir.Function, assigned: set[str]) -> None:
        self.element = element
        self.function = function
        self.assigned = assigned  # names the nest assigns (not invariant)
        self.fields: set[str] = set()
        self.stored: set[str] = set()
        self.temps: set[str] = set()
        self.invariants: set[str] = set()
        self.globals: dict[str, float] = {}  # the global floats it reads, as compiled

    def statements(self, body: tuple[ir.Stmt, ...], top: bool) -> bool:
        return all(self.statement(stmt, top) for stmt in body)

    def statement(self, stmt: ir.Stmt, top: bool) -> bool:
        match stmt:
            case ir.Assign((ir.Attribute(ir.Name(owner), attr),), value) \
                    if owner == self.element:
                self.fields.add(attr)
                self.stored.add(attr)
                return self.float_value(value)
            case ir.AugAssign(ir.Attribute(ir.Name(owner), attr), op, value) \
                    if owner == self.element and op in _ARITHMETIC:
                self.fields.add(attr)
                self.stored.add(attr)
                return self.expr(value)  # (a float field `+ - *` a number: a float)
            case ir.Assign((ir.Name(name),), value) if top and name not in self.temps:
                if not self.float_value(value) or name in self.invariants:
                    return False
                self.temps.add(name)
                return True
            case ir.If(ir.Compare((op,), (left, right)), then, orelse) if op in _COMPARISONS:
                return self.expr(left) and self.expr(right) \
                    and self.statements(then, False) and self.statements(orelse, False)
        return False

    def float_value(self, expr: ir.Expr) -> bool:
        """Whether `expr` is float arithmetic giving a float (a float leaf in it)."""
        return self.expr(expr) and any(
            isinstance(n, (ir.Name, ir.Attribute)) or isinstance(n, ir.Const)
            and type(n.value) is float for n in walk_expr(expr))

    def expr(self, expr: ir.Expr) -> bool:
        match expr:
            case ir.Const(value):
                return type(value) is float or type(value) is int and abs(value) < _EXACT_INT
            case ir.Attribute(ir.Name(owner), attr) if owner == self.element:
                self.fields.add(attr)
                return True
            case ir.Name(name):
                return self.name(name)
            case ir.Op("neg", (operand,)):
                return self.expr(operand)
            case ir.Op(op, (left, right)) if op in _ARITHMETIC:
                return self.expr(left) and self.expr(right)
        return False

    def name(self, name: str) -> bool:
        if name in self.temps:
            return True
        if name in self.assigned or name == self.element:
            return False
        namespace = self.function.namespace
        if name in self.function.locals:
            self.invariants.add(name)
            return True
        value = namespace.globals.get(name) if namespace is not None else None
        if type(value) is not float or not math.isfinite(value) or value == 0.0:
            return False  # (a global float is tested by value: -0.0 == 0.0, nan != nan)
        self.globals[name] = value
        return True


def _is(expr: ir.Expr, cls: type) -> ir.Expr:
    return ir.Compare(("is",), (ir.Call(ir.Const(type), (expr,), ()), ir.Const(cls)))


def _at_least(expr: ir.Expr, count: int) -> ir.Expr:
    return ir.Compare(("ge",), (ir.Call(ir.Const(len), (expr,), ()), ir.Const(count)))


class _Interchanger:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.taken = all_names(function)
        self.bound = bound_on_entry(function)
        self.classes = _constructed_classes(function)

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        return expand_statements(body, lambda stmt: self.nest(stmt) if isinstance(stmt, ir.For) else None)

    def nest(self, outer: ir.For) -> tuple[ir.Stmt, ...] | None:
        """The nest with each object's steps at once, behind its tests, or None."""
        match outer:
            case ir.For(ir.Name(step), ir.Call(ir.Name("range") | ir.Const(builtins.range),
                                                (ir.Name() | ir.Const(),), ()),
                        (ir.For(ir.Name(element), ir.Name(items), body, ()) as inner,), ()):
                pass
            case _:
                return None
        assigned = {name for stmt in walk_statements((inner,)) for name in _assigned(stmt)} \
            | {step}
        shape = _Body(element, self.function, assigned | {items})
        if step == element or items in assigned or items not in self.bound.get(id(outer), ()) \
                or not shape.statements(body, True) or not shape.stored:
            return None
        if not shape.invariants <= self.bound.get(id(outer), frozenset()):
            return None
        found = [vc for vc in self.classes if shape.fields <= set(vc.params)]
        if len(found) != 1:
            return None
        return self.rewrite(outer, inner, found[0], shape, step, element, items)

    def rewrite(self, outer: ir.For, inner: ir.For, vc: ValueClass, shape: _Body,
                step: str, element: str, items: str) -> tuple[ir.Stmt, ...]:
        loc = outer.loc
        steps = ir.Name(fresh_name("t_steps", self.taken))
        own = ir.Name(fresh_name(f"{vc.cls.__name__}_dict", self.taken))
        ok = ir.Name(fresh_name("ok", self.taken))
        scan = ir.Name(fresh_name("t_e", self.taken))
        fields = sorted(shape.fields)
        module = self.function.namespace.globals if self.function.namespace else {}
        # (`t_steps[1:]` is true for two turns or more; `len` of a huge range would raise)
        entry = [_is(steps, range), ir.Subscript(steps, ir.Slice(ir.Const(1), None, None)),
                 _is(ir.Name(items), list),
                 _at_least(ir.Name(items), 1),
                 methods.value_class_check(vc.cls, own, vc.init, tuple(fields), {}),
                 *(_is(ir.Name(name), float) for name in sorted(shape.invariants)),
                 *(_holds(module, name, value) for name, value in sorted(shape.globals.items()))]
        # (`getattr(p, f, None)`: with the class as tested, the field's value in the object's
        # own dict, or None where it lacks it, read with no code run; reading `p.__dict__`
        # instead would make the dict of an object that keeps its fields inline, and the
        # loops' reads of its fields slower: bounce_particles took 12% longer)
        element_test = ir.BoolOp("and", (_is(scan, vc.cls), *(
            _is(ir.Call(ir.Const(getattr), (scan, ir.Const(f), ir.Const(None)), ()), float)
            for f in fields)))
        prescan = ir.For(scan, ir.Name(items), (ir.If(ir.Op("not", (element_test,)), (
            ir.Assign((ok,), ir.Const(False), loc), ir.Break(loc)), (), loc),), (), loc)
        locals_ = {f: ir.Name(fresh_name(f"{element}_{f}", self.taken)) for f in fields}
        hoisted: list[ir.Stmt] = []
        stepped = _Stepped(element, locals_, shape, self.taken, hoisted, loc).body(inner.body)
        fast = ir.For(ir.Name(element), ir.Name(items), (
            *(ir.Assign((locals_[f],), ir.Attribute(ir.Name(element), f), loc) for f in fields),
            ir.For(ir.Name(step), steps, stepped, (), loc),
            *(ir.Assign((ir.Attribute(ir.Name(element), f),), locals_[f], loc)
              for f in fields if f in shape.stored)), (), loc)
        kept = ir.For(ir.Name(step), steps, (_copy_loop(inner),), (), loc)
        notes.changed("interchange", "stepped each {} of {} at once, its fields in locals",
                      vc.cls.__qualname__, ir.Name(items), loc=loc)
        return (ir.Assign((steps,), outer.iter, loc),
                ir.Assign((own,), ir.Attribute(ir.Const(vc.cls), "__dict__"), loc),
                ir.Assign((ok,), ir.Const(False), loc),
                ir.If(ir.BoolOp("and", tuple(entry)),
                      (ir.Assign((ok,), ir.Const(True), loc), prescan), (), loc),
                ir.If(ok, (*hoisted, fast), (kept,), loc))


def _copy_loop(loop: ir.For) -> ir.For:
    """A copy of `loop` with statement objects of its own (see `copy_statements`)."""
    (copied,) = copy_statements((loop,))
    assert isinstance(copied, ir.For)
    return copied


def _holds(module: object, name: str, value: float) -> ir.Expr:
    """`type(g) is float and g == value` for the global `name` (read from the module's dict
    with `get`: a missing one gives None, where reading the name would raise)."""
    read = ir.Call(ir.Attribute(ir.Const(module), "get"), (ir.Const(name),), ())
    return ir.BoolOp("and", (_is(read, float), ir.Compare(("eq",), (read, ir.Const(value)))))


class _Stepped:
    """A body on the fields' locals: `element.f` read and stored as the local of `f`, a
    global float as its value (tested on entry), and each operation on invariants alone
    computed once, before the loops (the same operation on the same floats)."""

    def __init__(self, element: str, locals_: dict[str, ir.Name], shape: _Body,
                 taken: set[str], hoisted: list[ir.Stmt], loc: ir.Loc) -> None:
        self.element = element
        self.locals = locals_
        self.shape = shape
        self.taken = taken
        self.hoisted = hoisted
        self.loc = loc

    def invariant(self, node: ir.Expr) -> bool:
        return all(isinstance(n, (ir.Const, ir.Op)) or isinstance(n, ir.Name)
                   and n.id not in self.shape.temps for n in walk_expr(node))

    def expr(self, node: ir.Expr) -> ir.Expr:
        match node:
            case ir.Attribute(ir.Name(owner), attr) if owner == self.element:
                return self.locals[attr]
            case ir.Name(name) if name in self.shape.globals:
                return ir.Const(self.shape.globals[name])
            case ir.Op(op, args) if self.invariant(node):
                value = ir.Op(op, tuple(self.expr(arg) for arg in args))
                if all(isinstance(arg, ir.Const) for arg in value.args):
                    return value
                temp = ir.Name(fresh_name("t_inv", self.taken))
                self.hoisted.append(ir.Assign((temp,), value, self.loc))
                return temp
            case ir.Op(op, args):
                return ir.Op(op, tuple(self.expr(arg) for arg in args))
            case ir.Compare(ops, operands):
                return ir.Compare(ops, tuple(self.expr(arg) for arg in operands))
        return node

    def statement(self, stmt: ir.Stmt) -> ir.Stmt:
        match stmt:
            case ir.Assign((target,), value):
                return ir.Assign((self.expr(target),), self.expr(value), stmt.loc)
            case ir.AugAssign(target, op, value):
                return ir.AugAssign(self.expr(target), op, self.expr(value), stmt.loc)
            case ir.If(test, then, orelse):
                return ir.If(self.expr(test), self.body(then), self.body(orelse), stmt.loc)
        raise AssertionError(f"not a stepped statement: {stmt}")

    def body(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        return tuple(self.statement(stmt) for stmt in body)


def _assigned(stmt: ir.Stmt) -> set[str]:
    match stmt:
        case ir.Assign(targets):
            return {t.id for t in targets if isinstance(t, ir.Name)}
        case ir.AugAssign(ir.Name(name)):
            return {name}
        case ir.For(target):
            return {n.id for n in walk_expr(target) if isinstance(n, ir.Name)}
    return set()


def _constructed_classes(function: ir.Function) -> list[ValueClass]:
    """The value classes the function calls by a global name (in comprehensions too)."""
    namespace = function.namespace
    names: set[str] = set()
    for stmt in walk_statements(function.body):
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                if isinstance(node, ir.Call) and isinstance(node.func, ir.Name):
                    names.add(node.func.id)
                elif isinstance(node, ir.OpaqueExpr):
                    names |= {n.func.id for n in ast.walk(node.node)
                              if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    found: list[ValueClass] = []
    for name in sorted(names - function.locals):
        present, value = namespace.lookup(name) if namespace is not None else (False, None)
        vc = value_class(value) if present else None
        if vc is not None and vc not in found:
            found.append(vc)
    return found


def interchange_object_loops(function: ir.Function) -> ir.Function:
    """Step each object of a list through all its time steps at once, its fields in locals,
    behind tests of the range, the list, the class and the floats, the nest as written kept
    for the rest."""
    if function.namespace is None or introspects(function) \
            or ir.For not in node_kinds(function):
        return function
    interchanger = _Interchanger(function)
    if not interchanger.classes:
        return function
    body = interchanger.block(function.body)
    return function if body is function.body else function.with_body(body)
