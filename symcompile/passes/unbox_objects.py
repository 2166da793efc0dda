"""unbox_objects: a loop that adds and scales small objects of a value class keeps their
fields in locals, not a new object per operation.

`acc = acc + p * w` on a class `Vec2` whose `__init__` only stores its parameters as fields
and whose `__mul__`/`__add__` return `Vec2(...)` of field arithmetic makes two objects and
calls three Python functions per turn; written out on the fields it is four float operations
(`acc_x = acc_x + p_x * w`). A RUN_LAST pass (the rounds would rewrite the kept loop again).

The fast loop relies on, tested where the loop starts (`ENTRY`) and kept by the loop itself:

* the class is as compiled (`methods.value_class_check`): the same `__init__` and operator
  methods, `object`'s `__new__`, `__setattr__` and `__getattribute__`, no `__getattr__`,
  `__del__` or class attribute named like a field, the names the code calls it by bound to it;
* what is looped over is a list (or `zip` of lists: iterating runs no code), the unboxed
  locals hold exactly that class with float fields, the other locals the body reads floats;
* each turn tests its elements: exactly the class with float fields, or floats.

With floats everywhere the body runs `+ - *` on floats only: no code of anyone's, no
exception, so nothing can change the class while the loop runs, and the float operations
are those the methods compute, on the same values, in the same order. An element that fails
its test makes the unboxed locals objects again (by the class's own constructor, whose
`__init__` only stores fields) and the loop as written runs from that element on. A turn of
the fast loop that raises (a missing field: AttributeError, as the method would) leaves only
locals behind, dead as the exception leaves the function.

The golden case `value_class_sum.py` shows every test in full.

Example::

    class Vec2:
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def __add__(self, other):
            return Vec2(self.x + other.x, self.y + other.y)


    def total(points):
        acc = Vec2(0.0, 0.0)
        for p in points:
            acc = acc + p
        return acc
    # --- after unbox_objects ---
    def total(points):
        acc = Vec2(0.0, 0.0)
        t_it = iter(points)
        Vec2_dict = Vec2_2.__dict__
        if type(points) is list and (len(Vec2_2.__mro__) == 2 and Vec2_dict.get
            ('__init__', notdefined) is init and Vec2_dict.get('__dict__',
            notdefined) is dict and Vec2_dict.get('__add__', notdefined) is add and
            Vec2_dict.get('__new__', notdefined) is notdefined and Vec2_dict.
            get('__setattr__', notdefined) is notdefined and Vec2_dict.get(
            '__getattribute__', notdefined) is notdefined and Vec2_dict.get(
            '__getattr__', notdefined) is notdefined and Vec2_dict.get(
            '__delattr__', notdefined) is notdefined and Vec2_dict.get(
            '__del__', notdefined) is notdefined and Vec2_dict.get('x',
            notdefined) is notdefined and Vec2_dict.get('y', notdefined) is
            notdefined) and Vec2 is Vec2_2 and type(acc) is Vec2_2 and type(acc
            .__dict__) is dict_2 and type(acc.__dict__.get('x')) is float and type(
            acc.__dict__.get('y')) is float:
            acc_x = acc.x
            acc_y = acc.y
            moved = False
            for p in t_it:
                if type(p) is Vec2_2:
                    p_x = p.x
                    p_y = p.y
                    if type(p_x) is float and type(p_y) is float:
                        acc_x, acc_y = acc_x + p_x, acc_y + p_y
                        moved = True
                        continue
                if moved:
                    acc = Vec2_2(acc_x, acc_y)
                acc = acc + p
                break
            else:
                if moved:
                    acc = Vec2_2(acc_x, acc_y)
        for p in t_it:
            acc = acc + p
        return acc
"""

from __future__ import annotations

import builtins
import types
from dataclasses import dataclass, field

from .. import ir
from ..analysis import cost, methods
from ..analysis.value_classes import ValueClass, function_ir as _ir_of, value_class
from ..ir.names import (all_names, assigned_names, bound_on_entry, fresh_name, introspects,
                        node_kinds, untracked_names)
from ..ir.rewrite import (copy_statements, expand_statements, statement_expressions, walk_expr,
                          walk_statements)
from . import notes

_ARITHMETIC = frozenset({"add", "sub", "mul"})
# int constants a float operation converts exactly (a bigger one may raise OverflowError)
_EXACT_INT = 2 ** 53
# methods inlined one inside another, at most
_MAX_DEPTH = 8


@dataclass(frozen=True)
class Scalar:
    """A float (or int constant) the fast body computes: its expression."""

    expr: ir.Expr


@dataclass(frozen=True)
class Boxed:
    """An object of a value class, as the expressions of its fields."""

    cls: type
    fields: dict[str, ir.Expr]
    fresh: bool = False  # made by the expression (a constructor's call): no other name holds it


Value = Scalar | Boxed


@dataclass
class _Trial:
    """What evaluating a loop body as unboxed values found and needs."""

    function: ir.Function
    taken: set[str]
    classes: dict[type, ValueClass] = field(default_factory=dict)
    inlined: dict[tuple[type, str], types.FunctionType] = field(default_factory=dict)
    # the function's global names the body calls a class by, and the methods' ones
    constructors: dict[str, type] = field(default_factory=dict)
    method_globals: list[tuple[dict[str, object], str, type]] = field(default_factory=list)
    env: dict[str, Value] = field(default_factory=dict)
    targets: frozenset[str] = frozenset()  # the loop's names
    field_names: dict[tuple[str, str], str] = field(default_factory=dict)
    depth: int = 0  # of the methods being inlined, one inside another
    used: set[type] = field(default_factory=set)  # the classes the fast body relies on
    setup: list[ir.Stmt] = field(default_factory=list)  # reads the checks test

    def field_local(self, name: str, attr: str) -> str:
        key = (name, attr)
        if key not in self.field_names:
            self.field_names[key] = fresh_name(f"{name}_{attr}", self.taken)
        return self.field_names[key]

    def known_class(self, cls: object) -> ValueClass | None:
        if isinstance(cls, type) and cls not in self.classes:
            found = value_class(cls)
            if found is None:
                return None
            self.classes[cls] = found
        return self.classes.get(cls) if isinstance(cls, type) else None

    def global_class(self, name: str) -> ValueClass | None:
        namespace = self.function.namespace
        if namespace is None or name in self.function.locals:
            return None
        found, value = namespace.lookup(name)
        return self.known_class(value) if found else None

    def construct(self, vc: ValueClass, args: list[Value | None]) -> Boxed | None:
        if len(args) != len(vc.params) or not all(isinstance(a, Scalar) for a in args):
            return None
        self.used.add(vc.cls)
        return Boxed(vc.cls, {f: a.expr for f, a in zip(vc.params, args)
                              if isinstance(a, Scalar)}, fresh=True)

    def value(self, expr: ir.Expr, local: dict[str, Value] | None = None,
              where: dict[str, object] | None = None) -> Value | None:
        """`expr` evaluated on unboxed values (`local`: a method's parameters, `where`: its
        globals), or None where it is not float arithmetic of value-class objects."""
        match expr:
            case ir.Const(value) if type(value) is float or \
                    type(value) is int and abs(value) < _EXACT_INT:
                return Scalar(expr)
            case ir.Name(name) if local is not None:
                return local.get(name)
            case ir.Name(name):
                return self.env.get(name)
            case ir.Attribute(owner, attr):
                found = self.value(owner, local, where)
                return Scalar(found.fields[attr]) \
                    if isinstance(found, Boxed) and attr in found.fields else None
            case ir.Op(op, (operand,)) if op == "neg":
                found = self.value(operand, local, where)
                return Scalar(ir.Op(op, (found.expr,))) if isinstance(found, Scalar) else None
            case ir.Op(op, (left, right)) if op in _ARITHMETIC:
                return self.operator(op, self.value(left, local, where),
                                     self.value(right, local, where))
            case ir.Call(ir.Name(name), args, ()):
                return self.constructor(name, args, local, where)
            case ir.Call(ir.Const(cls), args, ()) if where is None \
                    and (vc := self.known_class(cls)) is not None:
                return self.construct(vc, [self.value(arg, local, where) for arg in args])
        return None

    def constructor(self, name: str, args: tuple[ir.Expr, ...], local: dict[str, Value] | None,
                    where: dict[str, object] | None) -> Value | None:
        if where is None:
            vc = self.global_class(name)
            if vc is not None:
                self.constructors[name] = vc.cls
        else:
            vc = self.known_class(where.get(name))
            if vc is not None:
                self.method_globals.append((where, name, vc.cls))
        if vc is None:
            return None
        return self.construct(vc, [self.value(arg, local, where) for arg in args])

    def operator(self, op: str, left: Value | None, right: Value | None) -> Value | None:
        if isinstance(left, Scalar) and isinstance(right, Scalar):
            return Scalar(ir.Op(op, (left.expr, right.expr)))
        if not isinstance(left, Boxed) or right is None \
                or isinstance(right, Boxed) and right.cls is not left.cls:
            return None  # (a number on the left: its method returns NotImplemented first)
        pair = ir.ops.binary_methods(op)
        method, _ = methods.resolved_method(left.cls, pair[0]) if pair else (None, "")
        body = _ir_of(method) if method is not None else None
        if method is None or body is None or method.__code__.co_argcount != 2:
            return None
        match body.body:
            case (ir.Return(ir.Call() as made),) if self.depth < _MAX_DEPTH:
                self_name, other_name = method.__code__.co_varnames[:2]
                self.depth += 1
                result = self.value(made, {self_name: left, other_name: right},
                                    method.__globals__)
                self.depth -= 1
                if isinstance(result, Boxed) and pair is not None:
                    self.inlined[(left.cls, pair[0])] = method
                    return result
        return None

    def class_checks(self) -> list[ir.Expr]:
        """The tests that the classes and the names calling them are as compiled."""
        checks: list[ir.Expr] = []
        self.used |= {held.cls for held in self.env.values() if isinstance(held, Boxed)}
        for vc in (self.classes[cls] for cls in self.classes if cls in self.used):
            used = {name: fn for (cls, name), fn in self.inlined.items() if cls is vc.cls}
            own = ir.Name(self.field_local(vc.cls.__name__, "dict"))
            self.setup.append(ir.Assign((own,), ir.Attribute(ir.Const(vc.cls), "__dict__")))
            checks.append(methods.value_class_check(vc.cls, own, vc.init, vc.params, used))
        for name, cls in sorted(self.constructors.items()):
            checks.append(ir.Compare(("is",), (ir.Name(name), ir.Const(cls))))
        namespace = self.function.namespace
        module = namespace.globals if namespace is not None else None
        for where, name, cls in self.method_globals:
            read: ir.Expr = ir.Name(name) if where is module and name not in self.function.locals \
                else ir.Call(ir.Attribute(ir.Const(where), "get"), (ir.Const(name),), ())
            check = ir.Compare(("is",), (read, ir.Const(cls)))
            if check not in checks:
                checks.append(check)
        return checks


class _Unboxer:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.taken = all_names(function)
        self.bound = bound_on_entry(function)
        self.opaque = untracked_names(function)
        trial = _Trial(function, set())
        self.classes = {vc.cls: vc for vc in (
            trial.known_class(n.func.value) if isinstance(n.func, ir.Const)
            else trial.global_class(n.func.id)
            for s in walk_statements(function.body) for e in statement_expressions(s)
            for n in walk_expr(e) if isinstance(n, ir.Call)
            and isinstance(n.func, (ir.Name, ir.Const))) if vc is not None}

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        return expand_statements(body, lambda stmt: self.loop(stmt) if isinstance(stmt, ir.For) else None)

    def loop(self, loop: ir.For) -> tuple[ir.Stmt, ...] | None:
        """The loop with a fast copy on unboxed objects, or None."""
        targets = _target_names(loop.target)
        if loop.orelse or targets is None \
                or not all(isinstance(s, (ir.Assign, ir.AugAssign)) for s in loop.body):
            return None
        sources = _list_sources(loop.iter, self.function, self.taken)
        read_first = _read_before_set(loop.body, targets, self.function)
        names = set(targets) | set(read_first or ())
        bound = self.bound.get(id(loop), frozenset())
        if sources is None or read_first is None or names & self.opaque \
                or not set(read_first) <= bound or len(names) > 5:
            return None
        for vc in self.classes.values():
            for kinds in _kinds(len(names)):
                trial = _Trial(self.function, set(self.taken), dict(self.classes),
                               targets=frozenset(targets))
                if any(is_boxed and not self.constructed(name, vc.cls, loop)
                       for name, is_boxed in zip(read_first, kinds[len(targets):])):
                    continue
                for name, is_boxed in zip([*targets, *read_first], kinds):
                    trial.env[name] = Boxed(vc.cls, {f: ir.Name(trial.field_local(name, f))
                                                     for f in vc.params}) \
                        if is_boxed else Scalar(ir.Name(name))
                body = self.fast_body(loop.body, trial)
                if body is not None and (trial.inlined or trial.constructors):
                    self.taken |= trial.taken
                    return self.rewrite(loop, trial, targets, read_first, sources, body)
        return None

    def constructed(self, name: str, cls: type, loop: ir.For) -> bool:
        """Whether every assignment of `name` outside `loop` calls `cls` (by a name that
        means it, or the class itself): a local holding another class is not unboxed."""
        inside = {id(stmt) for stmt in walk_statements(loop.body)}
        for stmt in walk_statements(self.function.body):
            if id(stmt) in inside or name not in assigned_names(stmt) \
                    or isinstance(stmt, ir.For) and stmt is loop:
                continue
            match stmt:
                case ir.Assign((ir.Name(),), ir.Call(ir.Const(value))) if value is cls:
                    continue
                case ir.Assign((ir.Name(),), ir.Call(ir.Name(callee))) \
                        if _Trial(self.function, set()).global_class(callee) is not None \
                        and self.function.namespace is not None \
                        and self.function.namespace.lookup(callee) == (True, cls):
                    continue
            return False
        return True

    def fast_body(self, body: tuple[ir.Stmt, ...], trial: _Trial) -> list[ir.Stmt] | None:
        """The body on unboxed values, or None where it is not float arithmetic of objects
        of the value class."""
        out: list[ir.Stmt] = []
        for stmt in body:
            assert isinstance(stmt, (ir.Assign, ir.AugAssign))
            if isinstance(stmt, ir.AugAssign):
                target: ir.Expr = stmt.target
                value = trial.value(ir.Op(stmt.op, (stmt.target, stmt.value)))
                if isinstance(value, Scalar) and isinstance(trial.env.get(stmt.target.id)
                                                            if isinstance(stmt.target, ir.Name)
                                                            else None, Scalar):
                    if not _is_float(value.expr):
                        return None
                    assert isinstance(value.expr, ir.Op)
                    out.append(ir.AugAssign(target, stmt.op, value.expr.args[1], stmt.loc))
                    continue
            elif len(stmt.targets) == 1:
                target, value = stmt.targets[0], trial.value(stmt.value)
            else:
                return None
            made = _store(target, value, trial, stmt.loc) if value is not None else None
            if made is None:
                return None
            out.append(made)
        return out

    def rewrite(self, loop: ir.For, trial: _Trial, targets: list[str], read_first: list[str],
                sources: _Sources, body: list[ir.Stmt]) -> tuple[ir.Stmt, ...] | None:
        loc = loop.loc
        entry = [*sources.tests, *trial.class_checks()]
        unbox: list[ir.Stmt] = []
        for name in read_first:
            held = trial.env[name]
            if isinstance(held, Scalar):
                entry.append(_is(ir.Name(name), float))
                continue
            entry.append(_is(ir.Name(name), held.cls))
            own = ir.Attribute(ir.Name(name), "__dict__")
            entry.append(_is(own, dict))  # (a dict subclass's `get` could run code)
            for attr, local in held.fields.items():
                entry.append(_is(ir.Call(ir.Attribute(own, "get"), (ir.Const(attr),), ()),
                                 float))
                unbox.append(ir.Assign((local,), ir.Attribute(ir.Name(name), attr), loc))
        saved = cost.LOOP_TURNS * cost.PYTHON_CALL * 2 * (len(trial.inlined) + 1)
        spent = sum(isinstance(node, ir.Compare) for test in entry for node in walk_expr(test)) \
            * (cost.ATTRIBUTE + cost.COMPARISON)
        if spent >= saved:
            notes.missed("unbox", "kept the objects in the loop over {}: its tests on entry "
                         "(cost {}) outweigh the calls saved ({})", loop.iter, int(spent),
                         int(saved), loc=loc)
            return None
        moved = ir.Name(fresh_name("moved", trial.taken))
        stored = {t.id for stmt in loop.body for t in _stored(stmt) if isinstance(t, ir.Name)}
        boxed = {name: held for name, held in trial.env.items()
                 if isinstance(held, Boxed) and name in stored}
        rebox: tuple[ir.Stmt, ...] = (ir.If(moved, tuple(
            ir.Assign((ir.Name(name),), ir.Call(ir.Const(held.cls), tuple(
                held.fields.values()), ()), loc)
            for name, held in boxed.items()), (), loc),) if boxed else ()
        reads: list[ir.Stmt] = []
        field_tests: list[ir.Expr] = []
        used = {n.id for stmt in body for e in statement_expressions(stmt, targets=False)
                for n in walk_expr(e) if isinstance(n, ir.Name)}
        for name in targets:
            held = trial.env[name]
            for attr, local in held.fields.items() if isinstance(held, Boxed) else ():
                if isinstance(local, ir.Name) and local.id not in used:
                    continue  # (a field the methods never read is not read: it may be missing)
                reads.append(ir.Assign((local,), ir.Attribute(ir.Name(name), attr), loc))
                field_tests.append(_is(local, float))
        element_tests = [_is(ir.Name(name), held.cls if isinstance(held, Boxed) else float)
                         for name in targets for held in (trial.env[name],)]
        fast: tuple[ir.Stmt, ...] = (*body, ir.Assign((moved,), ir.Const(True), loc),
                                     ir.Continue(loc))
        if field_tests:
            fast = (*reads, ir.If(_all(field_tests), fast, (), loc))
        turn = (ir.If(_all(element_tests), fast, (), loc), *rebox,
                *copy_statements(loop.body), ir.Break(loc))
        notes.changed("unbox", "kept the fields of {} objects in locals in the loop over {}",
                      ", ".join(sorted(cls.__qualname__ for cls in trial.classes)),
                      loop.iter, loc=loc)
        return (*sources.setup, *trial.setup,
                ir.If(_all(entry), (*unbox, ir.Assign((moved,), ir.Const(False), loc),
                                    ir.For(loop.target, sources.iterator, turn,
                                           copy_statements(rebox), loc)), (), loc),
                ir.For(loop.target, sources.iterator, copy_statements(loop.body), (), loc))


def _store(target: ir.Expr, value: Value, trial: _Trial, loc: ir.Loc) -> ir.Stmt | None:
    """`target = value` on unboxed values: a float local, or the field locals of an object
    local; None where the local would change kind or a value is not a float."""
    if not isinstance(target, ir.Name) or target.id in trial.targets:
        return None
    held = trial.env.get(target.id)
    if isinstance(value, Scalar):
        if isinstance(held, Boxed) or not _is_float(value.expr):
            return None
        trial.env[target.id] = Scalar(target)
        return ir.Assign((target,), value.expr, loc)
    if isinstance(held, Scalar) or not value.fresh \
            or not all(_is_float(e) for e in value.fields.values()):
        return None  # (`a = b` of an object: after the loop `a is b` must still hold)
    if held is None:
        held = Boxed(value.cls, {f: ir.Name(trial.field_local(target.id, f))
                                 for f in value.fields})
        trial.env[target.id] = held
    if held.cls is not value.cls:
        return None
    return ir.Assign((ir.Build("tuple", tuple(held.fields.values())),),
                     ir.Build("tuple", tuple(value.fields[f] for f in held.fields)), loc)


def _read_before_set(body: tuple[ir.Stmt, ...], targets: list[str],
                     function: ir.Function) -> list[str] | None:
    """The locals the body reads before it sets them (not the loop's names), in order of
    their first read; None where it reads a global (other than a class it constructs)."""
    found: list[str] = []
    set_: set[str] = set(targets)
    for stmt in body:
        callees = {id(n.func) for e in statement_expressions(stmt, targets=False)
                   for n in walk_expr(e) if isinstance(n, ir.Call)}
        reads = [n.id for e in statement_expressions(stmt, targets=False) for n in walk_expr(e)
                 if isinstance(n, ir.Name) and id(n) not in callees]
        if isinstance(stmt, ir.AugAssign) and isinstance(stmt.target, ir.Name):
            reads.insert(0, stmt.target.id)
        for name in reads:
            if name not in set_ and name not in found:
                if name not in function.locals:
                    return None
                found.append(name)
        set_ |= {t.id for t in _stored(stmt) if isinstance(t, ir.Name)}
    return found


def _stored(stmt: ir.Stmt) -> tuple[ir.Expr, ...]:
    return stmt.targets if isinstance(stmt, ir.Assign) else \
        (stmt.target,) if isinstance(stmt, ir.AugAssign) else ()


@dataclass
class _Sources:
    setup: tuple[ir.Stmt, ...]
    iterator: ir.Name
    tests: list[ir.Expr]


def _list_sources(iterable: ir.Expr, function: ir.Function, taken: set[str]) -> _Sources | None:
    """`t_it = iter(xs)` and the tests that iterating it runs no code: `xs` a list, or a
    `zip` (read once, tested to be the builtin) of lists."""
    iterator = ir.Name(fresh_name("t_it", taken))
    match iterable:
        case ir.Name():
            return _Sources((ir.Assign((iterator,), ir.Call(ir.Const(iter), (iterable,), ())),),
                            iterator, [_is(iterable, list)])
        case ir.Call(ir.Name("zip") | ir.Const(builtins.zip) as func, args, ()) \
                if args and all(isinstance(a, ir.Name) for a in args):
            if isinstance(func, ir.Name) and (function.namespace is None or "zip" in function.locals
                                              or function.namespace.lookup("zip")
                                              != (True, builtins.zip)):
                return None
            callee = ir.Name(fresh_name("t_zip", taken))
            made = ir.Call(callee, args, ())
            return _Sources((ir.Assign((callee,), func),
                             ir.Assign((iterator,), ir.Call(ir.Const(iter), (made,), ()))),
                            iterator, [ir.Compare(("is",), (callee, ir.Const(builtins.zip))),
                                       *(_is(a, list) for a in args)])
    return None


def _is_float(expr: ir.Expr) -> bool:
    """Whether a scalar expression is a float: every name in one is, and `+ - *` with a float
    operand give one."""
    return any(isinstance(n, ir.Name) or isinstance(n, ir.Const) and type(n.value) is float
               for n in walk_expr(expr))


def _target_names(target: ir.Expr) -> list[str] | None:
    match target:
        case ir.Name(name):
            return [name]
        case ir.Build("tuple", elts) if all(isinstance(e, ir.Name) for e in elts):
            names = [e.id for e in elts if isinstance(e, ir.Name)]
            return names if len(set(names)) == len(names) else None
    return None


def _kinds(count: int) -> list[tuple[bool, ...]]:
    """Each way of taking `count` names as objects (True) or floats, fewest objects first."""
    kinds = [tuple(bool(bits >> i & 1) for i in range(count)) for bits in range(1 << count)]
    return sorted(kinds, key=sum)


def _is(expr: ir.Expr, cls: type) -> ir.Expr:
    return ir.Compare(("is",), (ir.Call(ir.Const(type), (expr,), ()), ir.Const(cls)))


def _all(tests: list[ir.Expr]) -> ir.Expr:
    return tests[0] if len(tests) == 1 else ir.BoolOp("and", tuple(tests))


def unbox_objects(function: ir.Function) -> ir.Function:
    """Keep the fields of value-class objects a loop adds and scales in locals, behind tests
    on entry and per element, the loop as written kept for the rest."""
    if function.namespace is None or introspects(function) \
            or not {ir.For, ir.Call} <= node_kinds(function):
        return function
    unboxer = _Unboxer(function)
    if not unboxer.classes:
        return function
    body = unboxer.block(function.body)
    return function if body is function.body else function.with_body(body)
