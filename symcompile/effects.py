"""Effects: which code may run that the compiler cannot see, and where it cannot have run yet.

An analysis the passes that rely on globals ask. A global's value checked on entry (a guard)
still holds at a statement only if nothing run since entry could have rebound it. For
arguments of the supported kinds, operators and subscripts never run user code; a call may.
Trusted calls are builtins such as `len` and `print`, the functions of NumPy, `math` and
`cmath`, safe methods of lists and dicts the function built itself, and *transparent*
functions of the same module: ones whose bodies make only trusted calls. The compiler's
reliance on a transparent function is an assumption like any other, so it gets a guard too.
"""

from __future__ import annotations

import builtins
import types
from typing import Callable, Sequence

from . import frontend, ir
from .analysis import assignment_counts, local_names, untracked_names
from .attributes import static_attribute
from .errors import SymbolicError
from .rewrite import (
    nested_bodies,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
)

# modules whose functions, given numbers and arrays, never call back into user code
TRUSTED_MODULES = ("numpy", "math", "cmath")
TRUSTED_BUILTINS = frozenset({
    "abs", "all", "any", "bool", "complex", "divmod", "enumerate", "float", "int", "isinstance",
    "len", "list", "max", "min", "pow", "print", "range", "reversed", "round", "sorted", "sum",
    "tuple", "zip",
})
# methods of a list or dict the function built itself that run no code of their elements'
CONTAINER_METHODS = frozenset({"append", "pop", "insert", "reverse", "copy", "clear", "get",
                               "keys", "values", "items"})


def _builds_container(value: ir.Expr) -> bool:
    match value:
        case ir.Build("list", _) | ir.DictDisplay():
            return True
        case ir.Call(ir.Name("list" | "dict"), ()):
            return True
    return False


class Effects:
    """Answers, for one function, whether code the compiler cannot see may run."""

    def __init__(self, function: ir.Function, visiting: frozenset[object] = frozenset()) -> None:
        self.function = function
        self.locals = local_names(function)
        self.visiting = visiting | {function.namespace.code if function.namespace else None}
        self.containers = self._containers()
        # transparent functions relied on (name → value), whose names must be guarded
        self.relied: dict[str, object] = {}
        self._transparent: dict[types.CodeType, dict[str, object] | None] = {}

    def _containers(self) -> set[str]:
        """Locals bound only to lists or dicts the function builds itself."""
        counts = assignment_counts(self.function)
        built: dict[str, int] = {}
        for stmt in walk_statements(self.function.body):
            if isinstance(stmt, ir.Assign) and _builds_container(stmt.value):
                for target in stmt.targets:
                    if isinstance(target, ir.Name):
                        built[target.id] = built.get(target.id, 0) + 1
        escaped = untracked_names(self.function)
        return {name for name, count in built.items() if count == counts[name] and name not in escaped}

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

    def trusted_callee(self, func: ir.Expr) -> bool:
        """Whether calling `func` (on numbers and arrays) cannot run code the compiler cannot
        see, so cannot rebind a global the compiler relied on."""
        if isinstance(func, ir.Attribute) and isinstance(func.value, ir.Name) \
                and func.value.id in self.containers:
            return func.attr in CONTAINER_METHODS
        found, value = self.static_value(func)
        if not found:
            return False
        if isinstance(func, ir.Name) and func.id in TRUSTED_BUILTINS:
            return value is getattr(builtins, func.id)
        module = static_attribute(value, "__module__") or ""
        if isinstance(module, str) and module.split(".")[0] in TRUSTED_MODULES:
            return True
        if isinstance(func, ir.Name):
            relied = self._relied_by(value)
            if relied is not None:
                self.relied.update(relied, **{func.id: value})
                return True
        return False

    def _relied_by(self, value: object) -> dict[str, object] | None:
        """For a transparent function of this module, the globals its transparency relies on;
        None if it is not transparent."""
        state = static_attribute(value, "_symcompile")
        callee = static_attribute(state, "original", value)
        namespace = self.function.namespace
        if not isinstance(callee, types.FunctionType) or namespace is None \
                or callee.__globals__ is not namespace.globals or callee.__code__.co_freevars \
                or callee.__code__ in self.visiting:
            return None
        code = callee.__code__
        if code not in self._transparent:
            self._transparent[code] = None
            try:
                source = frontend.read_function_source(callee)
            except SymbolicError:
                return None
            if not source.checked:
                return None
            callee_ir = frontend.build_function(source, frontend.namespace_of(callee))
            inner = Effects(callee_ir, self.visiting | {code})
            if not any(inner.statement_may_run_user_code(stmt) for stmt in callee_ir.body):
                self._transparent[code] = inner.relied
        return self._transparent[code]

    def may_run_user_code(self, expr: ir.Expr) -> bool:
        """Whether evaluating `expr` may call code the compiler cannot see."""
        for node in walk_expr(expr):
            if isinstance(node, ir.OpaqueExpr):
                return True
            if isinstance(node, ir.Call) and not self.trusted_callee(node.func):
                return True
        return False

    def statement_may_run_user_code(self, stmt: ir.Stmt) -> bool:
        """Whether running `stmt`, nested bodies included, may call code the compiler cannot see."""
        if isinstance(stmt, ir.Opaque):
            return True
        if any(self.may_run_user_code(expr) for expr in statement_expressions(stmt)):
            return True
        return any(self.statement_may_run_user_code(inner)
                   for body in nested_bodies(stmt) for inner in body)

    def assumptions(self) -> list[ir.Assumption]:
        return [ir.Assumption(name, value, f"{name} runs no unseen code")
                for name, value in self.relied.items()]


def rewrite_clean_statements(
    function: ir.Function,
    rewrite: Callable[[ir.Stmt, bool], ir.Stmt | tuple[ir.Stmt, ...]],
    assumed: Sequence[ir.Assumption] = (),
    effects: Effects | None = None,
) -> ir.Function:
    """`function` with every statement rewritten, the rewrite told whether the statement
    starts *clean*: no code the compiler cannot see can have run since the function was
    entered. Only there do the values of globals checked on entry still hold. `rewrite`
    returns a statement or a tuple replacing it, and collects in `assumed` what it relied on.
    If anything changed, the result relies on `assumed` and on the functions trusted to keep
    statements clean; if nothing did, it is `function` itself."""
    effects = effects or Effects(function)

    def block(body: tuple[ir.Stmt, ...], dirty: bool) -> tuple[tuple[ir.Stmt, ...], bool]:
        result: list[ir.Stmt] = []
        for stmt in body:
            bodies = nested_bodies(stmt)
            if bodies:
                inner_dirty = dirty or effects.statement_may_run_user_code(stmt)
                header_dirty = inner_dirty if isinstance(stmt, ir.While) else dirty
                if isinstance(stmt, ir.If):  # the branches run after the test
                    branch_dirty = dirty or effects.may_run_user_code(stmt.test)
                else:  # a loop body may run after anything in the loop ran
                    branch_dirty = inner_dirty
                new_body, _ = block(bodies[0], branch_dirty)
                new_orelse, _ = block(bodies[1], branch_dirty)
                stmt = with_bodies(stmt, new_body, new_orelse)
                replaced = rewrite(stmt, header_dirty)
                dirty = inner_dirty
            else:
                replaced = rewrite(stmt, dirty)
                dirty = dirty or effects.statement_may_run_user_code(stmt)
            result += replaced if isinstance(replaced, tuple) else (replaced,)
        return unchanged_or_new(body, result), dirty

    body = block(function.body, False)[0]
    if body is function.body:
        return function
    return function.with_body(body).assuming(*assumed, *effects.assumptions())
