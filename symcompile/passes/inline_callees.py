"""inline_callees: what inline_calls may inline at a call, and why not.

Support for the inline_calls pass (its text has the rules). `Callees.target` finds the
function a call reaches (a global of the caller's module, or a compiled object's constant or
attribute), builds the function's IR from its source once, and refuses it, with a note saying
why, where inlining could change what the program does: a recursive function, a generator, a
method using `super()`, `*args`, code kept opaque, a local read before it is bound, NumPy
results kept in locals, private names where Python mangles them, a global its module may
rebind, a body over the size budget. What it finds, a `Target`, is what inline_bodies
expands and what a check at the call (inline_checks) compares the callee's name with.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import types

from .. import ir
from ..analysis import attributes, objects
from ..analysis.attributes import static_attribute
from ..analysis.effects import Effects
from ..analysis.trusted import TRUSTED_MODULES
from ..errors import SymbolicError
from ..frontend import build as frontend
from ..ir.names import (
    bound_on_entry,
    local_names,
    opaque_nodes,
    parameter_names,
    reads_in_statement,
    size,
)
from ..ir.rewrite import statement_expressions, walk_expr, walk_statements
from . import notes

# the largest callee (in IR nodes) inlined
CALLEE_BUDGET = 80


def _callee_function(value: object) -> types.FunctionType | None:
    """The plain Python function behind a global's value (a `@symbolic` one's original)."""
    state = static_attribute(value, "_symcompile")
    original = static_attribute(state, "original", value)
    return original if isinstance(original, types.FunctionType) else None


@dataclasses.dataclass(frozen=True)
class Target:
    """A call the inliner can replace: the function it reaches, that function's IR, the value
    the caller's name holds, the positional arguments (any `*` spread out), and what spreading
    them and reading the callee's globals relied on."""

    callee: types.FunctionType
    callee_ir: ir.Function
    value: object
    arguments: tuple[ir.Expr, ...]
    assumptions: list[ir.Assumption]
    # for a callee of another module, what the inlined code reads for each global it reads
    reads: dict[str, ir.Expr]


class Callees:
    """The functions the calls of one caller reach: their IR (built once per code object), and
    why a callee is refused."""

    def __init__(self, function: ir.Function, namespace: ir.Namespace,
                 caller_locals: set[str]) -> None:
        self.function = function
        self.namespace = namespace
        self.caller_locals = caller_locals
        self.callee_ir: dict[types.CodeType, ir.Function | None] = {}
        self.refusals: dict[types.CodeType, str] = {}  # why a callee's IR is None
        # the class whose name Python puts in private names in the generated code, if any
        self.private_class = frontend.private_class_of(namespace.code)

    def target(self, call: ir.Call, loc: ir.Loc, checked: bool, method: bool = False,
               ) -> Target | None:
        """What `call` reaches if it can be inlined there (`checked`: behind a check at the
        call, where only the callee's name can be checked), else None (with a note saying why,
        where it reaches a function of the program). With `method`, `call` calls a method
        of a user class found for an operation (`Matrix.__getitem__(m, (i, j))` for `m[i, j]`,
        see `analysis.methods`), behind a check of the receiver's type."""
        found = self._target_or_refusal(call, checked, method)
        if isinstance(found, str):
            refused(call, found, loc)
            return None
        return found

    def _target_or_refusal(self, call: ir.Call, checked: bool, of_method: bool,
                           ) -> Target | str | None:
        """`target`'s answer, or why the function `call` reaches is not inlined."""
        bound_self: tuple[ir.Expr, ...] = ()  # a called object, its method's first argument
        facts: list[ir.Assumption] = []
        callee: types.FunctionType | None
        value: object
        match call.func:
            case ir.Const(types.FunctionType() as function) if of_method:
                callee = value = function
            case ir.Name(name) if name not in self.caller_locals:
                found, value = self.namespace.lookup(name)
                callee = _callee_function(value) if found else None
            case ir.Const() | ir.Attribute(ir.Const()) if self.function.resolve_objects \
                    and not checked:
                # read from a compiled object: `layer(x)`, `self.activation(y)` (the attribute
                # is read before anything else in the call, and only quiet work precedes it)
                found, value = self._object_callee(call.func, facts)
                callee = _callee_function(value) if isinstance(value, types.FunctionType) else None
                method = objects.call_method(value) if found else None
                if callee is None and method is not None:
                    callee, bound_self = _callee_function(method), (ir.Const(value),)
                    facts += objects.call_facts(value, method)
            case _:
                return None
        if callee is None:
            return None
        if any(kw.name is None for kw in call.keywords):
            return "a ** argument"
        spread = self._spread(call.args)
        if spread is None:
            return "a * argument whose items are not known"
        callee_ir = self._ir_of(callee)
        if callee_ir is None:
            return self.refusals[callee.__code__]
        if self._recursive(callee):
            return "recursive"
        arguments, assumptions = spread
        if checked and assumptions:
            return "a * argument read from a global after code the compiler cannot see"
        arguments, assumptions = bound_self + arguments, facts + assumptions
        if callee.__globals__ is self.namespace.globals:
            return Target(callee, callee_ir, value, arguments, assumptions, {})
        foreign = self._foreign_reads(callee, callee_ir, by_name=not checked)
        if foreign is None:
            return f"reads a global its module {callee.__module__} may rebind"
        reads, relied = foreign
        return Target(callee, callee_ir, value, arguments, assumptions + relied, reads)

    def _ir_of(self, callee: types.FunctionType) -> ir.Function | None:
        """The callee's IR if it is a function the inliner can take, else None (and the reason
        in `refusals`)."""
        code = callee.__code__
        if code not in self.callee_ir:
            self.callee_ir[code] = None
            self.refusals[code] = _flags_refusal(code)
            if self.refusals[code]:
                return None
            try:
                source = frontend.read_function_source(callee)
            except frontend.SourceChangedError:
                self.refusals[code] = "its file was changed since it was defined"
                return None
            except SymbolicError:
                self.refusals[code] = "its source cannot be read"
                return None
            if not source.checked:
                self.refusals[code] = "too deeply nested to check that its file still holds it"
                return None
            if (reader := frontend.frame_reader(source.node, callee)) is not None:
                self.refusals[code] = f"reads a frame's locals ({reader})"
                return None
            callee_ir = frontend.build_function(source)  # (private names mangled in its class)
            if self.private_class is not None and _mentions_private_names(callee_ir):
                self.refusals[code] = "uses private names (__x), which Python mangles here"
                return None
            # in a version for arrays, eliminate_temporaries frees the callee's arrays after
            # their last use, as its return would
            for_arrays = any(isinstance(kind, ir.ArrayKind)
                             for kind in self.function.argument_types.values())
            self.refusals[code] = _body_refusal(callee_ir) or \
                ("" if for_arrays else _array_refusal(callee, callee_ir))
            if not self.refusals[code]:
                self.callee_ir[code] = callee_ir
        return self.callee_ir[code]

    def _recursive(self, callee: types.FunctionType) -> bool:
        """Whether `callee` can reach itself, or the function being compiled, through calls."""
        targets = {callee.__code__, self.namespace.code}
        seen: set[types.CodeType] = set()
        pending = [callee]
        while pending:
            current = pending.pop()
            current_ir = self._ir_of(current)
            if current_ir is None:
                continue
            for stmt in walk_statements(current_ir.body):
                for node in (n for e in statement_expressions(stmt) for n in walk_expr(e)):
                    if isinstance(node, ir.Call) and isinstance(node.func, ir.Name):
                        found = _callee_function(current.__globals__.get(node.func.id))
                        if found is None:
                            continue
                        if found.__code__ in targets:
                            return True
                        if found.__code__ not in seen:
                            seen.add(found.__code__)
                            pending.append(found)
        return False

    @staticmethod
    def _object_callee(func: ir.Expr, facts: list[ir.Assumption]) -> tuple[bool, object]:
        """The object a call's callee names: a constant, or a compiled object's attribute
        (whose fact joins `facts`)."""
        match func:
            case ir.Const(value):
                return True, value
            case ir.Attribute(ir.Const(owner), attr):
                found, value = attributes.instance_attribute(owner, attr)
                if found:
                    facts.append(objects.attribute_fact(owner, attr, value))
                return found, value
        return False, None

    def _foreign_reads(self, callee: types.FunctionType, callee_ir: ir.Function, by_name: bool,
                       ) -> tuple[dict[str, ir.Expr], list[ir.Assumption]] | None:
        """For a callee of another module, what the inlined code reads for each global name
        the callee reads: the same name where this module binds it to the same object and
        nothing the callee runs can rebind it (an assumption checked on entry, so only
        `by_name`), else the object itself. None if a name is not fixed in the callee's
        module (see `_fixed_value`)."""
        values: dict[str, object] = {}
        for name in sorted(global_names(callee, callee_ir)):
            fixed, values[name] = _fixed_value(callee, name)
            if not fixed:
                return None
        transparent = by_name and bool(values) and _runs_no_unseen_code(callee, callee_ir)
        reads: dict[str, ir.Expr] = {}
        relied: list[ir.Assumption] = []
        for name, value in values.items():
            found, here = self._global(name)
            if transparent and found and here is value:
                reads[name] = ir.Name(name)
                relied.append(ir.Assumption(name, value, f"read by {callee.__qualname__}"))
            else:
                reads[name] = ir.Const(value)
        return reads, relied

    def _spread(self, args: tuple[ir.Expr, ...],
                ) -> tuple[tuple[ir.Expr, ...], list[ir.Assumption]] | None:
        """The positional arguments with each `*` argument whose items are known spread out:
        `*(a, b)` (a display, evaluated in order right there), `*(1, 2)` (a constant tuple) and
        `*PAIR` (a global bound to a tuple, an assumption); None if some count is unknown."""
        spread: list[ir.Expr] = []
        assumptions: list[ir.Assumption] = []
        for arg in args:
            match arg:
                case ir.Starred(ir.Build("tuple" | "list", elts)) if not any(
                        isinstance(elt, ir.Starred) for elt in elts):
                    spread += elts
                case ir.Starred(ir.Const(items)) if type(items) is tuple:
                    spread += [ir.Const(item) for item in items]
                case ir.Starred(ir.Name(name)) if (items := self._global_tuple(name)) is not None:
                    spread += [ir.Const(item) for item in items]
                    assumptions.append(ir.Assumption(name, items, f"*{name} spread"))
                case ir.Starred():
                    return None
                case _:
                    spread.append(arg)
        return tuple(spread), assumptions

    def _global(self, name: str) -> tuple[bool, object]:
        """(True, value) if `name` is a global or builtin of the caller, else (False, None)."""
        if name in self.caller_locals:
            return False, None
        return self.namespace.lookup(name)

    def _global_tuple(self, name: str) -> tuple[object, ...] | None:
        """The tuple a global name is bound to, if it is one."""
        found, value = self._global(name)
        return value if found and type(value) is tuple else None


def callee_label(call: ir.Call) -> str:
    """The callee's name as the caller spells it (`add`), or for an object's callee, the
    function's name (`relu`) or the object's class (`dense`); `callee` for other shapes."""
    match call.func:
        case ir.Name(name):
            return name
        case ir.Const(types.FunctionType() as function):
            return _unwrapped(function.__name__)
        case ir.Const(value):
            return type(value).__name__.lower()
        case ir.Attribute(_, attr):
            return attr
    return "callee"


def _unwrapped(name: str) -> str:
    """`getitem` for a method named `__getitem__` (a prefix of the names it makes)."""
    return name[2:-2] if len(name) > 4 and name.startswith("__") and name.endswith("__") \
        else name


def refused(call: ir.Call, why: str, loc: ir.Loc) -> None:
    """Record why `call` is not inlined."""
    label = callee_label(call)
    notes.missed("inline", "not inlined {}: {}", call.func if label == "callee" else label, why,
                 loc=loc)


def _flags_refusal(code: types.CodeType) -> str:
    """Why a function with this code is not inlined, as far as its flags tell ('' if not)."""
    if "__class__" in code.co_freevars:  # (a method's `__class__` cell belongs to `super()`)
        return "a method using super()"
    if code.co_flags & frontend.PASS_THROUGH_FLAGS:
        return "a generator or coroutine"
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return "takes *args or **kwargs"
    return ""


def _body_refusal(callee_ir: ir.Function) -> str:
    """Why a callee with this IR is not inlined ('' if it may be)."""
    opaque = next(opaque_nodes(callee_ir), None)
    if isinstance(opaque, ast.Nonlocal):
        return "a closure writing its variables"
    if opaque is not None:
        return f"holds code kept opaque ({type(opaque).__name__.lower()})"
    if size(callee_ir) > CALLEE_BUDGET:
        return f"over the size budget ({size(callee_ir)} IR nodes, at most {CALLEE_BUDGET})"
    if not _reads_only_bound_locals(callee_ir):
        return "may read a local before binding it"
    return ""


def global_names(callee: types.FunctionType, callee_ir: ir.Function) -> set[str]:
    """The globals and builtins the callee reads (not its closure's variables)."""
    return _free_names(callee_ir) - set(callee.__code__.co_freevars)


def _free_names(function: ir.Function) -> set[str]:
    """The names the function reads that are not its locals: globals and builtins."""
    return {node.id for stmt in walk_statements(function.body)
            for expr in statement_expressions(stmt) for node in walk_expr(expr)
            if isinstance(node, ir.Name)} - local_names(function)


def _fixed_value(callee: types.FunctionType, name: str) -> tuple[bool, object]:
    """(True, value) if the global `name` of the callee's module names an object taken as
    fixed there: a module, a function or class of NumPy, math or cmath, or a builtin the
    module does not shadow. Any other global (a number, a function of the program) its
    module may rebind at any time, and no guard can check another module's globals."""
    if name in callee.__globals__:
        value = callee.__globals__[name]
        if isinstance(value, types.ModuleType):
            return True, value
        module = static_attribute(value, "__module__")
        library = callable(value) and isinstance(module, str) and \
            module.split(".")[0] in TRUSTED_MODULES
        return library, value
    builtins = callee.__builtins__
    return (True, builtins[name]) if name in builtins else (False, None)


def _runs_no_unseen_code(callee: types.FunctionType, callee_ir: ir.Function) -> bool:
    """Whether running the callee cannot call code the compiler cannot see (which could
    rebind the caller's globals while the inlined body runs)."""
    effects = Effects(dataclasses.replace(callee_ir, namespace=frontend.namespace_of(callee)))
    return not any(effects.statement_may_run_user_code(stmt) for stmt in callee_ir.body)


def _array_refusal(callee: types.FunctionType, callee_ir: ir.Function) -> str:
    """Why a callee keeping NumPy results in locals is not inlined, or "". Its call costs
    little next to its array operations, but inlined, its locals (arrays as big as the inputs)
    would stay alive in the caller until the caller returns: more memory, and slower."""
    for stmt in walk_statements(callee_ir.body):
        if not isinstance(stmt, (ir.Assign, ir.AugAssign)):
            continue
        for node in walk_expr(stmt.value):
            if isinstance(node, ir.Call) and isinstance(node.func, ir.Attribute) and \
                    isinstance(node.func.value, ir.Name):
                module = callee.__globals__.get(node.func.value.id)
                if isinstance(module, types.ModuleType) and module.__name__.split(".")[0] == "numpy":
                    return "keeps NumPy results in locals (they would outlive the call)"
    return ""


def _mentions_private_names(function: ir.Function) -> bool:
    """Whether the function's code (its private names mangled already, in a method) still
    uses a name Python would mangle in a class body (`__x`, not `__x__`)."""
    names = {node.id if isinstance(node, ir.Name) else node.attr
             for stmt in walk_statements(function.body) for expr in statement_expressions(stmt)
             for node in walk_expr(expr) if isinstance(node, (ir.Name, ir.Attribute))}
    return any(map(frontend.is_private, names | set(parameter_names(function))))


def _reads_only_bound_locals(function: ir.Function) -> bool:
    """Whether every read of a local finds it bound. Inlined, the locals live on between calls
    (in a loop), so a read that would raise UnboundLocalError could see an old value."""
    locals_ = local_names(function)
    bound = bound_on_entry(function)
    return all(reads_in_statement(stmt, name) == 0 or name in bound[id(stmt)]
               for stmt in walk_statements(function.body) for name in locals_)
