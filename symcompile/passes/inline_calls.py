"""inline_calls: replace a call of a small user function by the function's body.

The callee's parameters become assignments of the arguments, in the order Python evaluates
them; its locals are renamed after it (`add_a`); its `return`s become assignments of a result
(or, for a single final `return`, the returned expression takes the call's place), in
structured code: a `return` inside a loop sets a flag and breaks out (see `symcompile.passes.returns`).
The callee's locals die when it returns: a local that may own a value with a finalizer
(`symcompile.analysis.finalizers`) is released (`add_t = None`) right after the body, and then the
result is assigned to a name, released after the calling statement.
A call is inlined only where nothing with an effect is evaluated before it in its statement.
Where no code the compiler cannot see has run since the function was entered (see `effects`),
the callee found at compile time is still the one the call reaches, and the callee's name
becomes an assumption the generated code checks on entry. Where such code may have run (in
the version for any types, `a + b` may run `a.__add__`, which may rebind the callee), the
inlined code sits behind a check of the callee's name at the call: `add` is read where Python
reads it, before the arguments, and a different function is called as written::

    f = (c + d) if add is add_2 else add(c, d)      # a single expression, quiet arguments
    if add is add_2:                                 # any other body; a statement that is
        add_a = c                                    # all the call (`t += add(c, d)`,
        ...                                          # `return add(c, d)`) goes whole into
        add_result = ...                             # both branches instead, so no result
    else:                                            # name outlives it
        add_result = add(c, d)

(`add_2` is the function inlined, bound into the generated function.) A result name is
released after its statement. In the body of such a check the same check is decided until
code the compiler cannot see may run (`mul(dx, mul(m, mag))` checks `mul` once), and where a
statement is clean again (a loop's float copy behind a recheck, see speculate_loop_types) the
check is dropped and the callee relied on by the check on entry.

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

from .. import ir
from ..analysis import attributes, objects
from ..analysis.attributes import static_attribute
from ..analysis.effects import TRUSTED_MODULES, Effects, rewrite_clean_statements
from ..analysis.finalizers import callee_releases, owned, release
from ..analysis.value_types import TypeEnv, types_before
from ..errors import SymbolicError
from ..frontend import build as frontend
from ..ir.names import (
    MAX_FUNCTION_SIZE,
    all_names,
    assigned_names,
    body_size,
    bound_after,
    bound_names,
    bound_on_entry,
    evaluation_order,
    fresh_name,
    is_quiet,
    local_names,
    opaque_nodes,
    parameter_names,
    reads_in_statement,
    size,
)
from ..ir.rewrite import (
    header_expression,
    map_expr,
    map_statement_expressions,
    map_statements,
    rename,
    replace_first,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
    with_header,
)
from . import notes
from .returns import lower_returns

# the largest callee (in IR nodes) inlined
CALLEE_BUDGET = 80
# the statements after which a value that dies in them is released (`t = None`): the others
# return, or run a body first
_RELEASED_AFTER = (ir.Assign, ir.AugAssign, ir.ExprStmt)
# statements a check at a call may replace whole when the call is all of their header
_WHOLE = (ir.Assign, ir.AugAssign, ir.ExprStmt, ir.Return)


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
        # a number argument's type is not relied on to keep calls clean: checking it on entry
        # costs more than the checks at the calls it saves (an array's kind is checked anyway)
        self.effects = Effects(dataclasses.replace(function, argument_types={
            name: kind for name, kind in function.argument_types.items()
            if isinstance(kind, ir.ArrayKind)}))
        # the calls a check at the call falls back to (inlining them again would nest checks)
        self.fallbacks = _fallback_calls(function)

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

    def _inlinable(self, call: ir.Call, loc: ir.Loc, checked: bool) -> _Target | None:
        """What `call` reaches if it can be inlined there (`checked`: behind a check at the
        call, where only the callee's name can be checked), else None."""
        if self.namespace is None:
            return None
        bound_self: tuple[ir.Expr, ...] = ()  # a called object, its method's first argument
        facts: list[ir.Assumption] = []
        match call.func:
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
        if checked and assumptions:
            return _refused(call, "a * argument read from a global after code the compiler "
                            "cannot see", loc)
        arguments, assumptions = bound_self + arguments, facts + assumptions
        if callee.__globals__ is self.namespace.globals:
            return _Target(callee, callee_ir, value, arguments, assumptions, {})
        foreign = self._foreign_reads(callee, callee_ir, by_name=not checked)
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
        found, value = attributes.instance_attribute(owner, attr)
        if found:
            facts.append(objects.attribute_fact(owner, attr, value))
        return found, value

    def _foreign_reads(self, callee: types.FunctionType, callee_ir: ir.Function, by_name: bool,
                       ) -> tuple[dict[str, ir.Expr], list[ir.Assumption]] | None:
        """For a callee of another module, what the inlined code reads for each global name
        the callee reads: the same name where this module binds it to the same object and
        nothing the callee runs can rebind it (an assumption checked on entry, so only
        `by_name`), else the object itself. None if a name is not fixed in the callee's
        module (see `_fixed_value`)."""
        values: dict[str, object] = {}
        for name in sorted(_global_names(callee, callee_ir)):
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
        if name in self.caller_locals or self.namespace is None:
            return False, None
        return self.namespace.lookup(name)

    def _global_tuple(self, name: str) -> tuple[object, ...] | None:
        """The tuple a global name is bound to, if it is one."""
        found, value = self._global(name)
        return value if found and type(value) is tuple else None  # type: ignore[return-value]

    # ---------------------------------------------------------- statements

    def statement(self, stmt: ir.Stmt, dirty: bool) -> ir.Stmt | tuple[ir.Stmt, ...]:
        if not dirty:
            resolved = self._resolved(stmt)
            if resolved is not stmt:
                return resolved
        if isinstance(stmt, ir.If) and _is_check(stmt):
            stmt = with_bodies(stmt, self._within_check(stmt.test, stmt.body), stmt.orelse)
        # a statement rebuilt this round is not in the map: assume only the parameters bound
        bound = self.bound.get(id(stmt), self.parameters)
        if self.size > MAX_FUNCTION_SIZE:
            if (found := self._first_call(stmt, bound, dirty)) is not None:
                _refused(found[0], f"over the size budget ({MAX_FUNCTION_SIZE} IR nodes in all)",
                         stmt.loc)
            return stmt
        hoisted: list[ir.Stmt] = []
        trailing: list[ir.Stmt] = []  # releases of results, after the statement
        env = self.types.get(id(stmt), {})
        earlier: frozenset[str] = frozenset()  # what the code inlined so far ran clean on
        while (found := self._first_call(stmt, bound, dirty)) is not None:
            call, target, spills, checked = found
            if not checked:  # a call after inlined code relies on what kept that code clean
                self.effects.rely(earlier)
            expanded = self._expand(call, target, stmt, env, checked)
            if expanded is None:
                break
            statements, result, released = expanded
            if checked:
                # `d = add(...)`, `t += add(...)`, `return add(...)`: each branch ends with
                # the statement itself (a result name would hold the value past it)
                whole = isinstance(stmt, _WHOLE) and not spills and header_expression(stmt) is call
                statements, result = self._checked(call, target, statements, result, bound,
                                                   not released, stmt, whole, released)
                if statements and whole:
                    self._said_checked(call, stmt.loc)
                    return (*hoisted, *statements, *trailing)
                if statements and not isinstance(stmt, ir.Return):
                    if not isinstance(stmt, _RELEASED_AFTER):
                        _refused(call, "its result would outlive this statement behind a check "
                                 "at the call", stmt.loc)
                        break
                    # the result's name holds it past the statement (the call as written
                    # assigns it too), where the original's value dies: released after it
                    released = [*released, release(result.id, stmt.loc)]  # type: ignore[attr-defined]
                self._said_checked(call, stmt.loc)
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
            # the inlined code may run unseen code before a later call of the statement
            verdict = self.effects.learn(statements)
            dirty = dirty or verdict is None
            earlier |= verdict or frozenset()
            bound = bound_after(tuple(statements), bound)
            if isinstance(result, ir.Name) and result.id in self.made:
                bound |= {result.id}  # every path through the body that gets here assigned it
        return (*hoisted, stmt, *trailing) if hoisted else stmt

    def _said_checked(self, call: ir.Call, loc: ir.Loc) -> None:
        label = _callee_label(call)
        notes.changed("inline", "inline {} behind a check of {} at the call (code the compiler "
                      "cannot see may run before it)", label, label, loc=loc)

    def _resolved(self, stmt: ir.Stmt) -> ir.Stmt | tuple[ir.Stmt, ...]:
        """A clean statement with the checks at calls made where it was not clean (a copy of
        a loop's body that now starts with a recheck, see speculate_loop_types) decided: the
        callee's name still holding the function inlined is relied on by the check on entry,
        and only the inlined code is kept. A check Python makes after unseen code may run in
        the statement itself stays."""
        if isinstance(stmt, ir.If) and _fallback(stmt) is not None \
                and self._holds(stmt.test, stmt.loc):
            return stmt.body
        header = header_expression(stmt)
        if header is None:
            return stmt
        late = self._late_checks(stmt, header)

        def decide(node: ir.Expr) -> ir.Expr:
            if isinstance(node, ir.IfExp) and _falls_back(node.test, node.orelse) \
                    and node.test.operands[0].id not in late and self._holds(node.test, stmt.loc):  # type: ignore[attr-defined]
                return node.body
            return node

        new = map_expr(header, decide)
        return stmt if new is header else with_header(stmt, new)  # type: ignore[arg-type]

    def _within_check(self, check: ir.Expr, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        """The body of `if add is add_2:` with the same checks it makes before anything
        unseen may run decided: `add` still holds `add_2` there (`mul(dx, mul(m, mag))`
        inlined behind checks would check `mul` twice in a row)."""
        pending, result = list(body), []
        while pending:
            stmt = pending.pop(0)
            if isinstance(stmt, ir.If) and _is_check(stmt) and stmt.test == check:
                pending[:0] = stmt.body
                continue
            header = header_expression(stmt)
            if header is not None:
                late = self._late_checks(stmt, header)
                decided = map_expr(header, lambda node: node.body if isinstance(node, ir.IfExp)
                                   and node.test == check and _falls_back(node.test, node.orelse)
                                   and check.operands[0].id not in late else node)  # type: ignore[attr-defined]
                stmt = stmt if decided is header else with_header(stmt, decided)  # type: ignore[arg-type]
            result.append(stmt)
            if self.effects.statement(stmt) is None:
                break
        return unchanged_or_new(body, result + pending)

    def _late_checks(self, stmt: ir.Stmt, header: ir.Expr) -> frozenset[str]:
        """The names whose checks at calls in `stmt` (`c + d if add is add_2 else add(c, d)`)
        Python reads only after something in the statement may run unseen code. A check is
        walked as its test then its inlined code: the call as written runs only where the
        check fails, which a check read before any unseen code does not (its name still holds
        what the check on entry, a recheck or an enclosing check found)."""
        inlined = map_expr(header, lambda node: ir.Build("tuple", (node.test, node.body))
                           if isinstance(node, ir.IfExp) and _falls_back(node.test, node.orelse)
                           else node)
        return self.effects.reads(with_header(stmt, inlined))[0]  # type: ignore[arg-type]

    def _holds(self, check: ir.Expr, loc: ir.Loc) -> bool:
        """Whether the check `add is add_2` is true now, by the global `add` as it is (then
        relied on: checked on entry)."""
        name, inlined = check.operands[0].id, check.operands[1]  # type: ignore[attr-defined]
        if self.namespace is None or name in self.caller_locals or not isinstance(inlined, ir.Const):
            return False
        found, value = self.namespace.lookup(name)
        if not found or value is not inlined.value:
            return False
        notes.changed("inline", "inline {} without its check at the call (nothing unseen runs "
                      "before it here)", name, loc=loc)
        self.assumed.append(ir.Assumption(name, value, f"inlined {name}"))
        return True

    def _checked(self, call: ir.Call, target: _Target, statements: list[ir.Stmt],
                 result: ir.Expr, bound: frozenset[str], expression: bool, stmt: ir.Stmt,
                 whole: bool, released: list[ir.Stmt]) -> tuple[list[ir.Stmt], ir.Expr]:
        """The inlined `statements` and `result` behind a check that the callee's name still
        holds the function inlined, read where the call reads it (before the arguments);
        if not, the call runs as written. With `expression` allowed (no result to release), a
        single expression whose arguments are quiet becomes `result if add is add_2 else
        add(...)`; anything else an `if` statement. With `whole` (the call is all of `stmt`'s
        header), each branch ends with `stmt` itself (the inlined one then with the callee's
        locals `released`), and the `if` replaces it; otherwise the branches assign a result
        name of their own, which outlives the statement."""
        loc = stmt.loc
        check = ir.Compare(("is",), (call.func, ir.Const(target.value)))
        self.fallbacks.add(id(call))
        arguments = _quiet_arguments(statements, bound)
        if expression and arguments is not None and not any(
                isinstance(node, ir.Call) and isinstance(node.func, ir.Name)
                for node in walk_expr(result)):
            inlined = map_expr(result, lambda node: arguments.get(node.id, node)
                               if isinstance(node, ir.Name) else node)
            return [], ir.IfExp(check, inlined, call)
        if whole:
            inlined = (*statements, with_header(stmt, result), *released)
            return [ir.If(check, inlined, (stmt,), loc)], result
        assigned = {name for new in walk_statements(tuple(statements))
                    for name in assigned_names(new)}
        result_name = result.id if isinstance(result, ir.Name) and result.id in assigned \
            and result.id in self.made else self._fresh(f"{_callee_label(call)}_result")
        if result != ir.Name(result_name):
            statements = [*statements, ir.Assign((ir.Name(result_name),), result, loc)]
        fallback = ir.Assign((ir.Name(result_name),), call, loc)
        return [ir.If(check, tuple(statements), (fallback,), loc)], ir.Name(result_name)

    def _first_call(self, stmt: ir.Stmt, bound: frozenset[str], dirty: bool,
                    ) -> tuple[ir.Call, _Target, list[ir.Expr], bool] | None:
        """The first inlinable call in `stmt`'s header that is always evaluated, the work
        Python does before it there (to keep in temporaries: the body will run before the
        statement), and whether code the compiler cannot see may run before the call reads
        its callee (`dirty`: before the statement), so that the callee must be checked there.
        Work before it that cannot be kept aside (reading a global or an attribute: the
        callee of an enclosing call) rules a call out."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign) and
                              not is_quiet(stmt.target, bound)):  # `x += ...` reads x first
            return None
        order = list(evaluation_order(header))
        sizes = [sum(1 for _ in walk_expr(node)) for node, _ in order]
        for index, (node, always) in enumerate(order):
            if not isinstance(node, ir.Call) or id(node) in self.fallbacks:
                continue
            before: list[ir.Expr] = []  # the whole subexpressions evaluated before the call
            position = index - sizes[index]
            while position >= 0:
                before.insert(0, order[position][0])
                position -= sizes[position]
            loud = [expr for expr in before if not is_quiet(expr, bound)]
            checked = (dirty or any(self.effects.evaluation(expr) is None for expr in loud)) \
                and not (isinstance(node.func, ir.Name)
                         and self.effects.unchanging(node.func.id))
            if (target := self._inlinable(node, stmt.loc, checked)) is None:
                continue
            if checked and any(isinstance(arg, ir.Name) and arg.id in self.caller_locals
                               and arg.id not in bound
                               for arg in (*node.args, *(kw.value for kw in node.keywords))):
                # its parameter's copy could not be dropped (reading it may raise), and would
                # hold the value past the moment the original's dies
                _refused(node, "an argument may be unbound, behind a check at the call",
                         stmt.loc)
                continue
            if not always:
                _refused(node, "it may not run (behind and, or, if-else)", stmt.loc)
                continue
            if any(isinstance(expr, (ir.Name, ir.Attribute)) for expr in loud):
                _refused(node, "other work comes before it in its statement", stmt.loc)
                continue
            return node, target, list(reversed(loud)), checked
        return None

    def _fresh(self, wanted: str) -> str:
        name = fresh_name(wanted, self.taken)
        self.made.add(name)
        return name

    def _expand(self, call: ir.Call, target: _Target, stmt: ir.Stmt, env: TypeEnv,
                checked: bool) -> tuple[list[ir.Stmt], ir.Expr, list[ir.Stmt]] | None:
        """The statements that replace `call`, the expression its value is then, and the
        releases to put after `stmt` (whose types are `env`). The callee is relied on by a
        check on entry, or if `checked`, by one at the call (see `_checked`)."""
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
        code = callee.__code__
        parameters = {names[name] for name in code.co_varnames[:code.co_argcount
                                                               + code.co_kwonlyargcount]
                      if name in names}
        if checked and isinstance(result, ir.Name) and result.id in parameters:
            # `d = e` would be a copy, which may be dropped as dead while the original's
            # result lives on (see docs/semantics.md, Finalizers)
            return _refused(call, "it returns its argument, behind a check at the call", loc)
        self.size += body_size(body)
        if checked:  # (said by the caller, which may still refuse it)
            return statements + list(body), result, [release(name, loc) for name in after]
        if isinstance(call.func, ir.Name):  # (an object's callee is watched by object facts)
            self.assumed.append(ir.Assumption(prefix, target.value, f"inlined {prefix}"))
        self.assumed += target.assumptions
        notes.changed("inline", "inline {}", prefix, loc=loc)
        return statements + list(body), result, [release(name, loc) for name in after]


def _fallback_calls(function: ir.Function) -> set[int]:
    """The calls (by id) that checks at the call made earlier fall back to: `add(...)` in
    `... if add is add_2 else add(...)` and in the `else` of `if add is add_2:`."""
    found: set[int] = set()
    for stmt in walk_statements(function.body):
        if isinstance(stmt, ir.If) and (fallback := _fallback(stmt)) is not None:
            found.add(id(fallback))
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                if isinstance(node, ir.IfExp) and _falls_back(node.test, node.orelse):
                    found.add(id(node.orelse))
    return found


def fallback_size(body: tuple[ir.Stmt, ...]) -> int:
    """The IR nodes of `body` that are calls as written behind checks at calls (the `else`
    of `if add is add_2:`, the `add(c, d)` of `... if add is add_2 else add(c, d)`), which
    go wherever the code is clean again."""
    total = 0
    for stmt in walk_statements(body):
        if isinstance(stmt, ir.If) and _fallback(stmt) is not None:
            total += body_size(stmt.orelse)
        for expr in statement_expressions(stmt):
            total += sum(sum(1 for _ in walk_expr(node.orelse)) for node in walk_expr(expr)
                         if isinstance(node, ir.IfExp) and _falls_back(node.test, node.orelse))
    return total


def _fallback(stmt: ir.If) -> ir.Expr | None:
    """The call a check at a call falls back to (`if add is add_2: ... else: r = add(...)`,
    or any statement that is all that call: `else: t += add(...)`), or None."""
    if len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], _WHOLE) \
            and (call := header_expression(stmt.orelse[0])) is not None \
            and _falls_back(stmt.test, call):
        return call
    return None


def _is_check(stmt: ir.If) -> bool:
    """Whether `stmt` is a check at a call inlined from a function bound here."""
    return isinstance(stmt.test, ir.Compare) and isinstance(stmt.test.operands[-1], ir.Const) \
        and _fallback(stmt) is not None


def _falls_back(test: ir.Expr, call: ir.Expr) -> bool:
    """Whether `call` calls the name `test` checks (`add is add_2`; in generated code compiled
    again, `add_2` is a name too)."""
    return isinstance(test, ir.Compare) and test.ops == ("is",) \
        and isinstance(test.operands[0], ir.Name) \
        and isinstance(test.operands[1], (ir.Const, ir.Name)) \
        and isinstance(call, ir.Call) and call.func == test.operands[0]


def _quiet_arguments(statements: list[ir.Stmt], bound: frozenset[str]) -> dict[str, ir.Expr] | None:
    """If `statements` only bind the callee's parameters to quiet arguments (constants and
    bound locals: read anywhere, any number of times, alike), each parameter's argument."""
    arguments: dict[str, ir.Expr] = {}
    for stmt in statements:
        match stmt:
            case ir.Assign((ir.Name(name),), value) if is_quiet(value, bound):
                arguments[name] = value
            case _:
                return None
    return arguments


def _callee_label(call: ir.Call) -> str:
    """The callee's name as the caller spells it (`add`), or for an object's callee, the
    function's name (`relu`) or the object's class (`dense`); `callee` for other shapes."""
    match call.func:
        case ir.Name(name):
            return name
        case ir.Const(types.FunctionType() as function):
            return function.__name__
        case ir.Const(value):
            return type(value).__name__.lower()
        case ir.Attribute(_, attr):
            return attr
    return "callee"


def _refused(call: ir.Call, why: str, loc: ir.Loc) -> None:
    """Record why `call` is not inlined."""
    label = _callee_label(call)
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


def _without_docstring(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    return tuple(s for s in body if not (isinstance(s, ir.ExprStmt) and isinstance(s.value, ir.Const)))


def inline_calls(function: ir.Function) -> ir.Function:
    """Replace calls of small, non-recursive functions of the program by their bodies."""
    if function.namespace is None:
        return function
    inliner = _Inliner(function)
    result = rewrite_clean_statements(function, inliner.statement, inliner.assumed,
                                      inliner.effects)
    if result is function:
        return function
    # the callees' locals are locals of this function now (see ir.Function.locals), and the
    # inlined closures' variables are free variables sharing their cells
    namespace = dataclasses.replace(function.namespace, closure=function.namespace.closure
                                    | frozenset(inliner.cells))
    return dataclasses.replace(result, locals=result.locals | bound_names(result),
                               shared_cells={**result.shared_cells, **inliner.cells},
                               namespace=namespace)
