"""Plain values in one function: which of its expressions hold values operations on which run
no code the compiler cannot see (`trusted.plain_value`), and what that rests on.

The base of the effects analysis (`effects.Effects` adds what operations, calls and statements
run). What is plain is known from constants, from the argument types a version is compiled for
(`ir.Function.argument_types`, checked on entry: in a version for a float `x`, `x + 1` is
clean; in the version for any types it is not), from globals holding plain values (guarded),
from the types known at each statement (`value_types`) and from locals only ever assigned plain
values. Anything else (an argument of any type, an object-dtype array, an instance of a user
class, a list's items) may run code. A call returns a plain value where calling it runs no
unseen code given plain arguments: what `call` and `transparent_call`, defined by `Effects`,
answer.
"""

from __future__ import annotations

import builtins
import contextlib
import contextvars
import copy
import types
from abc import ABC, abstractmethod
from functools import partial
from typing import Any, Callable, Hashable, Iterator, Sequence

from .. import ir
from ..ir.names import (assignment_counts, local_names, parameter_names, stored_targets,
                        untracked_names)
from ..ir.rewrite import walk_expr, walk_statements
from .attributes import instance_attribute
from .trusted import (
    NOTHING,
    TRUSTED_BUILTINS,
    Relied,
    bound_builtin,
    builds_container,
    library_object,
    plain_type,
    plain_value,
    union,
)
from .value_types import TypeEnv, types_before

Check = Callable[[], Relied | None]


# per compilation (see `plain_locals_shared`), by the function's identity (the function held
# beside, so the id stays its own), the parameters known plain and the subclass's `scope`:
# what `PlainValues` first works out about the function, before any question
_shared_found: contextvars.ContextVar[dict[Hashable, tuple[ir.Function, dict[str, Any]]] | None] \
    = contextvars.ContextVar("symcompile_plain_locals", default=None)
_FOUND = ("locals", "untracked", "containers", "plain_parameters", "types", "plain_locals")


@contextlib.contextmanager
def plain_locals_shared() -> Iterator[None]:
    """Inside the block, what is known of one function object before any question (the plain
    locals: a fixed point over all its assignments) is found once for the same parameters and
    scope: most passes return the function they were given, and the next builds an analysis
    of that same (immutable) function again."""
    token = _shared_found.set({})
    try:
        yield
    finally:
        _shared_found.reset(token)


def _add_source(sources: dict[str, list[Check]], target: ir.Expr, check: Check) -> None:
    """Record `check` for each local `target` binds (a module-level function: a recursive
    closure would be a reference cycle, keeping the analysis alive until the cyclic collector
    runs)."""
    match target:
        case ir.Name(name):
            sources.setdefault(name, []).append(check)
        case ir.Build(_, items):
            for item in items:
                _add_source(sources, item, check)
        case ir.Starred(inner):
            _add_source(sources, inner, _never_plain)


def _never_plain() -> Relied | None:
    return None


class PlainValues(ABC):
    """Answers, for one function, what makes an expression's value plain (`Relied`), or None
    where it may not be."""

    def __init__(self, function: ir.Function, plain_parameters: frozenset[str]) -> None:
        self.function = function
        self.env: TypeEnv = {}
        # answers per (node, types known[, which question]): `plain`'s, and Effects'
        self._plain_memo: dict[tuple[int, ...], tuple[ir.Expr | ir.Stmt, Relied | None]] = {}
        shared = _shared_found.get()
        key = (id(function), plain_parameters, self.scope())
        if shared is not None and key in shared:  # copies: an instance may learn more
            vars(self).update((name, copy.copy(found)) for name, found in shared[key][1].items())
            return
        self.locals = local_names(function)
        self.untracked = untracked_names(function)
        self.containers = self._containers()
        parameters = set(parameter_names(function))
        self.plain_parameters = plain_parameters | {
            name for name, kind in function.argument_types.items() if plain_type(kind)}
        # the types known at each statement (`value_types`): a local of a known number type
        # or array kind is plain there, whatever else it holds elsewhere (after `type(x) is
        # float`, say); such facts rest on argument types and tests, never on globals
        self.types = types_before(function)
        self.plain_locals: dict[str, Relied] = {}
        self.plain_locals = self._find_plain_locals(parameters)
        if shared is not None:
            shared[key] = (function, {name: copy.copy(getattr(self, name)) for name in _FOUND})

    def scope(self) -> Hashable:
        """What, besides the function and the parameters known plain, the answers depend on."""
        return None

    @abstractmethod
    def call(self, call: ir.Call) -> Relied | None:
        """What makes calling `call.func` with its arguments run no unseen code, or None."""

    @abstractmethod
    def transparent_call(self, name: str, args: list[ir.Expr], keywords: tuple[ir.Keyword, ...],
                         result: bool = False) -> Relied | None:
        """What makes calling the function of this module the global `name` holds run no
        unseen code (with `result`, and return a plain value), or None."""

    def _containers(self) -> set[str]:
        """Locals bound only to lists or dicts the function builds itself."""
        counts = assignment_counts(self.function)
        built: dict[str, int] = {}
        for stmt in walk_statements(self.function.body):
            if isinstance(stmt, ir.Assign) and builds_container(stmt.value):
                for target in stmt.targets:
                    if isinstance(target, ir.Name):
                        built[target.id] = built.get(target.id, 0) + 1
        return {name for name, count in built.items()
                if count == counts[name] and name not in self.untracked}

    def _find_plain_locals(self, parameters: set[str]) -> dict[str, Relied]:
        """The locals every assignment of which binds a plain value, and what that rests on.
        Found from all of them down: a local with a non-plain assignment drops out, until none
        does. (A clean statement is reached only through clean ones, where every global read
        still held its value, so the assignments that reached it bound plain values.)

        Each local's answer is taken in as soon as it is found, parameters first and the others
        in the order of their first assignments, so a chain of copies (`add_a = a; e = add_a +
        add_b; g = e + f`) settles in one round and a second confirms it (all answers at once
        after each round took one round per link). The answers only ever shrink (a local drops
        out, what it rests on grows), so any order ends at the same, largest, answer."""
        sources = self._sources()
        plain = [name for name in parameters if name in self.plain_parameters]
        self.plain_locals = dict.fromkeys(plain, NOTHING)
        self.plain_locals.update((name, NOTHING) for name in sources
                                 if name not in self.untracked and name not in self.plain_locals
                                 and name not in parameters)
        changed = True
        while changed:
            changed = False
            for name in list(self.plain_locals):
                relied = union(check() for check in sources.get(name, []))
                if relied is not None and name in self.plain_parameters:
                    relied |= {name}
                if relied == self.plain_locals[name]:
                    continue
                changed = True
                if relied is None:
                    del self.plain_locals[name]
                else:
                    self.plain_locals[name] = relied
                self._plain_memo.clear()  # (answers may rest on the old one)
        return self.plain_locals

    def _sources(self) -> dict[str, list[Check]]:
        """For each local, a check per assignment of whether it binds a plain value."""
        sources: dict[str, list[Check]] = {}
        add = partial(_add_source, sources)
        for stmt in walk_statements(self.function.body):
            match stmt:
                case ir.Assign(targets, value):
                    for target in targets:
                        whole = isinstance(target, ir.Name)
                        add(target, partial(self.plain if whole else self.items_plain, value))
                case ir.AugAssign(target, op, value):
                    add(target, partial(self.plain, ir.Op(op, (target, value))))
                case ir.For(target, iterable):
                    whole = isinstance(target, ir.Name)
                    add(target, partial(self.items_plain if whole else self.pairs_plain, iterable))
        return sources

    def learn_locals(self, statements: Sequence[ir.Stmt]) -> None:
        """Take in the locals of statements a pass just made (new names assigned only there):
        they become known, plain where every assignment binds a plain value."""
        verdicts: dict[str, list[Relied | None]] = {}
        for stmt in walk_statements(tuple(statements)):
            match stmt:
                case ir.Assign((ir.Name(name),), value):
                    verdicts.setdefault(name, []).append(self.plain(value))
                case _:
                    for target in stored_targets(stmt):
                        for node in walk_expr(target):
                            if isinstance(node, ir.Name):
                                verdicts.setdefault(node.id, []).append(None)
        for name, found in verdicts.items():
            if name not in self.locals or name in self.plain_locals:
                self.locals.add(name)
                relied = union(found)
                if relied is None:
                    self.plain_locals.pop(name, None)
                else:
                    self.plain_locals[name] = relied
                self._plain_memo.clear()

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
                return NOTHING if plain_value(value) else None
            case ir.Name(name):
                if name in self.locals:
                    return self.plain_locals.get(name, self._typed(name))
                found, value = self.static_value(expr)
                return frozenset({name}) if found and plain_value(value) else None
            case ir.Compare(ops, _) if all(op in ("is", "isnot") for op in ops):
                return NOTHING  # a bool, whatever the operands
            case ir.Op(_, operands) | ir.Compare(_, operands) | ir.BoolOp(_, operands) \
                    | ir.Build("tuple" | "list", operands):
                return union(self.plain(operand) for operand in operands)
            case ir.IfExp(_, body, orelse):
                return union((self.plain(body), self.plain(orelse)))
            case ir.Subscript(value, index):
                return union((self.plain(value), self.plain(index)))
            case ir.Slice(lower, upper, step):
                return union(self.plain(part) for part in (lower, upper, step) if part is not None)
            case ir.Attribute(value, attr):
                found, static = self.static_value(expr)
                if found and isinstance(self.static_value(value)[1], types.ModuleType):
                    return NOTHING if plain_value(static) else None  # a module's constant
                if (held := self.object_attribute(value, attr)) is not None:
                    # a compiled object's attribute: fold_constants reads it wherever the
                    # statement is clean, and its fact is then checked on entry
                    return NOTHING if plain_value(held[0]) else None
                return self.plain(value)  # an array's `.shape`, `.T`; a number's `.real`
            case ir.Call() if ir.is_assumptions_hold(expr):
                return NOTHING  # a bool
            case ir.Call(func, _, _) if self.library_callee(func):
                return self.call(expr)  # a builtin or NumPy result built from plain values
            case ir.Call(ir.Name(name), args, keywords) if not any(
                    isinstance(arg, ir.Starred) for arg in args) and name not in self.locals:
                return self.transparent_call(name, list(args), keywords, result=True)
        return None

    def _typed(self, name: str) -> Relied | None:
        """What makes the local `name` plain by its type known here, or None."""
        known = self.env.get(name)
        if known is None or not plain_type(known.type):
            return None
        return known.arguments

    def plain_all(self, exprs: Sequence[ir.Expr]) -> Relied | None:
        return union(self.plain(expr) for expr in exprs)

    def items_plain(self, expr: ir.Expr) -> Relied | None:
        """What makes every item of `expr` (iterated or unpacked) plain, or None."""
        match expr:
            case ir.Build("tuple" | "list", items):
                return union(self.plain(item) for item in items)
            case ir.Call(ir.Name("range"), _, _) if self.library_callee(expr.func):
                return self.call(expr)
        return self.plain(expr)

    def pairs_plain(self, expr: ir.Expr) -> Relied | None:
        """What makes every item of every item of `expr` plain (`for i, v in enumerate(a)`)."""
        if isinstance(expr, ir.Call) and isinstance(expr.func, ir.Name) \
                and expr.func.id in ("enumerate", "zip") and self.library_callee(expr.func):
            return union((self.call(expr), *(self.items_plain(arg) for arg in expr.args)))
        return self.plain(expr)

    def unchanging(self, name: str) -> bool:
        """Whether nothing can rebind the free name `name` (see `ir.Namespace.unchanging`):
        relied on anywhere, clean or not."""
        namespace = self.function.namespace
        return namespace is not None and name not in self.locals and namespace.unchanging(name)

    def at(self, stmt: ir.Stmt) -> None:
        """Judge what follows with the types known where `stmt` starts (a statement a pass
        just made keeps those of the statement it came from: it binds only new names)."""
        self.env = self.types.get(id(stmt), self.env)

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

    def library_callee(self, func: ir.Expr) -> bool:
        """Whether `func` names a trusted builtin or a function of NumPy, math or cmath."""
        found, value = self.static_value(func)
        if not found:
            return False
        if isinstance(func, ir.Name) and func.id in TRUSTED_BUILTINS:
            return value is getattr(builtins, func.id)
        return library_object(value) or bound_builtin(func) is not None

    def object_attribute(self, value: ir.Expr, attr: str) -> tuple[object] | None:
        """The value of a compiled object's plain instance attribute `value.attr` (read
        without running code, see `objects`), or None."""
        if not isinstance(value, ir.Const) or not self.function.resolve_objects:
            return None
        found, held = instance_attribute(value.value, attr)
        return (held,) if found else None
