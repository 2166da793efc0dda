"""hoist_object_reads: a loop nest on numbers and lists of numbers reads a user object's
attributes once, and tests its inlined methods once, before it.

inline_calls inlines `a[i, j]` on a `Matrix` as `a.data[i * a.cols + j]` behind a test made
where the subscript runs (`type(a) is Matrix and getattr(Matrix, '__getitem__', None) is
getitem`), because code the compiler cannot see may change the class or `a.data` at any
time. Where the loop runs no such code, none can: every operand in it is exactly an int or a
float (or None, which the passes release a local with), every list it indexes a list of them,
so its `+ - * / // %`, comparisons, subscripts and stores run no code of anyone's (they may
raise, where the loop as written raises). The loop is then copied with the method tests
dropped and each `a.attr` read once into a local before it:

    ok = False
    if type(a) is Matrix and <Matrix's own dict as compiled> and type(a.__dict__) is dict:
        a_data = a.__dict__.get('data')
        a_cols = a.__dict__.get('cols')
        if type(a_data) is list and <a_cols, b, omega, ... numbers or lists> and <work>:
            ok = True
            for t_v in a_data: <each an int or a float, else ok = False>
            ...
    if ok: <the loop on a_data, a_cols, no method tests> else: <the loop as written>

What it tests where the loop starts: the receiver exactly the class, the class's own dict
holding the inlined methods and nothing that runs code when an attribute is read
(`methods.plain_attributes_check`), each attribute it reads present with a number or a list,
each name the loop reads and does not assign an int or a float (or a list of them), `range`
the builtin; then each list's items are scanned. The scan costs about a test per item: the
copy is taken only where the lists hold no more items than the loop's innermost turns (its
`range`s' lengths multiplied, along the way to a method test), so it pays. A RUN_LAST pass.

A number attribute read in a list index (`a.cols`) is tested to be an int: any other number
makes the index raise TypeError, as the nest as written then does. A product of ints that an
inner loop of the copy reads unchanged is computed once before it, where the turn computes it
anyway after it (`index_products`: `i * a_cols` in `sor`).

Example::

    class Matrix:
        def __init__(self, cols, data):
            self.cols = cols
            self.data = data

        def __getitem__(self, index):
            i, j = index
            return self.data[i * self.cols + j]


    getitem = Matrix.__getitem__


    def trace(a: Matrix, n):
        s = 0.0
        for i in range(n):
            s += (a.data[i * a.cols + i] if type(a) is Matrix
                  and getattr(Matrix, '__getitem__', None) is getitem else a[i, i])
        return s
    # --- after hoist_object_reads ---
    def trace(a: Matrix, n):
        s = 0.0
        ok = False
        if type_2(a) is Matrix_2 and (len(Matrix_2.__mro__) == 2 and Matrix_2.
            __dict__.get('__dict__', notdefined) is dict and Matrix_2.__dict__.
            get('__getitem__', notdefined) is getitem_2 and Matrix_2.__dict__.
            get('__getattribute__', notdefined) is notdefined and Matrix_2.
            __dict__.get('cols', notdefined) is notdefined and Matrix_2.
            __dict__.get('data', notdefined) is notdefined) and type_2(a.__dict__
            ) is dict_2:
            a_cols = a.__dict__.get('cols')
            a_data = a.__dict__.get('data')
            if (Matrix is Matrix_2 and getattr is getattr_2 and getitem is
                getitem_2 and range is range_2 and type is type_2 and type_2(
                a_cols) is int and type_2(a_data) is list and (type_2(n) is
                float or type_2(n) is int) and (type_2(s) is float or type_2(s) is
                int) and len(a_data) <= 1 * (n if type_2(n) is int else 1)):
                ok = True
                for t_v in a_data:
                    if not (type_2(t_v) is float or type_2(t_v) is int):
                        ok = False
                        break
        if ok:
            for i in range(n):
                s += a_data[i * a_cols + i]
        else:
            for i in range(n):
                s += a.data[i * a.cols + i] if type(a) is Matrix and getattr(Matrix
                    , '__getitem__', None) is getitem else a[i, i]
        return s
"""

from __future__ import annotations

import builtins
import types

from .. import ir
from ..analysis import methods
from ..ir.names import (all_names, bound_on_entry, fresh_name, introspects, local_names,
                        node_kinds)
from ..ir.rewrite import (copy_statements, map_statement_expressions, walk_expr,
                          walk_statements)
from . import index_products, notes

NUM, LIST, BOOL = "number", "list", "bool"
_ARITHMETIC = frozenset({"add", "sub", "mul", "truediv", "floordiv", "mod"})
_COMPARISONS = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})


class _Nest:
    """The kinds of what a loop nest reads, found by walking it once; `failed` where it is
    not numbers and lists of numbers."""

    def __init__(self, function: ir.Function, receivers: dict[str, type]) -> None:
        self.function = function
        self.receivers = receivers
        self.locals = local_names(function)
        self.assigned: set[str] = set()
        self.entry: dict[str, str] = {}  # names read and not assigned: their kind
        self.attrs: dict[tuple[str, str], str] = {}
        self.indexing: set[tuple[str, str]] = set()  # number attributes read in an index
        self.methods: dict[tuple[str, str], types.FunctionType] = {}
        self.ranges: list[tuple[ir.Expr, ...]] = []  # of the loops around the first test
        self.around: list[tuple[ir.Expr, ...]] = []
        self.names: dict[str, object] = {}  # global names the method tests read: their values
        self.failed = False

    def need(self, kind: str, found: str | None) -> None:
        if found != kind:
            self.failed = True

    def kind(self, expr: ir.Expr, wanted: str = NUM) -> str | None:
        match expr:
            case ir.Const(value) if type(value) in (int, float) or value is None:
                return NUM  # (None too: what the passes release a local with; inert)
            case ir.Name(name) if name in self.assigned:
                return NUM if wanted == NUM else None
            case ir.Name(name) if name in self.locals and name not in self.receivers:
                if self.entry.setdefault(name, wanted) != wanted:
                    return None
                return wanted
            case ir.Attribute(ir.Name(owner), attr) if owner in self.receivers:
                if self.attrs.setdefault((owner, attr), wanted) != wanted:
                    return None
                return wanted
            case ir.Op(op, (left, right)) if op in _ARITHMETIC:
                return NUM if self.kind(left) == self.kind(right) == NUM else None
            case ir.Op("neg" | "pos", (operand,)):
                return self.kind(operand)
            case ir.Compare(ops, operands) if set(ops) <= _COMPARISONS:
                return BOOL if all(self.kind(o) == NUM for o in operands) else None
            case ir.BoolOp(_, values):
                return BOOL if all(self.kind(v, BOOL) == BOOL for v in values) else None
            case ir.Subscript(value, index):
                self.indexing |= {(node.value.id, node.attr) for node in walk_expr(index)
                                  if isinstance(node, ir.Attribute)
                                  and isinstance(node.value, ir.Name)}
                return NUM if self.kind(value, LIST) == LIST and self.kind(index) == NUM \
                    else None
            case ir.IfExp(test, body, _):
                return self.kind(body) if self.method_test(test) else None
        return None

    def method_test(self, test: ir.Expr) -> bool:
        found = _method_test(test, self.receivers, self.function, self.names)
        if found is None:
            return False
        owner, method, function = found
        self.methods[(owner, method)] = function
        if not self.ranges:
            self.ranges = list(self.around)
        return True

    def body(self, body: tuple[ir.Stmt, ...]) -> None:
        for stmt in body:
            self.statement(stmt)

    def statement(self, stmt: ir.Stmt) -> None:
        match stmt:
            case ir.Assign((ir.Name(),), value) | ir.AugAssign(ir.Name(), _, value):
                self.need(NUM, self.kind(value))
            case ir.Assign((ir.Subscript(base, index),), value) \
                    | ir.AugAssign(ir.Subscript(base, index), _, value):
                self.need(LIST, self.kind(base, LIST))
                self.need(NUM, self.kind(index))
                self.need(NUM, self.kind(value))
            case ir.If(test, then, orelse):
                self.need(BOOL, self.kind(test, BOOL))
                self.body(then)
                self.body(orelse)
            case ir.For(ir.Name(), ir.Call(ir.Name("range"), args, ()), body, ()) \
                    if 1 <= len(args) <= 3:
                for arg in args:
                    self.need(NUM, self.kind(arg))
                self.around.append(args)
                self.body(body)
                self.around.pop()
            case ir.Break() | ir.Continue():
                pass
            case _:
                self.failed = True

def _method_test(test: ir.Expr, receivers: dict[str, type], function: ir.Function,
                 names: dict[str, object] | None = None,
                 ) -> tuple[str, str, types.FunctionType] | None:
    """The receiver, method and function of a method check (`type(a) is Matrix and
    getattr(Matrix, '__getitem__', None) is getitem`) of a receiver, the method being the
    class's own; the global names it reads (`type`, `getattr`, `Matrix`, `getitem` where
    written so) go into `names` with their values, to be tested before the loop."""
    def value(expr: ir.Expr) -> object:
        match expr:
            case ir.Const(constant):
                return constant
            case ir.Name(name) if name not in function.locals \
                    and function.namespace is not None:
                found, held = function.namespace.lookup(name)
                if found and names is not None:
                    names[name] = held
                return held if found else None
        return None
    match test:
        case ir.BoolOp("and", (
                ir.Compare(("is",), (ir.Call(exact, (ir.Name(owner),), ()), cls_read)),
                ir.Compare(("is",), (ir.Call(lookup, (same_read, ir.Const(str() as method),
                                                      ir.Const(None)), ()), function_read)))):
            cls, same, found = value(cls_read), value(same_read), value(function_read)
            if value(exact) is type and value(lookup) is getattr and cls is same \
                    and receivers.get(owner) is cls \
                    and isinstance(found, types.FunctionType) and isinstance(cls, type) \
                    and cls.__dict__.get(method) is found:
                assert isinstance(found, types.FunctionType)
                return owner, method, found
    return None


def _assigned(body: tuple[ir.Stmt, ...]) -> set[str]:
    names: set[str] = set()
    for stmt in walk_statements(body):
        match stmt:
            case ir.Assign(targets):
                names |= {t.id for t in targets if isinstance(t, ir.Name)}
            case ir.AugAssign(ir.Name(name)):
                names.add(name)
            case ir.For(ir.Name(name)):
                names.add(name)
    return names


def _is(expr: ir.Expr, cls: type) -> ir.Expr:
    return ir.Compare(("is",), (ir.Call(ir.Const(type), (expr,), ()), ir.Const(cls)))


def _number(expr: ir.Expr) -> ir.Expr:
    return ir.BoolOp("or", (_is(expr, float), _is(expr, int)))


def _all(tests: list[ir.Expr]) -> ir.Expr:
    return tests[0] if len(tests) == 1 else ir.BoolOp("and", tuple(tests))


class _Hoister:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.taken = all_names(function)
        self.bound = bound_on_entry(function)
        self.receivers = {name: kind for name, kind in function.argument_types.items()
                          if methods.receiver_class_kind(kind) and isinstance(kind, type)}

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            rewritten = self.loop(stmt) if isinstance(stmt, ir.For) else None
            result += rewritten or (stmt,)
        return body if len(result) == len(body) and all(
            a is b for a, b in zip(result, body)) else tuple(result)

    def loop(self, loop: ir.For) -> tuple[ir.Stmt, ...] | None:
        nest = _Nest(self.function, self.receivers)
        nest.assigned = _assigned((loop,))
        nest.statement(loop)
        bound = self.bound.get(id(loop), frozenset())
        if nest.failed or not nest.methods or nest.assigned & set(self.receivers) \
                or any(attr.startswith("__") for _, attr in nest.attrs) \
                or not all(methods.plain_attributes_intact(self.receivers[owner], attr)
                           for owner, attr in nest.attrs) \
                or not set(nest.entry) <= bound or self.function.namespace is None \
                or self.function.namespace.lookup("range") != (True, builtins.range) \
                or "range" in nest.locals:
            return None
        return self.rewrite(loop, nest)

    def rewrite(self, loop: ir.For, nest: _Nest) -> tuple[ir.Stmt, ...]:
        loc = loop.loc
        ok = ir.Name(fresh_name("ok", self.taken))
        hoisted = {key: ir.Name(fresh_name(f"{key[0]}_{key[1]}", self.taken))
                   for key in sorted(nest.attrs)}
        outer: list[ir.Expr] = []
        for owner in sorted({owner for owner, _ in [*nest.attrs, *nest.methods]}):
            cls = self.receivers[owner]
            used = {m: f for (o, m), f in nest.methods.items() if o == owner}
            attrs = tuple(a for o, a in nest.attrs if o == owner)
            outer += [_is(ir.Name(owner), cls),
                      methods.plain_attributes_check(cls, attrs, used),
                      _is(ir.Attribute(ir.Name(owner), "__dict__"), dict)]
        reads = [ir.Assign((local,), ir.Call(ir.Attribute(ir.Attribute(
            ir.Name(owner), "__dict__"), "get"), (ir.Const(attr),), ()), loc)
            for (owner, attr), local in hoisted.items()]
        inner: list[ir.Expr] = [ir.Compare(("is",), (ir.Name(name), ir.Const(value)))
                                for name, value in sorted({**nest.names,
                                                           "range": range}.items())]
        lists: list[ir.Expr] = []
        for key, local in hoisted.items():
            kind = nest.attrs[key]
            inner.append(_is(local, list) if kind == LIST else
                         _is(local, int) if key in nest.indexing else _number(local))
            lists += [local] if kind == LIST else []
        # (a name the nest assigns but that holds a value already may be read before the
        # nest assigns it: it must be a number too)
        carried = {name: NUM for name in nest.assigned & self.bound.get(id(loop), frozenset())}
        for name, kind in sorted({**nest.entry, **carried}.items()):
            inner.append(_is(ir.Name(name), list) if kind == LIST else _number(ir.Name(name)))
            lists += [ir.Name(name)] if kind == LIST else []
        work = self.work(nest, hoisted)
        if lists:
            sizes: ir.Expr = ir.Call(ir.Const(len), (lists[0],), ())
            for more in lists[1:]:
                sizes = ir.Op("add", (sizes, ir.Call(ir.Const(len), (more,), ())))
            inner.append(ir.Compare(("le",), (sizes, work)))
        item = ir.Name(fresh_name("t_v", self.taken))
        scans = tuple(ir.For(item, items, (ir.If(ir.Op("not", (_number(item),)), (
            ir.Assign((ok,), ir.Const(False), loc), ir.Break(loc)), (), loc),), (), loc)
            for items in lists)
        check = (ir.If(_all(outer), (*reads, ir.If(_all(inner), (
            ir.Assign((ok,), ir.Const(True), loc), *scans), (), loc)), (), loc),)
        fast = tuple(self.fast(stmt, hoisted) for stmt in copy_statements((loop,)))
        ints = {hoisted[key].id for key in nest.indexing
                if key in hoisted and nest.attrs[key] == NUM}
        fast = index_products.hoist(fast, ints, self.taken)
        notes.changed("hoist object reads", "read {} once and tested the methods once, "
                      "before the loop", ", ".join(f"{o}.{a}" for o, a in hoisted) or "nothing",
                      loc=loc)
        return (ir.Assign((ok,), ir.Const(False), loc), *check,
                ir.If(ok, fast, copy_statements((loop,)), loc))

    def work(self, nest: _Nest, hoisted: dict[tuple[str, str], ir.Name]) -> ir.Expr:
        """The turns of the loops around the first method test, multiplied: each
        `range(n)` of a number `n` the loop does not assign counts `n` turns if `n` is an int
        (tested before), 1 for any other `range`."""
        total: ir.Expr = ir.Const(1)
        for args in nest.ranges:
            match args:
                case (ir.Name(name),) if name not in nest.assigned:
                    count: ir.Expr = ir.Name(name)
                case (ir.Attribute(ir.Name(owner), attr),) if (owner, attr) in hoisted:
                    count = hoisted[(owner, attr)]
                case (ir.Const(int() as turns),):
                    count = ir.Const(turns)
                case _:
                    continue
            total = ir.Op("mul", (total, ir.IfExp(_is(count, int), count, ir.Const(1))))
        return total

    def hoisted(self, node: ir.Expr, hoisted: dict[tuple[str, str], ir.Name]) -> ir.Expr:
        match node:
            case ir.Attribute(ir.Name(owner), attr) if (owner, attr) in hoisted:
                return hoisted[(owner, attr)]
            case ir.IfExp(test, body, _) \
                    if _method_test(test, self.receivers, self.function) is not None:
                return body
        return node

    def fast(self, stmt: ir.Stmt, hoisted: dict[tuple[str, str], ir.Name]) -> ir.Stmt:
        stmt = map_statement_expressions(stmt, lambda node: self.hoisted(node, hoisted))
        match stmt:
            case ir.For(target, iterable, body, orelse, loc):
                return ir.For(target, iterable, tuple(self.fast(s, hoisted) for s in body),
                              orelse, loc)
            case ir.If(test, body, orelse, loc):
                return ir.If(test, tuple(self.fast(s, hoisted) for s in body),
                             tuple(self.fast(s, hoisted) for s in orelse), loc)
        return stmt


def hoist_object_reads(function: ir.Function) -> ir.Function:
    """Read a user object's attributes and test its inlined methods once before a loop nest
    that runs no code of anyone's (numbers and lists of numbers), the nest as written kept."""
    if function.namespace is None or introspects(function) \
            or not {ir.For, ir.IfExp} <= node_kinds(function):
        return function
    hoister = _Hoister(function)
    if not hoister.receivers:
        return function
    body = hoister.block(function.body)
    return function if body is function.body else function.with_body(body)
