"""inline_calls: replace a call of a small user function by the function's body.

The callee's parameters become assignments of the arguments, in the order Python evaluates
them; its locals are renamed after it (`add_a`); its `return`s become assignments of a result
(or, for a single final `return`, the returned expression takes the call's place), in
structured code: a `return` inside a loop sets a flag and breaks out (see `symcompile.returns`).
The callee's locals die when it returns: a local that may own a value with a finalizer
(`symcompile.finalizers`) is released (`add_t = None`) right after the body, and then the
result is assigned to a name, released after the calling statement.
A call is inlined only where nothing with an effect is evaluated before it in its statement,
and only where no code the compiler cannot see has run since the function was entered, so the
callee found at compile time is still the one the call would reach. The name of the callee
becomes an assumption the generated code checks on entry.

A function of another module (`from geometry import hypot`) reads its globals in its own
module. It is inlined only if each of them is fixed there: a module, a function or class of
NumPy, math or cmath, or a builtin (the module's bindings of those are taken as fixed: frozen).
The inlined code reads such a name by name where the caller's module binds it to the same
object and the callee runs no code the compiler cannot see (an assumption, checked on entry),
and otherwise reads the object itself, bound into the generated function.

Not inlined: recursive functions, generators, methods using `super()`, functions of other modules that read
any other global of theirs, functions with `*args`/`**kwargs` or with code the compiler keeps
opaque, functions written outside a class using private names (`obj.__x`) into a method (where
Python mangles them; a method's own are mangled already, as the front end spells them),
functions that may read a local before binding it (inlined, the local would
keep its value from an earlier call), calls with `**` arguments or with a `*` argument whose
items are not known (a display `*(a, b)`, a constant tuple or a global bound to a tuple is
spread out), and anything over the size budget.

Example::

    def add(a, b):
        return a + b

    def fancy_func(a, b, c, d):
        e = add(a, b)
        return e
    # --- after inline_calls ---
    def fancy_func(a, b, c, d):
        add_a = a
        add_b = b
        e = add_a + add_b
        return e
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import types

from .. import frontend, ir, notes, objects
from ..analysis import (
    all_names,
    assigned_names,
    body_size,
    bound_after,
    bound_names,
    bound_on_entry,
    fresh_name,
    evaluation_order,
    is_quiet,
    MAX_FUNCTION_SIZE,
    local_names,
    opaque_nodes,
    parameter_names,
    reads_in_statement,
    size,
)
from ..attributes import static_attribute
from ..codegen import expression_text
from ..effects import TRUSTED_MODULES, Effects, rewrite_clean_statements
from ..errors import SymbolicError
from ..finalizers import callee_releases, owned, release
from ..returns import lower_returns
from ..rewrite import (
    header_expression,
    map_statement_expressions,
    map_statements,
    rename,
    replace_first,
    statement_expressions,
    walk_expr,
    walk_statements,
    with_header,
)
from ..value_types import TypeEnv, types_before

# the largest callee (in IR nodes) inlined
CALLEE_BUDGET = 80
# the statements after which a value that dies in them is released (`t = None`): the others
# return, or run a body first
_RELEASED_AFTER = (ir.Assign, ir.AugAssign, ir.ExprStmt)


def _callee_function(value: object) -> types.FunctionType | None:
    """The plain Python function behind a global's value (a `@symbolic` one's original)."""
    state = static_attribute(value, "_symcompile")
    original = static_attribute(state, "original", value)
    return original if isinstance(original, types.FunctionType) else None


@dataclasses.dataclass(frozen=True)
class _Target:
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


class _Inliner:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.namespace = function.namespace
        self.caller_locals = local_names(function)
        self.taken = all_names(function)
        self.made: set[str] = set()  # names this pass made: callees' locals, results, flags
        self.bound = bound_on_entry(function)
        self.types = types_before(function)
        self.parameters = frozenset(parameter_names(function))
        self.size = size(function)
        self.assumed: list[ir.Assumption] = []
        self.callee_ir: dict[types.CodeType, ir.Function | None] = {}
        self.refusals: dict[types.CodeType, str] = {}  # why a callee's IR is None
        self.cells: dict[str, types.CellType] = {}  # inlined closures' cells, by their new names
        # the class whose name Python puts in private names in the generated code, if any
        code = self.namespace.code if self.namespace is not None else None
        self.private_class = frontend.private_class_of(code)
        if self.namespace is not None:
            self.taken |= self.namespace.closure

    # ------------------------------------------------------------- callees

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
        targets = {callee.__code__, self.namespace.code if self.namespace else None}
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

    def _inlinable(self, call: ir.Call, loc: ir.Loc) -> _Target | None:
        if self.namespace is None:
            return None
        bound_self: tuple[ir.Expr, ...] = ()  # a called object, its method's first argument
        facts: list[ir.Assumption] = []
        match call.func:
            case ir.Name(name) if name not in self.caller_locals:
                found, value = self.namespace.lookup(name)
                callee = _callee_function(value) if found else None
            case ir.Const() | ir.Attribute(ir.Const()) if self.function.resolve_objects:
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
            return _refused(call, "a ** argument", loc)
        spread = self._spread(call.args)
        if spread is None:
            return _refused(call, "a * argument whose items are not known", loc)
        callee_ir = self._ir_of(callee)
        if callee_ir is None:
            return _refused(call, self.refusals[callee.__code__], loc)
        if self._recursive(callee):
            return _refused(call, "recursive", loc)
        arguments, assumptions = spread
        arguments, assumptions = bound_self + arguments, facts + assumptions
        if callee.__globals__ is self.namespace.globals:
            return _Target(callee, callee_ir, value, arguments, assumptions, {})
        foreign = self._foreign_reads(callee, callee_ir)
        if foreign is None:
            return _refused(call, f"reads a global its module {callee.__module__} may rebind", loc)
        reads, relied = foreign
        return _Target(callee, callee_ir, value, arguments, assumptions + relied, reads)

    @staticmethod
    def _object_callee(func: ir.Expr, facts: list[ir.Assumption]) -> tuple[bool, object]:
        """The object a call's callee names: a constant, or a compiled object's attribute
        (whose fact joins `facts`)."""
        if isinstance(func, ir.Const):
            return True, func.value
        owner, attr = func.value.value, func.attr  # type: ignore[attr-defined]
        found, value = objects.instance_attribute(owner, attr)
        if found:
            facts.append(objects.attribute_fact(owner, attr, value))
        return found, value

    def _foreign_reads(self, callee: types.FunctionType, callee_ir: ir.Function,
                       ) -> tuple[dict[str, ir.Expr], list[ir.Assumption]] | None:
        """For a callee of another module, what the inlined code reads for each global name
        the callee reads: the same name where this module binds it to the same object and
        nothing the callee runs can rebind it (an assumption), else the object itself. None
        if a name is not fixed in the callee's module (see `_fixed_value`)."""
        values: dict[str, object] = {}
        for name in sorted(_global_names(callee, callee_ir)):
            fixed, values[name] = _fixed_value(callee, name)
            if not fixed:
                return None
        transparent = bool(values) and _runs_no_unseen_code(callee, callee_ir)
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
        if name in self.caller_locals or self.namespace is None:
            return False, None
        return self.namespace.lookup(name)

    def _global_tuple(self, name: str) -> tuple[object, ...] | None:
        """The tuple a global name is bound to, if it is one."""
        found, value = self._global(name)
        return value if found and type(value) is tuple else None  # type: ignore[return-value]

    # ---------------------------------------------------------- statements

    def statement(self, stmt: ir.Stmt, dirty: bool) -> ir.Stmt | tuple[ir.Stmt, ...]:
        # a statement rebuilt this round is not in the map: assume only the parameters bound
        bound = self.bound.get(id(stmt), self.parameters)
        if dirty or self.size > MAX_FUNCTION_SIZE:
            if (found := self._first_call(stmt, bound)) is not None:
                _refused(found[0], "calls code the compiler cannot see before it" if dirty else
                         f"over the size budget ({MAX_FUNCTION_SIZE} IR nodes in all)", stmt.loc)
            return stmt
        hoisted: list[ir.Stmt] = []
        trailing: list[ir.Stmt] = []  # releases of results, after the statement
        env = self.types.get(id(stmt), {})
        while (found := self._first_call(stmt, bound)) is not None:
            call, target, spills = found
            expanded = self._expand(call, target, stmt, env)
            if expanded is None:
                break
            statements, result, released = expanded
            trailing += released
            for spilled in spills:  # work done before the call is kept before it, in temporaries
                temporary = self._fresh("t")
                statements.insert(0, ir.Assign((ir.Name(temporary),), spilled, stmt.loc))
                stmt = with_header(stmt, replace_first(header_expression(stmt), spilled,  # type: ignore[arg-type]
                                                       ir.Name(temporary)))
                if owned(spilled, env) and isinstance(stmt, _RELEASED_AFTER):
                    trailing.append(release(temporary, stmt.loc))  # the original's operand
            stmt = with_header(stmt, replace_first(header_expression(stmt), call, result))  # type: ignore[arg-type]
            hoisted += statements
            bound = bound_after(tuple(statements), bound)
            if isinstance(result, ir.Name) and result.id in self.made:
                bound |= {result.id}  # every path through the body that gets here assigned it
        return (*hoisted, stmt, *trailing) if hoisted else stmt

    def _first_call(self, stmt: ir.Stmt,
                    bound: frozenset[str]) -> tuple[ir.Call, _Target, list[ir.Expr]] | None:
        """The first inlinable call in `stmt`'s header that is always evaluated, and the work
        Python does before it there (to keep in temporaries: the body will run before the
        statement). Work before it that cannot be kept aside (reading a global or an
        attribute: the callee of an enclosing call) rules a call out."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign) and
                              not is_quiet(stmt.target, bound)):  # `x += ...` reads x first
            return None
        order = list(evaluation_order(header))
        sizes = [sum(1 for _ in walk_expr(node)) for node, _ in order]
        for index, (node, always) in enumerate(order):
            if not isinstance(node, ir.Call) or (target := self._inlinable(node, stmt.loc)) is None:
                continue
            if not always:
                _refused(node, "it may not run (behind and, or, if-else)", stmt.loc)
                continue
            before: list[ir.Expr] = []  # the whole subexpressions evaluated before the call
            position = index - sizes[index]
            while position >= 0:
                before.insert(0, order[position][0])
                position -= sizes[position]
            loud = [expr for expr in before if not is_quiet(expr, bound)]
            if any(isinstance(expr, (ir.Name, ir.Attribute)) for expr in loud):
                _refused(node, "other work comes before it in its statement", stmt.loc)
                continue
            return node, target, list(reversed(loud))
        return None

    def _fresh(self, wanted: str) -> str:
        name = fresh_name(wanted, self.taken)
        self.made.add(name)
        return name

    def _expand(self, call: ir.Call, target: _Target, stmt: ir.Stmt, env: TypeEnv,
                ) -> tuple[list[ir.Stmt], ir.Expr, list[ir.Stmt]] | None:
        """The statements that replace `call`, the expression its value is then, and the
        releases to put after `stmt` (whose types are `env`)."""
        callee, callee_ir, loc = target.callee, target.callee_ir, stmt.loc
        try:
            binding = inspect.signature(callee).bind(*range(len(target.arguments)),
                                                     **{kw.name: kw.name for kw in call.keywords})
        except TypeError:  # the call does not fit: it raises at run time, as it should
            return _refused(call, "the arguments do not fit its parameters", loc)
        free = _global_names(callee, callee_ir)
        by_name = {name for name in free if target.reads.get(name, ir.Name(name)) == ir.Name(name)}
        closure = self.namespace.closure if self.namespace is not None else frozenset()
        if by_name & (self.caller_locals | closure):
            # the caller's own names would capture names the callee reads globally
            return _refused(call, "a variable here has the name of a global it reads", loc)
        self.taken |= by_name  # and so would the callee's renamed locals
        prefix = _callee_label(call)
        names = {local: self._fresh(f"{prefix}_{local}")
                 for local in sorted(local_names(callee_ir))}
        for variable, cell in zip(callee.__code__.co_freevars, callee.__closure__ or ()):
            names[variable] = self._fresh(f"{prefix}_{variable}")
            self.cells[names[variable]] = cell
        statements = _parameters(call, target, binding, names, loc)
        result_name = self._fresh(f"{prefix}_result")
        body = rename(_substitute(_without_docstring(callee_ir.body), target.reads), names)
        body = lower_returns(body, result_name, lambda: self._fresh(f"{prefix}_returned"))
        body = map_statements(body, lambda stmt: dataclasses.replace(stmt, loc=loc))
        *rest, last = body
        result: ir.Expr = ir.Name(result_name)
        dying, held = callee_releases(callee.__code__, names, (*statements, *body), env)
        after = [result_name] if result_name in held else []
        if isinstance(last, ir.Assign) and last.targets == (result,) and not any(
                result_name in assigned_names(stmt) for stmt in walk_statements(tuple(rest))) \
                and set(dying) <= {getattr(last.value, "id", None)}:
            body, result, after = tuple(rest), last.value, dying
        else:
            body += tuple(release(name, loc) for name in dying)
        if isinstance(stmt, ir.Return):
            after = []  # the function ends there
        elif after and not isinstance(stmt, _RELEASED_AFTER):
            return _refused(call, "its result may have a finalizer, to run after this statement", loc)
        self.size += body_size(body)
        if isinstance(call.func, ir.Name):  # (an object's callee is watched by object facts)
            self.assumed.append(ir.Assumption(prefix, target.value, f"inlined {prefix}"))
        self.assumed += target.assumptions
        notes.changed(f"inline {prefix}", loc)
        return statements + list(body), result, [release(name, loc) for name in after]


def _callee_label(call: ir.Call) -> str:
    """The callee's name as the caller spells it (`add`), or for an object's callee, the
    function's name (`relu`) or the object's class (`dense`)."""
    match call.func:
        case ir.Name(name):
            return name
        case ir.Const(types.FunctionType() as function):
            return function.__name__
        case ir.Const(value):
            return type(value).__name__.lower()
        case ir.Attribute(_, attr):
            return attr
    return expression_text(call.func)


def _refused(call: ir.Call, why: str, loc: ir.Loc) -> None:
    """Record why `call` is not inlined."""
    notes.missed(f"not inlined {_callee_label(call)}: {why}", loc)


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


def _parameters(call: ir.Call, target: _Target, binding: inspect.BoundArguments,
                names: dict[str, str], loc: ir.Loc) -> list[ir.Stmt]:
    """The assignments of the arguments to the callee's (renamed) parameters, in the order
    Python evaluates the arguments; a parameter left out takes the callee's default object."""
    arguments = {**{index: arg for index, arg in enumerate(target.arguments)},
                 **{kw.name: kw.value for kw in call.keywords}}
    parameter_of = {key: param for param, key in binding.arguments.items()}
    statements: list[ir.Stmt] = [ir.Assign((ir.Name(names[parameter_of[key]]),), argument, loc)
                                 for key, argument in arguments.items()]
    for param in inspect.signature(target.callee).parameters.values():
        if param.name not in binding.arguments:
            default = ir.Const(param.default)
            statements.append(ir.Assign((ir.Name(names[param.name]),), default, loc))
    return statements


def _global_names(callee: types.FunctionType, callee_ir: ir.Function) -> set[str]:
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


def _substitute(body: tuple[ir.Stmt, ...], reads: dict[str, ir.Expr]) -> tuple[ir.Stmt, ...]:
    """`body` reading `reads[name]` wherever it reads the global `name`."""
    def read(expr: ir.Expr) -> ir.Expr:
        return reads.get(expr.id, expr) if isinstance(expr, ir.Name) else expr

    return map_statements(body, lambda stmt: map_statement_expressions(stmt, read))


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
    def private(name: str) -> bool:
        return frontend.mangled(name, "C") != name
    names = {node.id if isinstance(node, ir.Name) else node.attr
             for stmt in walk_statements(function.body) for expr in statement_expressions(stmt)
             for node in walk_expr(expr) if isinstance(node, (ir.Name, ir.Attribute))}
    return any(map(private, names | set(parameter_names(function))))


def _reads_only_bound_locals(function: ir.Function) -> bool:
    """Whether every read of a local finds it bound. Inlined, the locals live on between calls
    (in a loop), so a read that would raise UnboundLocalError could see an old value."""
    locals_ = local_names(function)
    bound = bound_on_entry(function)
    return all(reads_in_statement(stmt, name) == 0 or name in bound[id(stmt)]
               for stmt in walk_statements(function.body) for name in locals_)


def _without_docstring(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    return tuple(s for s in body if not (isinstance(s, ir.ExprStmt) and isinstance(s.value, ir.Const)))


def inline_calls(function: ir.Function) -> ir.Function:
    """Replace calls of small, non-recursive functions of the program by their bodies."""
    if function.namespace is None:
        return function
    inliner = _Inliner(function)
    result = rewrite_clean_statements(function, inliner.statement, inliner.assumed)
    if result is function:
        return function
    # the callees' locals are locals of this function now (see ir.Function.locals), and the
    # inlined closures' variables are free variables sharing their cells
    namespace = dataclasses.replace(function.namespace, closure=function.namespace.closure
                                    | frozenset(inliner.cells))
    return dataclasses.replace(result, locals=result.locals | bound_names(result),
                               shared_cells={**result.shared_cells, **inliner.cells},
                               namespace=namespace)
