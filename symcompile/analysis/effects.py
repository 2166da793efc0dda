"""Effects: which code may run that the compiler cannot see, and where it cannot have run yet.

An analysis the passes that rely on globals ask (fold_constants, inline_calls, unroll_loops,
and `objects.holds_during_call`). A global's value checked on entry (a guard) still holds at a
statement only if nothing run since entry could have rebound it. Code the compiler cannot see
runs not only in calls: an operator, a comparison, a subscript, an attribute read, a truth
test, a `for` loop or unpacking runs the operands' own methods (`__add__`, `__eq__`,
`__getitem__`, `__getattr__` and properties, `__bool__`, `__iter__`...), and a builtin or a
NumPy or math function runs them too (`len` calls `__len__`, `math.floor` `__floor__`,
`print` `__str__`) or calls back what it is given (`sorted(key=...)`, `np.vectorize`).

So every operation is judged by the values it works on. It runs no unseen code only where each
of them is *plain*: a bool, int, float, complex, str, bytes or None, a tuple of plain values, a
NumPy array or scalar of a numeric dtype (exact types: no subclasses), a dtype, a builtin
number type or a function or class of NumPy, math or cmath. What is plain is known from
constants, from the argument types a version is compiled for (`ir.Function.argument_types`,
checked on entry: in a version for a float `x`, `x + 1` is clean; in the version for any types
it is not), from globals holding plain values (guarded) and from locals only ever assigned
plain values. Anything else (an argument of any type, an object-dtype array, an instance of a
user class, a list's items) may run code.

Trusted calls are the builtins of `TRUSTED_BUILTINS` and the functions of NumPy, `math` and
`cmath`, given plain arguments (`len`, `enumerate`, `zip`, `reversed`, `list` and `tuple`
also take lists and dicts the function built itself, whose structure they read without running
their items' code; `type` and `id` take anything); safe methods of those lists and dicts; and
*transparent* functions of the same module: ones whose bodies run no unseen code given what
the call passes them. A store into an attribute or an item runs no unseen code only into a
plain NumPy array or a list or dict the function built itself: a store into a module
(`sys.modules[__name__].X = 1`) or a globals dict (`NS["X"] = 1`) rebinds a global.

What a verdict of "runs no unseen code" rests on (an argument's type, a global's value, a
transparent function) becomes an assumption checked on entry, but only where a rewrite relied
on a global there (see `rewrite_clean_statements`). `print` is taken to write to a stream that
runs no code of the program's, and names bound to NumPy, math and cmath modules, like those
modules' attributes, are taken as fixed.

Past code that may be unseen, a global is read live: not folded, and a helper is inlined only
behind a check of its name at the call (`inline_calls`), never on the check on entry.
"""

from __future__ import annotations

import builtins
import inspect
import types
from typing import Callable, Iterable, Sequence

import numpy as np

from .. import ir
from ..errors import SymbolicError
from ..frontend import build as frontend
from ..ir.names import (
    assigned_names,
    assignment_counts,
    local_names,
    parameter_names,
    untracked_names,
)
from ..ir.rewrite import (
    expr_children,
    nested_bodies,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
)
from .attributes import instance_attribute, static_attribute
from .value_types import TypeEnv, type_assumptions, types_before

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
_NOTHING: Relied = frozenset()


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
    return _library_object(value)


def _library_object(value: object) -> bool:
    """A function or class of NumPy, math or cmath."""
    if not callable(value) or isinstance(value, types.ModuleType):
        return False
    module = static_attribute(value, "__module__") or ""
    return isinstance(module, str) and module.split(".")[0] in TRUSTED_MODULES


def _bound_builtin(func: ir.Expr) -> str | None:
    """The name of the trusted builtin `func` holds as a bound object (`type` in a loop's
    `type(a) is float`), or None."""
    if isinstance(func, ir.Const):
        for name in TRUSTED_BUILTINS:
            if func.value is getattr(builtins, name):
                return name
    return None


def _plain_argument_type(kind: ir.ArgumentType) -> bool:
    return isinstance(kind, ir.ArrayKind) or kind in _PLAIN_CLASSES


def _builds_container(value: ir.Expr) -> bool:
    match value:
        case ir.Build("list", _) | ir.DictDisplay():
            return True
        case ir.Call(ir.Name("list" | "dict"), ()):
            return True
    return False


def _union(parts: Iterable[Relied | None]) -> Relied | None:
    """All of `parts` together, or None if one of them is None."""
    result: set[str] = set()
    for part in parts:
        if part is None:
            return None
        result |= part
    return frozenset(result)


class Effects:
    """Answers, for one function, whether code the compiler cannot see may run. The answers
    are what a verdict of "no unseen code" rests on (`Relied`: names of arguments whose types
    and of globals whose values it needs), or None where unseen code may run."""

    def __init__(self, function: ir.Function, visiting: frozenset[object] = frozenset(),
                 plain_parameters: frozenset[str] = frozenset()) -> None:
        self.function = function
        self.locals = local_names(function)
        self.visiting = visiting | {function.namespace.code if function.namespace else None}
        self.untracked = untracked_names(function)
        self.containers = self._containers()
        self._transparent: dict[tuple[types.CodeType, frozenset[str]],
                                tuple[Relied | None, Relied | None]] = {}
        parameters = set(parameter_names(function))
        self.plain_parameters = plain_parameters | {
            name for name, kind in function.argument_types.items() if _plain_argument_type(kind)}
        # the types known at each statement (`value_types`): a local of a known number type
        # or array kind is plain there, whatever else it holds elsewhere (after `type(x) is
        # float`, say); such facts rest on argument types and tests, never on globals
        self.types = types_before(function)
        self.env: TypeEnv = {}
        self.plain_locals = self._plain_locals(parameters)
        # what the verdicts rewrites depended on rest on (see `rely`)
        self.relied: set[str] = set()

    # ------------------------------------------------------------ what is plain

    def _containers(self) -> set[str]:
        """Locals bound only to lists or dicts the function builds itself."""
        counts = assignment_counts(self.function)
        built: dict[str, int] = {}
        for stmt in walk_statements(self.function.body):
            if isinstance(stmt, ir.Assign) and _builds_container(stmt.value):
                for target in stmt.targets:
                    if isinstance(target, ir.Name):
                        built[target.id] = built.get(target.id, 0) + 1
        return {name for name, count in built.items()
                if count == counts[name] and name not in self.untracked}

    def _plain_locals(self, parameters: set[str]) -> dict[str, Relied]:
        """The locals every assignment of which binds a plain value, and what that rests on.
        Found from all of them down: a local with a non-plain assignment drops out, until none
        does. (A clean statement is reached only through clean ones, where every global read
        still held its value, so the assignments that reached it bound plain values.)"""
        sources = self._sources()
        self._plain_memo: dict[tuple[int, int], tuple[ir.Expr, Relied | None]] = {}
        self.plain_locals = {name: _NOTHING for name in sources
                             if name not in self.untracked and (
                                 name not in parameters or name in self.plain_parameters)}
        for name in self.plain_parameters & parameters:
            self.plain_locals.setdefault(name, _NOTHING)
        while True:
            found: dict[str, Relied] = {}
            for name in self.plain_locals:
                relied = _union(check() for check in sources.get(name, []))
                if relied is not None:
                    found[name] = relied | ({name} if name in self.plain_parameters else _NOTHING)
            if found == self.plain_locals:
                return found
            self.plain_locals = found
            self._plain_memo.clear()

    def _sources(self) -> dict[str, list[Callable[[], Relied | None]]]:
        """For each local, a check per assignment of whether it binds a plain value."""
        sources: dict[str, list[Callable[[], Relied | None]]] = {}

        def add(target: ir.Expr, check: Callable[[], Relied | None]) -> None:
            match target:
                case ir.Name(name):
                    sources.setdefault(name, []).append(check)
                case ir.Build(_, items):
                    for item in items:
                        add(item, check)
                case ir.Starred(inner):
                    add(inner, lambda: None)

        for stmt in walk_statements(self.function.body):
            match stmt:
                case ir.Assign(targets, value):
                    for target in targets:
                        whole = isinstance(target, ir.Name)
                        add(target, (lambda v=value: self.plain(v)) if whole
                            else (lambda v=value: self._items_plain(v)))
                case ir.AugAssign(target, op, value):
                    add(target, lambda s=ir.Op(op, (target, value)): self.plain(s))
                case ir.For(target, iterable):
                    whole = isinstance(target, ir.Name)
                    add(target, (lambda i=iterable: self._items_plain(i)) if whole
                        else (lambda i=iterable: self._pairs_plain(i)))
        return sources

    def plain(self, expr: ir.Expr) -> Relied | None:
        """What makes `expr`'s value plain, or None if it may not be. (Remembered per node
        and types known, until what is known of the locals changes: a nest of calls asks
        of each inner call again.)"""
        key = (id(expr), id(self.env))
        if (known := self._plain_memo.get(key)) is not None:
            return known[1]
        relied = self._plain(expr)
        self._plain_memo[key] = (expr, relied)  # (holding the node keeps its id its own)
        return relied

    def _plain(self, expr: ir.Expr) -> Relied | None:
        match expr:
            case ir.Const(value):
                return _NOTHING if plain_value(value) else None
            case ir.Name(name):
                if name in self.locals:
                    return self.plain_locals.get(name, self._typed(name))
                found, value = self.static_value(expr)
                return frozenset({name}) if found and plain_value(value) else None
            case ir.Compare(ops, _) if all(op in ("is", "isnot") for op in ops):
                return _NOTHING  # a bool, whatever the operands
            case ir.Op(_, operands) | ir.Compare(_, operands) | ir.BoolOp(_, operands) \
                    | ir.Build("tuple" | "list", operands):
                return _union(self.plain(operand) for operand in operands)
            case ir.IfExp(_, body, orelse):
                return _union((self.plain(body), self.plain(orelse)))
            case ir.Subscript(value, index):
                return _union((self.plain(value), self.plain(index)))
            case ir.Slice(lower, upper, step):
                return _union(self.plain(part) for part in (lower, upper, step) if part is not None)
            case ir.Attribute(value, attr):
                found, static = self.static_value(expr)
                if found and isinstance(self.static_value(value)[1], types.ModuleType):
                    return _NOTHING if plain_value(static) else None  # a module's constant
                if (held := self._object_attribute(value, attr)) is not None:
                    # a compiled object's attribute: fold_constants reads it wherever the
                    # statement is clean, and its fact is then checked on entry
                    return _NOTHING if plain_value(held[0]) else None
                return self.plain(value)  # an array's `.shape`, `.T`; a number's `.real`
            case ir.Call() if ir.is_assumptions_hold(expr):
                return _NOTHING  # a bool
            case ir.Call(func, _, _) if self._library_callee(func):
                return self.call(expr)  # a builtin or NumPy result built from plain values
            case ir.Call(ir.Name(name), args, keywords) if not any(
                    isinstance(arg, ir.Starred) for arg in args) and name not in self.locals:
                return self._transparent_call(name, list(args), keywords, result=True)
        return None

    def _typed(self, name: str) -> Relied | None:
        """What makes the local `name` plain by its type known here, or None."""
        known = self.env.get(name)
        if known is None or not _plain_argument_type(known.type):
            return None
        return known.arguments

    def unchanging(self, name: str) -> bool:
        """Whether nothing can rebind the free name `name` (see `ir.Namespace.unchanging`):
        relied on anywhere, clean or not."""
        namespace = self.function.namespace
        return namespace is not None and name not in self.locals and namespace.unchanging(name)

    def at(self, stmt: ir.Stmt) -> None:
        """Judge what follows with the types known where `stmt` starts (a statement a pass
        just made keeps those of the statement it came from: it binds only new names)."""
        self.env = self.types.get(id(stmt), self.env)

    def _items_plain(self, expr: ir.Expr) -> Relied | None:
        """What makes every item of `expr` (iterated or unpacked) plain, or None."""
        match expr:
            case ir.Build("tuple" | "list", items):
                return _union(self.plain(item) for item in items)
            case ir.Call(ir.Name("range"), _, _) if self._library_callee(expr.func):
                return self.call(expr)
        return self.plain(expr)

    def _pairs_plain(self, expr: ir.Expr) -> Relied | None:
        """What makes every item of every item of `expr` plain (`for i, v in enumerate(a)`)."""
        if isinstance(expr, ir.Call) and isinstance(expr.func, ir.Name) \
                and expr.func.id in ("enumerate", "zip") and self._library_callee(expr.func):
            return _union((self.call(expr), *(self._items_plain(arg) for arg in expr.args)))
        return self.plain(expr)

    def _structural(self, expr: ir.Expr) -> Relied | None:
        """What makes iterating over `expr` or taking its length run no unseen code: a plain
        value, a display, a list or dict the function built, or an iterator made of those."""
        match expr:
            case ir.Name(name) if name in self.containers:
                return _NOTHING
            case ir.Const(value) if type(value) in (list, tuple, str, bytes, range, dict):
                return _NOTHING
            case ir.Build("tuple" | "list", _):
                return self.evaluation(expr)
            case ir.Call(ir.Name(name), _, _) if name in STRUCTURAL_BUILTINS | {"range"} \
                    and self._library_callee(expr.func):
                return self.call(expr)
        return self.plain(expr)

    # ----------------------------------------------------------------- callees

    def static_value(self, expr: ir.Expr) -> tuple[bool, object]:
        """The object a global name or a module attribute chain (`np.linalg.norm`) names at
        compile time, read without running code (module `__getattr__` hooks are not called)."""
        namespace = self.function.namespace
        match expr:
            case ir.Const(value):  # an object bound at compile time (see hoist_globals)
                return True, value
            case ir.Name(name) if namespace is not None and name not in self.locals:
                return namespace.lookup(name)
            case ir.Attribute(value, attr):
                found, owner = self.static_value(value)
                if found and isinstance(owner, types.ModuleType) and attr in vars(owner):
                    return True, vars(owner)[attr]
        return False, None

    def _library_callee(self, func: ir.Expr) -> bool:
        """Whether `func` names a trusted builtin or a function of NumPy, math or cmath."""
        found, value = self.static_value(func)
        if not found:
            return False
        if isinstance(func, ir.Name) and func.id in TRUSTED_BUILTINS:
            return value is getattr(builtins, func.id)
        return _library_object(value) or _bound_builtin(func) is not None


    def call(self, call: ir.Call) -> Relied | None:
        """What makes calling `call.func` with its arguments run no unseen code (the call
        itself, not the evaluation of its parts), or None."""
        func, args, keywords = call.func, call.args, call.keywords
        if ir.is_assumptions_hold(call):
            return _NOTHING  # a few `is` tests of globals
        if any(kw.name is None for kw in keywords) or any(
                isinstance(arg, ir.Starred) and not isinstance(arg.value, (ir.Build, ir.Const))
                for arg in args):
            return None
        values = [arg.value if isinstance(arg, ir.Starred) else arg for arg in args]
        values += [kw.value for kw in keywords]
        if isinstance(func, ir.Attribute) and isinstance(func.value, ir.Name) \
                and func.value.id in self.containers:
            if func.attr not in CONTAINER_METHODS:
                return None
            return _NOTHING if func.attr in ANY_ARGUMENT_METHODS else \
                _union(self.plain(value) for value in values)
        if self._library_callee(func):
            name = func.id if isinstance(func, ir.Name) else ""
            guard = frozenset({name}) if name else _NOTHING  # a global name, checked on entry
            name = name or _bound_builtin(func) or ""
            if name in BLIND_BUILTINS and len(values) == 1:
                return guard
            check = self._structural if name in STRUCTURAL_BUILTINS else self.plain
            return _union((guard, *(check(value) for value in values)))
        if isinstance(func, ir.Name) and not any(isinstance(arg, ir.Starred) for arg in args):
            return self._transparent_call(func.id, list(args), keywords)
        return None

    def _transparent_call(self, name: str, args: list[ir.Expr], keywords: tuple[ir.Keyword, ...],
                          result: bool = False) -> Relied | None:
        """What makes calling the function of this module the global `name` holds with these
        arguments run no unseen code (its name, and what its body's verdict rests on, in the
        caller's terms), or None if it may run some. With `result`, what makes the call also
        return a plain value."""
        found, value = self.static_value(ir.Name(name))
        state = static_attribute(value, "_symcompile")
        callee = static_attribute(state, "original", value)
        namespace = self.function.namespace
        if not found or not isinstance(callee, types.FunctionType) or namespace is None \
                or callee.__globals__ is not namespace.globals or callee.__code__.co_freevars \
                or callee.__code__ in self.visiting:
            return None
        plains = self._parameter_verdicts(callee, args, keywords)
        if plains is None:
            return None
        known = frozenset(parameter for parameter, relied in plains.items() if relied is not None)
        runs, returns = self._callee_verdict(callee, known)
        inner = _union((runs, returns)) if result else runs
        if inner is None:
            return None
        relied = {name} | {n for n in inner if n not in plains}
        return _union([frozenset(relied), *(plains[n] for n in inner if n in plains)])

    def _parameter_verdicts(self, callee: types.FunctionType, args: list[ir.Expr],
                            keywords: tuple[ir.Keyword, ...]) -> dict[str, Relied | None] | None:
        """For each parameter of `callee`, what makes the value the call binds to it plain
        (None where it may not be); None if the call does not plainly fit the signature."""
        code = callee.__code__
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount:
            return None
        parameters = code.co_varnames[:code.co_argcount]
        bound: dict[str, ir.Expr | None] = dict(zip(parameters, args))
        bound.update((kw.name, kw.value) for kw in keywords if kw.name is not None)
        defaults = dict(zip(parameters[len(parameters) - len(callee.__defaults__ or ()):],
                            callee.__defaults__ or ()))
        if len(args) > len(parameters) or set(bound) - set(parameters) \
                or set(parameters) - set(bound) - set(defaults):
            return None
        return {parameter: self.plain(bound[parameter]) if parameter in bound  # type: ignore[arg-type]
                else _NOTHING if plain_value(defaults[parameter]) else None
                for parameter in parameters}

    def _callee_verdict(self, callee: types.FunctionType, plain_parameters: frozenset[str],
                        ) -> tuple[Relied | None, Relied | None]:
        """What the callee's body running no unseen code rests on (its parameters known plain
        are `plain_parameters`), and what every value it returns being plain rests on."""
        code = callee.__code__
        key = (code, plain_parameters)
        if key not in self._transparent:
            self._transparent[key] = (None, None)
            try:
                source = frontend.read_function_source(callee)
            except SymbolicError:
                return None, None
            if not source.checked:
                return None, None
            callee_ir = frontend.build_function(source, frontend.namespace_of(callee))
            inner = Effects(callee_ir, self.visiting | {code}, plain_parameters)
            returns = [stmt.value for stmt in walk_statements(callee_ir.body)
                       if isinstance(stmt, ir.Return) and stmt.value is not None]
            self._transparent[key] = (inner.body(callee_ir.body),
                                      inner.plain_all(returns) if returns else None)
        return self._transparent[key]

    # -------------------------------------------------------------- expressions

    def evaluation(self, expr: ir.Expr) -> Relied | None:
        """What makes evaluating `expr` run no unseen code, or None if it may run some."""
        return _union((self._operation(expr),
                       *(self.evaluation(child) for child in expr_children(expr))))

    def _operation(self, expr: ir.Expr) -> Relied | None:
        """What makes the operation of `expr` itself (its parts evaluated) run no unseen code."""
        match expr:
            case ir.OpaqueExpr():
                return None
            case ir.Op(_, operands):
                return self.plain_all(operands)
            case ir.Compare(ops, operands):
                return _NOTHING if all(op in ("is", "isnot") for op in ops) else \
                    self.plain_all(operands)
            case ir.BoolOp(_, values):  # each value but the last is tested for truth
                return self.plain_all(values[:-1])
            case ir.IfExp(test, _, _):
                return self.plain(test)
            case ir.Subscript(value, index):
                container = _NOTHING if isinstance(value, ir.Name) and value.id in self.containers \
                    else self.plain(value)
                return _union((container, self.plain(index)))
            case ir.Attribute(value, attr):
                return self._attribute_read(value, attr)
            case ir.Call():
                return self.call(expr)
            case ir.Build("set", items):
                return self.plain_all(items)
            case ir.DictDisplay(keys, _):
                return None if None in keys else self.plain_all(keys)  # type: ignore[arg-type]
        return _NOTHING  # names, constants, tuple and list displays, slices, starred items

    def reads(self, stmt: ir.Stmt) -> tuple[frozenset[str], Relied]:
        """The names the statement's own expressions read only after something that may run
        unseen code (a global read there may have been rebound), and what the work before
        the first such thing rests on."""
        order = _Order(self)
        match stmt:
            case ir.Assign(targets, value):
                order.walk(value)
                for target in targets:
                    order.walk_all(_target_parts(target))
            case ir.AugAssign(target, _, value):
                order.walk_all(_target_parts(target))
                order.walk(value)
            case ir.Opaque():
                order.taint()
            case _:
                order.walk_all(statement_expressions(stmt, targets=False))
        late = {name for name in order.late if not self.unchanging(name)}
        return frozenset(late), frozenset(order.relied)

    def plain_all(self, exprs: Sequence[ir.Expr]) -> Relied | None:
        return _union(self.plain(expr) for expr in exprs)

    def _attribute_read(self, value: ir.Expr, attr: str) -> Relied | None:
        """What makes reading `value.attr` run no unseen code: a module's own attribute, an
        attribute of a plain value, a method of a list or dict the function built, or a
        compiled object's plain instance attribute (see `objects`)."""
        found, owner = self.static_value(value)
        if found and isinstance(owner, types.ModuleType):
            return _NOTHING if attr in vars(owner) else None  # else a module `__getattr__`
        if isinstance(value, ir.Name) and value.id in self.containers:
            return _NOTHING
        if self._object_attribute(value, attr) is not None:
            return _NOTHING
        return self.plain(value)

    def _object_attribute(self, value: ir.Expr, attr: str) -> tuple[object] | None:
        """The value of a compiled object's plain instance attribute `value.attr` (read
        without running code, see `objects`), or None."""
        if not isinstance(value, ir.Const) or not self.function.resolve_objects:
            return None
        found, held = instance_attribute(value.value, attr)
        return (held,) if found else None

    def may_run_user_code(self, expr: ir.Expr) -> bool:
        """Whether evaluating `expr` may call code the compiler cannot see."""
        return self.evaluation(expr) is None

    # --------------------------------------------------------------- statements

    def header(self, stmt: ir.Stmt) -> Relied | None:
        """What makes evaluating the statement's own expressions run no unseen code (before it
        stores, tests or iterates anything), or None."""
        if isinstance(stmt, ir.Opaque):
            return None
        parts: list[Relied | None] = []
        for expr in statement_expressions(stmt, targets=False):
            parts.append(self.evaluation(expr))
        for target in _stored(stmt):
            parts += [self.evaluation(child) for child in _target_parts(target)]
        return _union(parts)

    def header_may_run_user_code(self, stmt: ir.Stmt) -> bool:
        return self.header(stmt) is None

    def own(self, stmt: ir.Stmt) -> Relied | None:
        """What makes running `stmt` (nested bodies aside) run no unseen code, or None."""
        match stmt:
            case ir.Assign(targets, value):
                action = _union(self._store(target, value) for target in targets)
            case ir.AugAssign(ir.Name() as target, op, value):
                action = self.plain(ir.Op(op, (target, value)))
            case ir.AugAssign(ir.Subscript(owner, index), _, value):
                action = self.plain_all((owner, index, value))
            case ir.If(test) | ir.While(test):
                action = self.plain(test)
            case ir.For(target, iterable):
                action = self._structural(iterable) if isinstance(target, ir.Name) else \
                    _union((self._structural(iterable), self._pairs_plain(iterable)))
            case ir.Return() | ir.ExprStmt() | ir.Break() | ir.Continue():
                action = _NOTHING
            case _:  # a raise, an opaque statement, a store into an attribute in place
                return None
        return _union((action, self.header(stmt)))

    def _store(self, target: ir.Expr, value: ir.Expr) -> Relied | None:
        """What makes storing `value` into `target` run no unseen code: a local; an item of
        a list or dict the function built, or of a plain array given a plain value; a tuple
        of those unpacking a display or a plain value. Any other attribute or item may be a
        module's or a globals dict's (rebinding a global) or run a `__setitem__`."""
        match target:
            case ir.Name():
                return _NOTHING
            case ir.Subscript(ir.Name(name), index) if name in self.containers:
                return self.plain(index)
            case ir.Subscript(owner, index):
                return self.plain_all((owner, index, value))
            case ir.Build(_, items):
                unpacking = _NOTHING if isinstance(value, ir.Build) else self._structural(value)
                return _union((unpacking, *(self._store(item, ir.Const(None)) for item in items)))
            case ir.Starred(inner):
                return self._store(inner, value)
        return None

    def statement(self, stmt: ir.Stmt) -> Relied | None:
        """What makes running `stmt`, nested bodies included, run no unseen code, or None."""
        outer = self.env
        self.at(stmt)
        try:
            return _union((self.own(stmt), *(self.body(body) for body in nested_bodies(stmt))))
        finally:
            self.env = outer

    def body(self, body: tuple[ir.Stmt, ...]) -> Relied | None:
        """What makes running every statement of `body` run no unseen code, or None."""
        return _union(self.statement(stmt) for stmt in body)

    def statement_may_run_user_code(self, stmt: ir.Stmt) -> bool:
        """Whether running `stmt`, nested bodies included, may call code the compiler cannot see."""
        return self.statement(stmt) is None

    # -------------------------------------------------------------- assumptions

    def rely(self, relied: Relied) -> None:
        """Record that a rewrite depends on a verdict resting on `relied`."""
        self.relied |= relied

    def assumptions(self) -> list[ir.Assumption]:
        """The entry checks for what the recorded verdicts rest on: the types of arguments,
        and the values of globals (plain values and transparent functions)."""
        arguments = {name for name in self.relied if name in self.function.argument_types}
        result = list(type_assumptions(self.function, arguments, "knowing no unseen code runs"))
        namespace = self.function.namespace
        for name in sorted(self.relied - arguments - self.locals):
            found, value = namespace.lookup(name) if namespace is not None else (False, None)
            if found:
                result.append(ir.Assumption(name, value, f"{name} runs no unseen code"))
        return result

    def learn(self, statements: Sequence[ir.Stmt]) -> Relied | None:
        """Take in statements a pass just made (an inlined body, whose locals are new names
        assigned only there): their locals become known, plain where every assignment binds
        a plain value. What running them without unseen code rests on, or None."""
        verdicts: dict[str, list[Relied | None]] = {}
        for stmt in walk_statements(tuple(statements)):
            match stmt:
                case ir.Assign((ir.Name(name),), value):
                    verdicts.setdefault(name, []).append(self.plain(value))
                case _:
                    for target in _stored(stmt):
                        for node in walk_expr(target):
                            if isinstance(node, ir.Name):
                                verdicts.setdefault(node.id, []).append(None)
        for name, found in verdicts.items():
            if name not in self.locals or name in self.plain_locals:
                self.locals.add(name)
                relied = _union(found)
                if relied is None:
                    self.plain_locals.pop(name, None)
                else:
                    self.plain_locals[name] = relied
                self._plain_memo.clear()
        return self.body(tuple(statements))


class _Order:
    """A walk of expressions in the order Python evaluates them, noting each name read after
    the first operation that may run unseen code."""

    def __init__(self, effects: Effects) -> None:
        self.effects = effects
        self.dirty = False
        self.late: set[str] = set()
        self.relied: set[str] = set()

    def taint(self, verdict: Relied | None = None) -> None:
        if verdict is None:
            self.dirty = True
        elif not self.dirty:
            self.relied |= verdict

    def walk_all(self, exprs: Iterable[ir.Expr]) -> None:
        for expr in exprs:
            self.walk(expr)

    def walk(self, expr: ir.Expr) -> None:
        own = self.effects._operation(expr)
        match expr:
            case ir.Name(name) if self.dirty:
                self.late.add(name)
            case ir.BoolOp() | ir.IfExp() | ir.Compare():
                # a truth test or the first comparison comes after the first operand(s)
                children = expr_children(expr)
                first = 2 if isinstance(expr, ir.Compare) else 1
                self.walk_all(children[:first])
                self.taint(own)
                self.walk_all(children[first:])
                return
        self.walk_all(expr_children(expr))
        self.taint(own)


def _stored(stmt: ir.Stmt) -> tuple[ir.Expr, ...]:
    match stmt:
        case ir.Assign(targets, _):
            return targets
        case ir.AugAssign(target, _, _) | ir.For(target, _):
            return (target,)
    return ()


def _target_parts(target: ir.Expr) -> Iterable[ir.Expr]:
    """The expressions a store into `target` evaluates (an item's owner and index...)."""
    match target:
        case ir.Attribute(owner, _):
            yield owner
        case ir.Subscript(owner, index):
            yield owner
            yield index
        case ir.Build(_, items):
            for item in items:
                yield from _target_parts(item)
        case ir.Starred(inner):
            yield from _target_parts(inner)


def rewrite_clean_statements(
    function: ir.Function,
    rewrite: Callable[[ir.Stmt, bool], ir.Stmt | tuple[ir.Stmt, ...]],
    assumed: list[ir.Assumption] | Sequence[ir.Assumption] = (),
    effects: Effects | None = None,
) -> ir.Function:
    """`function` with every statement rewritten, the rewrite told whether the statement
    starts *clean*: no code the compiler cannot see can have run since the function was
    entered. Only there do the values of globals checked on entry still hold. `rewrite`
    returns a statement or a tuple replacing it, and collects in `assumed` what it relied on.
    Where `assumed` grows at a clean statement, the result also relies on what made the code
    before it (and its own expressions) clean; if nothing changed, it is `function` itself."""
    effects = effects or Effects(function)

    def block(body: tuple[ir.Stmt, ...], dirty: bool, relied: Relied,
              ) -> tuple[tuple[ir.Stmt, ...], bool, Relied]:
        result: list[ir.Stmt] = []
        for stmt in body:
            verdict = effects.statement(stmt)
            effects.at(stmt)
            own = effects.reads(stmt)[1]  # the work in it before the first unseen code
            bodies = nested_bodies(stmt)
            after_dirty = dirty or verdict is None
            after_relied = relied | (verdict or _NOTHING)
            if bodies:
                if isinstance(stmt, ir.If):  # the branches run after the test
                    test = effects.own(stmt)
                    branch = (dirty or test is None, relied | (test or _NOTHING))
                    # a recheck: the globals checked on entry are checked again (`ir.
                    # assumptions_hold`), so the branch starts as the function does
                    then = (test is None, test or _NOTHING) if ir.rechecks(stmt.test) else branch
                else:  # a loop body may run after anything in the loop ran
                    branch = then = (after_dirty, after_relied)
                new_body, _, _ = block(bodies[0], *then)
                new_orelse, _, _ = block(bodies[1], *branch)
                rebuilt = with_bodies(stmt, new_body, new_orelse)
                header_dirty = after_dirty if isinstance(stmt, ir.While) else dirty
                header_relied = after_relied if isinstance(stmt, ir.While) else relied
                effects.at(stmt)
                replaced = _rewritten(rebuilt, header_dirty, header_relied | own)
            else:
                replaced = _rewritten(stmt, dirty, relied | own)
            dirty, relied = after_dirty, after_relied
            result += replaced if isinstance(replaced, tuple) else (replaced,)
        return unchanged_or_new(body, result), dirty, relied

    def _rewritten(stmt: ir.Stmt, dirty: bool, relied: Relied) -> ir.Stmt | tuple[ir.Stmt, ...]:
        before = len(assumed)
        replaced = rewrite(stmt, dirty)
        if not dirty and len(assumed) > before:
            effects.rely(relied)
        return replaced

    body = block(function.body, False, _NOTHING)[0]
    if body is function.body:
        return function
    return function.with_body(body).assuming(*assumed, *effects.assumptions())


def kept_rechecks(function: ir.Function) -> dict[int, tuple[ir.Expr | None, Relied]]:
    """The loops split on a recheck (`for x in xs: if type(x) is float and assumptions_hold():
    ... else: ...`, by id) whose recheck need not run on every turn: after a turn through the
    first copy nothing unseen has run (that copy and the iteration run no unseen code), so
    the answer of the last recheck still holds, and only a turn through the other copy calls
    for a new one (see codegen). For each, what the iteration running no unseen code needs
    checked with the recheck (`type(xs) is list or type(xs) is tuple` for a local `xs` the
    loop does not rebind, or None if nothing), and the globals that copy running no unseen
    code rests on (which the recheck must cover)."""
    effects = Effects(function)
    kept: dict[int, tuple[ir.Expr | None, Relied]] = {}
    for stmt in walk_statements(function.body):
        match stmt:
            case ir.For(ir.Name() as target, iterable, (ir.If(test, then, _),), ()) \
                    if ir.rechecks(test) and (relied := effects.body(then)) is not None:
                effects.at(stmt)
                relied -= effects.locals
                if (iteration := effects._structural(iterable)) is not None:
                    kept[id(stmt)] = (None, relied | iteration)
                elif isinstance(iterable, ir.Name) and iterable.id in effects.locals \
                        and iterable.id not in effects.untracked and iterable != target \
                        and not any(iterable.id in assigned_names(inner)
                                    for inner in walk_statements(stmt.body)):
                    kept[id(stmt)] = (ir.BoolOp("or", tuple(
                        ir.Compare(("is",), (ir.Call(ir.Const(type), (iterable,)), ir.Const(kind)))
                        for kind in (list, tuple))), relied)
    return kept
