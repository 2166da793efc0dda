"""Effects: which code may run that the compiler cannot see, and where it cannot have run yet.

An analysis the passes that rely on globals ask (fold_constants, inline_calls, unroll_loops,
and `objects.holds_during_call`). A global's value checked on entry (a guard) still holds at a
statement only if nothing run since entry could have rebound it. Code the compiler cannot see
runs not only in calls: an operator, a comparison, a subscript, an attribute read, a truth
test, a `for` loop or unpacking runs the operands' own methods (`__add__`, `__eq__`,
`__getitem__`, `__getattr__` and properties, `__bool__`, `__iter__`...), and a builtin or a
NumPy or math function runs them too (`len` calls `__len__`, `math.floor` `__floor__`,
`print` `__str__`) or calls back what it is given (`sorted(key=...)`, `np.vectorize`).

So every operation is judged by the values it works on: it runs no unseen code only where each
of them is *plain* (`trusted` says which values are, and which calls are trusted given plain
arguments; `plain_values` which of a function's expressions hold plain values). Calls run no
unseen code into trusted builtins and NumPy, math and cmath functions, safe methods of lists
and dicts the function built itself, and *transparent* functions of the same module: ones whose
bodies run no unseen code given what the call passes them. A store into an attribute or an item
runs no unseen code only into a plain NumPy array or a list or dict the function built itself:
a store into a module (`sys.modules[__name__].X = 1`) or a globals dict (`NS["X"] = 1`)
rebinds a global.

What a verdict of "runs no unseen code" rests on (an argument's type, a global's value, a
transparent function) becomes an assumption checked on entry, but only where a rewrite relied
on a global there (see `clean_statements`). `print` is taken to write to a stream that runs no
code of the program's, and names bound to NumPy, math and cmath modules, like those modules'
attributes, are taken as fixed.

Past code that may be unseen, a global is read live: not folded, and a helper is inlined only
behind a check of its name at the call (`inline_calls`), never on the check on entry.
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
import types
from typing import Iterator, Sequence

from .. import ir
from ..errors import SymbolicError
from ..frontend import build as frontend
from ..ir.names import statement_facts_remembered, stored_targets
from ..ir.rewrite import (
    expr_children,
    nested_bodies,
    statement_expressions,
    walk_statements,
)
from .attributes import static_attribute
from .evaluation_order import late_reads, target_parts
from .plain_values import PlainValues, plain_locals_shared
from .trusted import (
    ANY_ARGUMENT_METHODS,
    BLIND_BUILTINS,
    CONTAINER_METHODS,
    NOTHING,
    STRUCTURAL_BUILTINS,
    Relied,
    bound_builtin,
    plain_value,
    union,
)
from .value_types import type_assumptions, types_shared

# (what the body running no unseen code rests on, what every returned value being plain does)
CalleeVerdict = tuple[Relied | None, Relied | None]
# a callee, its parameters known plain, and the functions being judged around it
CalleeKey = tuple[types.CodeType, frozenset[str], frozenset[object]]

_shared_verdicts: contextvars.ContextVar[dict[CalleeKey, CalleeVerdict] | None] = \
    contextvars.ContextVar("symcompile_callee_verdicts", default=None)


@contextlib.contextmanager
def analyses_shared() -> Iterator[None]:
    """Inside the block (one compilation), the analyses of a function object that does not
    change are worked out once: its callees' verdicts, its plain locals and its types, each
    callee's source is read once (`frontend.sources_shared`), and what `ir.names` finds of a
    statement object (`statement_facts_remembered`)."""
    with callee_verdicts_shared(), plain_locals_shared(), types_shared(), \
            frontend.sources_shared(), statement_facts_remembered():
        yield


@contextlib.contextmanager
def callee_verdicts_shared() -> Iterator[None]:
    """Inside the block, every `Effects` shares what it found about callees. One compilation
    asks about the same callees in every pass of every round; their source, IR and globals do
    not change while it runs, so each is read, built and judged once (it was most of the
    compile time of a small function calling helpers)."""
    token = _shared_verdicts.set({})
    try:
        yield
    finally:
        _shared_verdicts.reset(token)


# the tags of `evaluation`'s, `operation`'s and `statement`'s answers among those `plain`
# remembers
_EVALUATION, _OPERATION, _STATEMENT = 1, 2, 3


class Effects(PlainValues):
    """Answers, for one function, whether code the compiler cannot see may run. The answers
    are what a verdict of "no unseen code" rests on (`Relied`: names of arguments whose types
    and of globals whose values it needs), or None where unseen code may run."""

    def __init__(self, function: ir.Function, visiting: frozenset[object] = frozenset(),
                 plain_parameters: frozenset[str] = frozenset()) -> None:
        # the functions being judged already (a call of one may recurse): never transparent
        self.visiting = visiting | {function.namespace.code if function.namespace else None}
        shared = _shared_verdicts.get()
        self._callees: dict[CalleeKey, CalleeVerdict] = {} if shared is None else shared
        # what the verdicts rewrites depended on rest on (see `rely`)
        self.relied: set[str] = set()
        # each global name's callee a call may see through (`_transparent_callee`), once read
        self._transparent: dict[str, types.FunctionType | None] = {}
        # `reads` of each statement met, by (statement, types known), the statement held
        self._reads: dict[tuple[int, int], tuple[ir.Stmt, tuple[frozenset[str], Relied]]] = {}
        super().__init__(function, plain_parameters)

    def scope(self) -> frozenset[object]:
        return self.visiting  # a callee being judged already is never transparent

    # ----------------------------------------------------------------- callees

    def call(self, call: ir.Call) -> Relied | None:
        """What makes calling `call.func` with its arguments run no unseen code (the call
        itself, not the evaluation of its parts), or None."""
        func, args, keywords = call.func, call.args, call.keywords
        if ir.is_assumptions_hold(call):
            return NOTHING  # a few `is` tests of globals
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
            return NOTHING if func.attr in ANY_ARGUMENT_METHODS else \
                union(self.plain(value) for value in values)
        if self.library_callee(func):
            name = func.id if isinstance(func, ir.Name) else ""
            guard = frozenset({name}) if name else NOTHING  # a global name, checked on entry
            name = name or bound_builtin(func) or ""
            if name in BLIND_BUILTINS and len(values) == 1:
                return guard
            check = self.structural if name in STRUCTURAL_BUILTINS else self.plain
            return union((guard, *(check(value) for value in values)))
        if isinstance(func, ir.Name) and not any(isinstance(arg, ir.Starred) for arg in args):
            return self.transparent_call(func.id, list(args), keywords)
        return None

    def transparent_call(self, name: str, args: list[ir.Expr], keywords: tuple[ir.Keyword, ...],
                         result: bool = False) -> Relied | None:
        """What makes calling the function of this module the global `name` holds with these
        arguments run no unseen code (its name, and what its body's verdict rests on, in the
        caller's terms), or None if it may run some. With `result`, what makes the call also
        return a plain value."""
        if name in self.locals:
            return None
        if name not in self._transparent:
            self._transparent[name] = self._transparent_callee(name)
        callee = self._transparent[name]
        if callee is None:
            return None
        plains = self._parameter_verdicts(callee, args, keywords)
        if plains is None:
            return None
        known = frozenset(parameter for parameter, relied in plains.items() if relied is not None)
        runs, returns = self._callee_verdict(callee, known)
        inner = union((runs, returns)) if result else runs
        if inner is None:
            return None
        relied = {name} | {n for n in inner if n not in plains}
        return union([frozenset(relied), *(plains[n] for n in inner if n in plains)])

    def _transparent_callee(self, name: str) -> types.FunctionType | None:
        """The function of this module the global `name` holds, if a call of it may be seen
        through (not one being judged already), or None."""
        found, value = self.static_value(ir.Name(name))
        state = static_attribute(value, "_symcompile")
        callee = static_attribute(state, "original", value)
        namespace = self.function.namespace
        if not found or not isinstance(callee, types.FunctionType) or namespace is None \
                or callee.__globals__ is not namespace.globals or callee.__code__.co_freevars \
                or callee.__code__ in self.visiting:
            return None
        return callee

    def _parameter_verdicts(self, callee: types.FunctionType, args: list[ir.Expr],
                            keywords: tuple[ir.Keyword, ...]) -> dict[str, Relied | None] | None:
        """For each parameter of `callee`, what makes the value the call binds to it plain
        (None where it may not be); None if the call does not plainly fit the signature."""
        code = callee.__code__
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount:
            return None
        parameters = code.co_varnames[:code.co_argcount]
        bound: dict[str, ir.Expr] = dict(zip(parameters, args))
        bound.update((kw.name, kw.value) for kw in keywords if kw.name is not None)
        defaults = dict(zip(parameters[len(parameters) - len(callee.__defaults__ or ()):],
                            callee.__defaults__ or ()))
        if len(args) > len(parameters) or set(bound) - set(parameters) \
                or set(parameters) - set(bound) - set(defaults):
            return None
        return {parameter: self.plain(bound[parameter]) if parameter in bound
                else NOTHING if plain_value(defaults[parameter]) else None
                for parameter in parameters}

    def _callee_verdict(self, callee: types.FunctionType, plain_parameters: frozenset[str],
                        ) -> CalleeVerdict:
        """What the callee's body running no unseen code rests on (its parameters known plain
        are `plain_parameters`), and what every value it returns being plain rests on."""
        code = callee.__code__
        key = (code, plain_parameters, self.visiting)
        if key not in self._callees:
            self._callees[key] = (None, None)
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
            self._callees[key] = (inner.body(callee_ir.body),
                                  inner.plain_all(returns) if returns else None)
        return self._callees[key]

    # -------------------------------------------------------------- expressions

    def structural(self, expr: ir.Expr) -> Relied | None:
        """What makes iterating over `expr` or taking its length run no unseen code: a plain
        value, a display, a list or dict the function built, or an iterator made of those."""
        match expr:
            case ir.Name(name) if name in self.containers:
                return NOTHING
            case ir.Const(value) if type(value) in (list, tuple, str, bytes, range, dict):
                return NOTHING
            case ir.Build("tuple" | "list", _):
                return self.evaluation(expr)
            case ir.Call(ir.Name(name), _, _) if name in STRUCTURAL_BUILTINS | {"range"} \
                    and self.library_callee(expr.func):
                return self.call(expr)
        return self.plain(expr)

    def evaluation(self, expr: ir.Expr) -> Relied | None:
        """What makes evaluating `expr` run no unseen code, or None if it may run some.
        (Remembered as `plain` is: each pass asks of every statement more than once.)"""
        key = (id(expr), id(self.env), _EVALUATION)
        if (known := self._plain_memo.get(key)) is not None:
            return known[1]
        relied = union((self.operation(expr),
                        *(self.evaluation(child) for child in expr_children(expr))))
        self._plain_memo[key] = (expr, relied)
        return relied

    def operation(self, expr: ir.Expr) -> Relied | None:
        """What makes the operation of `expr` itself (its parts evaluated) run no unseen code.
        (Remembered as `plain` is.)"""
        key = (id(expr), id(self.env), _OPERATION)
        if (known := self._plain_memo.get(key)) is not None:
            return known[1]
        relied = self._operation(expr)
        self._plain_memo[key] = (expr, relied)
        return relied

    def _operation(self, expr: ir.Expr) -> Relied | None:
        match expr:
            case ir.OpaqueExpr():
                return None
            case ir.Op(_, operands):
                return self.plain_all(operands)
            case ir.Compare(ops, operands):
                return NOTHING if all(op in ("is", "isnot") for op in ops) else \
                    self.plain_all(operands)
            case ir.BoolOp(_, values):  # each value but the last is tested for truth
                return self.plain_all(values[:-1])
            case ir.IfExp(test, _, _):
                return self.plain(test)
            case ir.Subscript(value, index):
                container = NOTHING if isinstance(value, ir.Name) and value.id in self.containers \
                    else self.plain(value)
                return union((container, self.plain(index)))
            case ir.Attribute(value, attr):
                return self._attribute_read(value, attr)
            case ir.Call():
                return self.call(expr)
            case ir.Build("set", items):
                return self.plain_all(items)
            case ir.DictDisplay(keys, _):
                known = [key for key in keys if key is not None]
                return self.plain_all(known) if len(known) == len(keys) else None
        return NOTHING  # names, constants, tuple and list displays, slices, starred items

    def _attribute_read(self, value: ir.Expr, attr: str) -> Relied | None:
        """What makes reading `value.attr` run no unseen code: a module's own attribute, an
        attribute of a plain value, a method of a list or dict the function built, or a
        compiled object's plain instance attribute (see `objects`)."""
        found, owner = self.static_value(value)
        if found and isinstance(owner, types.ModuleType):
            return NOTHING if attr in vars(owner) else None  # else a module `__getattr__`
        if isinstance(value, ir.Name) and value.id in self.containers:
            return NOTHING
        if self.object_attribute(value, attr) is not None:
            return NOTHING
        return self.plain(value)

    def reads(self, stmt: ir.Stmt) -> tuple[frozenset[str], Relied]:
        """The names the statement's own expressions read only after something that may run
        unseen code (a global read there may have been rebound), and what the work before
        the first such thing rests on. (Remembered per statement and types known, until the
        function learns statements: the walk of clean statements and the pass it runs both
        ask.)"""
        key = (id(stmt), id(self.env))
        known = self._reads.get(key)
        if known is None or known[0] is not stmt:
            late, relied = late_reads(stmt, self.operation)
            known = self._reads[key] = (
                stmt, (frozenset(name for name in late if not self.unchanging(name)), relied))
        return known[1]

    # --------------------------------------------------------------- statements

    def header(self, stmt: ir.Stmt) -> Relied | None:
        """What makes evaluating the statement's own expressions run no unseen code (before it
        stores, tests or iterates anything), or None."""
        if isinstance(stmt, ir.Opaque):
            return None
        parts: list[Relied | None] = []
        for expr in statement_expressions(stmt, targets=False):
            parts.append(self.evaluation(expr))
        for target in stored_targets(stmt):
            parts += [self.evaluation(child) for child in target_parts(target)]
        return union(parts)

    def own(self, stmt: ir.Stmt) -> Relied | None:
        """What makes running `stmt` (nested bodies aside) run no unseen code, or None."""
        match stmt:
            case ir.Assign(targets, value):
                action = union(self._store(target, value) for target in targets)
            case ir.AugAssign(ir.Name() as target, op, value):
                action = self.plain(ir.Op(op, (target, value)))
            case ir.AugAssign(ir.Subscript(owner, index), _, value):
                action = self.plain_all((owner, index, value))
            case ir.If(test) | ir.While(test):
                action = self.plain(test)
            case ir.For(target, iterable):
                action = self.structural(iterable) if isinstance(target, ir.Name) else \
                    union((self.structural(iterable), self.pairs_plain(iterable)))
            case ir.Return() | ir.ExprStmt() | ir.Break() | ir.Continue():
                action = NOTHING
            case _:  # a raise, an opaque statement, a store into an attribute in place
                return None
        return union((action, self.header(stmt)))

    def _store(self, target: ir.Expr, value: ir.Expr) -> Relied | None:
        """What makes storing `value` into `target` run no unseen code: a local; an item of
        a list or dict the function built, or of a plain array given a plain value; a tuple
        of those unpacking a display or a plain value. Any other attribute or item may be a
        module's or a globals dict's (rebinding a global) or run a `__setitem__`."""
        match target:
            case ir.Name():
                return NOTHING
            case ir.Subscript(ir.Name(name), index) if name in self.containers:
                return self.plain(index)
            case ir.Subscript(owner, index):
                return self.plain_all((owner, index, value))
            case ir.Build(_, items):
                unpacking = NOTHING if isinstance(value, ir.Build) else self.structural(value)
                return union((unpacking, *(self._store(item, ir.Const(None)) for item in items)))
            case ir.Starred(inner):
                return self._store(inner, value)
        return None

    def statement(self, stmt: ir.Stmt) -> Relied | None:
        """What makes running `stmt`, nested bodies included, run no unseen code, or None.
        (Remembered as `plain` is: a walk asks again of each statement nested in one.)"""
        key = (id(stmt), id(self.env), _STATEMENT)
        if (known := self._plain_memo.get(key)) is not None:
            return known[1]
        outer = self.env
        self.at(stmt)
        try:
            relied = union((self.own(stmt), *(self.body(body) for body in nested_bodies(stmt))))
        finally:
            self.env = outer
        self._plain_memo[key] = (stmt, relied)
        return relied

    def body(self, body: tuple[ir.Stmt, ...]) -> Relied | None:
        """What makes running every statement of `body` run no unseen code, or None."""
        return union(self.statement(stmt) for stmt in body)

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
        assigned only there, see `learn_locals`). What running them without unseen code rests
        on, or None."""
        self.learn_locals(statements)
        self._reads.clear()
        return self.body(tuple(statements))
