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

import dataclasses
import types

from .. import ir
from ..analysis.clean_statements import rewrite_clean_statements
from ..analysis.effects import Effects
from ..analysis.finalizers import owned, release
from ..analysis import methods
from ..analysis.value_types import TypeEnv, types_before
from ..ir.names import (
    MAX_FUNCTION_SIZE,
    WHOLE_CALL_STATEMENTS,
    all_names,
    bound_after,
    bound_names,
    bound_on_entry,
    evaluation_order,
    is_quiet,
    local_names,
    node_kinds,
    parameter_names,
)
from ..ir.rewrite import (
    expr_children,
    header_expression,
    replace_first,
    with_bodies,
    with_header,
)
from . import notes
from .inline_bodies import RELEASED_AFTER, Bodies, NewNames
from .inline_callees import Callees, Target, refused
from .inline_checks import CallChecks, MethodSite, is_check


class _Inliner:
    """Inlines the calls of one function, statement by statement: finds the first call of a
    statement that may be inlined (`Callees`), expands it (`Bodies`), puts it behind a check
    at the call where unseen code may have run (`CallChecks`), and goes on with the next."""

    def __init__(self, function: ir.Function, namespace: ir.Namespace) -> None:
        self.caller_locals = local_names(function)
        self.bound = bound_on_entry(function)
        self.types = types_before(function)
        self.parameters = frozenset(parameter_names(function))
        self.assumed: list[ir.Assumption] = []
        self.names = NewNames(all_names(function) | namespace.closure)
        # a number argument's type is not relied on to keep calls clean: checking it on entry
        # costs more than the checks at the calls it saves (an array's kind is checked anyway)
        arrays = {name: kind for name, kind in function.argument_types.items()
                  if isinstance(kind, ir.ArrayKind)}
        self.effects = Effects(function if arrays == function.argument_types
                               else dataclasses.replace(function, argument_types=arrays))
        self.callees = Callees(function, namespace, self.caller_locals)
        self.bodies = Bodies(function, namespace, self.caller_locals, self.names, self.assumed)
        self.checks = CallChecks(function, namespace, self.caller_locals, self.effects,
                                 self.names, self.assumed)

    def statement(self, stmt: ir.Stmt, dirty: bool) -> ir.Stmt | tuple[ir.Stmt, ...]:
        if not dirty:
            resolved = self.checks.resolved(stmt)
            if resolved is not stmt:
                return resolved
        if isinstance(stmt, ir.If) and is_check(stmt):
            stmt = with_bodies(stmt, self.checks.within_check(stmt.test, stmt.body), stmt.orelse)
        # a statement rebuilt this round is not in the map: assume only the parameters bound
        bound = self.bound.get(id(stmt), self.parameters)
        if self.bodies.size > MAX_FUNCTION_SIZE:
            if (found := self._first_call(stmt, bound, dirty,
                                           self.types.get(id(stmt), {}))) is not None:
                refused(found[0], f"over the size budget ({MAX_FUNCTION_SIZE} IR nodes in all)",
                        stmt.loc)
            return stmt
        hoisted: list[ir.Stmt] = []
        trailing: list[ir.Stmt] = []  # releases of results, after the statement
        env = self.types.get(id(stmt), {})
        earlier: frozenset[str] = frozenset()  # what the code inlined so far ran clean on
        while (found := self._first_call(stmt, bound, dirty, env)) is not None:
            call, target, spills, checked, site = found
            operation = call if site is None else site.operation  # (the node in the header)
            if not checked:  # a call after inlined code relies on what kept that code clean
                self.effects.rely(earlier)
            expanded = self.bodies.expand(call, target, stmt, env, checked)
            if expanded is None:
                break
            statements, result, released = expanded
            if checked:
                # `d = add(...)`, `t += add(...)`, `return add(...)`: each branch ends with
                # the statement itself (a result name would hold the value past it)
                whole = isinstance(stmt, WHOLE_CALL_STATEMENTS) and not spills \
                    and header_expression(stmt) is operation
                statements, result = self.checks.checked(call, target, statements, result, bound,
                                                         not released, stmt, whole, released,
                                                         site)
                if statements and whole:
                    self.checks.said_checked(call, stmt.loc, site)
                    return (*hoisted, *statements, *trailing)
                if statements and not isinstance(stmt, ir.Return):
                    if not isinstance(stmt, RELEASED_AFTER):
                        refused(call, "its result would outlive this statement behind a check "
                                "at the call", stmt.loc)
                        break
                    # the result's name holds it past the statement (the call as written
                    # assigns it too), where the original's value dies: released after it
                    if isinstance(result, ir.Name):
                        released = [*released, release(result.id, stmt.loc)]
                self.checks.said_checked(call, stmt.loc, site)
            trailing += released
            for spilled in spills:  # work done before the call is kept before it, in temporaries
                temporary = self.names.fresh("t")
                statements.insert(0, ir.Assign((ir.Name(temporary),), spilled, stmt.loc))
                stmt = _replaced_in_header(stmt, spilled, ir.Name(temporary))
                if owned(spilled, env) and isinstance(stmt, RELEASED_AFTER):
                    trailing.append(release(temporary, stmt.loc))  # the original's operand
            stmt = _replaced_in_header(stmt, operation, result)
            hoisted += statements
            # the inlined code may run unseen code before a later call of the statement
            verdict = self.effects.learn(statements)
            dirty = dirty or verdict is None
            earlier |= verdict or frozenset()
            bound = bound_after(tuple(statements), bound)
            if isinstance(result, ir.Name) and result.id in self.names.made:
                bound |= {result.id}  # every path through the body that gets here assigned it
        if (stored := self._stored(stmt, bound, env)) is not None:
            return (*hoisted, *stored, *trailing)
        return (*hoisted, stmt, *trailing) if hoisted else stmt

    def _stored(self, stmt: ir.Stmt, bound: frozenset[str], env: TypeEnv,
                ) -> list[ir.Stmt] | None:
        """`m[i, j] = v` (its value's calls inlined already) as the body of the `__setitem__`
        it calls, behind the check of `m`'s class and method, with the statement as written
        where the check fails; None where it is not inlined. Python evaluates `v`, then `m`
        and the index, then looks the method up: the receiver and the index must be quiet, and
        a value that is not is computed first, into a temporary (released after, if it may
        own a value with a finalizer)."""
        match stmt:
            case ir.Assign((ir.Subscript(ir.Name() as receiver, index) as stored,), value) \
                    if id(stored) not in self.checks.fallbacks:
                pass
            case _:
                return None
        site = _method_site(stored, env, stmt.loc, methods.STORE_METHOD)
        items = index.elts if isinstance(index, ir.Build) and index.kind == "tuple" else (index,)
        if site is None or not all(is_quiet(expr, bound) for expr in (receiver, *items)):
            return None
        before: list[ir.Stmt] = []
        after: list[ir.Stmt] = []
        if not is_quiet(value, bound):
            temporary = self.names.fresh("t")
            before.append(ir.Assign((ir.Name(temporary),), value, stmt.loc))
            if owned(value, env):
                after.append(release(temporary, stmt.loc))
            value = ir.Name(temporary)
            stmt = ir.Assign((stored,), value, stmt.loc)
        call = ir.Call(site.call.func, (*site.call.args, value), ())
        target = self.callees.target(call, stmt.loc, True, True)
        expanded = None if target is None else self.bodies.expand(call, target, stmt, env, True)
        if expanded is None:
            return None
        statements, _, released = expanded
        self.checks.fallbacks.add(id(stored))
        self.checks.said_checked(call, stmt.loc, site)
        self.effects.learn(statements)
        checked = ir.If(site.check, (*statements, *released), (stmt,), stmt.loc)
        return [*before, checked, *after]

    def _first_call(self, stmt: ir.Stmt, bound: frozenset[str], dirty: bool, env: TypeEnv,
                    ) -> tuple[ir.Call, Target, list[ir.Expr], bool, MethodSite | None] | None:
        """The first inlinable call in `stmt`'s header that is always evaluated, the work
        Python does before it there (to keep in temporaries: the body will run before the
        statement), and whether code the compiler cannot see may run before the call reads
        its callee (`dirty`: before the statement), so that the callee must be checked there.
        Work before it that cannot be kept aside (reading a global or an attribute: the
        callee of an enclosing call) rules a call out. An operation on an instance of a user
        class (`m[i, j]`, whose types are in `env`) counts as a call of the method it calls,
        always behind a check of the receiver's class (a `MethodSite`)."""
        header = header_expression(stmt)
        if header is None or (isinstance(stmt, ir.AugAssign) and
                              not is_quiet(stmt.target, bound)):  # `x += ...` reads x first
            return None
        order = list(evaluation_order(header))
        sizes = _subtree_sizes(order)
        for index, (node, always) in enumerate(order):
            if id(node) in self.checks.fallbacks:
                continue
            site = _method_site(node, env, stmt.loc)
            if site is not None:
                node = site.call
            elif not isinstance(node, ir.Call):
                continue
            before: list[ir.Expr] = []  # the whole subexpressions evaluated before the call
            position = index - sizes[index]
            while position >= 0:
                before.insert(0, order[position][0])
                position -= sizes[position]
            loud = [expr for expr in before if not is_quiet(expr, bound)]
            checked = site is not None or (
                dirty or any(self.effects.evaluation(expr) is None for expr in loud)) \
                and not (isinstance(node.func, ir.Name)
                         and self.effects.unchanging(node.func.id))
            if (target := self.callees.target(node, stmt.loc, checked, site is not None)) is None:
                continue
            if site is not None and isinstance(site.operation, ir.Op) \
                    and (why := _operator_refusal(site, target, bound)):
                refused(node, why, stmt.loc)
                continue
            if site is not None and isinstance(site.operation, ir.Subscript) \
                    and not _quiet_index(site.operation.index, bound, env):
                # Python evaluates the index before it looks the method up, and evaluating
                # this one may run code that changes the class: the check would come first
                refused(node, "its index may run code before the method is looked up", stmt.loc)
                continue
            if checked and any(isinstance(arg, ir.Name) and arg.id in self.caller_locals
                               and arg.id not in bound
                               for arg in (*node.args, *(kw.value for kw in node.keywords))):
                # its parameter's copy could not be dropped (reading it may raise), and would
                # hold the value past the moment the original's dies
                refused(node, "an argument may be unbound, behind a check at the call",
                        stmt.loc)
                continue
            if not always:
                refused(node, "it may not run (behind and, or, if-else)", stmt.loc)
                continue
            if any(isinstance(expr, (ir.Name, ir.Attribute)) for expr in loud):
                refused(node, "other work comes before it in its statement", stmt.loc)
                continue
            return node, target, list(reversed(loud)), checked, site
        return None


def _operator_refusal(site: MethodSite, target: Target, bound: frozenset[str]) -> str:
    """Why the operator `site` is not inlined as its method (`target`), or "": its check
    reads both operands (which must be quiet: read twice, alike), and where the method may
    return NotImplemented Python would go on to the reflected method."""
    if not all(is_quiet(operand, bound) for operand in site.call.args):
        return "an operand is not a local or a constant"
    if methods.may_return_not_implemented(target.callee, target.callee_ir.body):
        return "it may return NotImplemented"
    if ir.Call in node_kinds(target.callee_ir):
        # the call saved is about what the check costs where the body makes another (a
        # constructor's, `Vec2(...)`: measured 0.9-1.0x on CPython 3.11 and 3.13)
        return "its body calls a function: saving one call does not pay for the check"
    return ""


def _quiet_index(index: ir.Expr, bound: frozenset[str], env: TypeEnv) -> bool:
    """Whether evaluating the index of `m[index]` runs no code and raises nothing: locals and
    constants, tuples of them, and `+ - *` of ints and floats the version knows."""
    match index:
        case ir.Build("tuple", parts):
            return all(_quiet_index(part, bound, env) for part in parts)
        case ir.Op("add" | "sub" | "mul", (left, right)):
            return all(_quiet_index(operand, bound, env) and _plain_number(operand, env)
                       for operand in (left, right))
    return is_quiet(index, bound)


def _plain_number(expr: ir.Expr, env: TypeEnv) -> bool:
    if isinstance(expr, ir.Const):
        return type(expr.value) in (int, float)
    known = env.get(expr.id) if isinstance(expr, ir.Name) else None
    return known is not None and known.type in (int, float)


def _operator_site(node: ir.Op, env: TypeEnv, loc: ir.Loc) -> MethodSite | None:
    """`a + b` as a site of `type(a).__add__`, where the version is compiled for an `a` of
    exactly a user class whose `__add__` is a plain function (else None, with a note saying
    why, for a class that is not a number type). The check also tests that `type(b)` is not a
    subclass whose reflected method Python would call first (see `methods.operand_check`)."""
    pair = ir.ops.binary_methods(node.op)
    if pair is None or not isinstance(node.args[0], ir.Name):
        return None
    found = _receiver_method(node.args[0], pair[0], node, env, loc)
    if found is None:
        return None
    cls, function = found
    other = node.args[1]
    known = env.get(other.id) if isinstance(other, ir.Name) else None
    extra = methods.operand_check(other, cls, known.type if known is not None else None)
    check = methods.method_check(node.args[0], cls, pair[0], function,
                                 *(() if extra is None else (extra,)))
    call = ir.Call(ir.Const(function), node.args, ())
    return MethodSite(node, node.args[0], function.__qualname__, check, call)


def _method_site(node: ir.Expr, env: TypeEnv, loc: ir.Loc,
                 method: str = methods.SUBSCRIPT_METHOD) -> MethodSite | None:
    """`m[i, j]` as a site of the method it calls (`method`: `__getitem__`, or `__setitem__`
    where it is stored to), where the version is compiled for an `m` of exactly a user class
    whose method is a plain function (else None, with a note saying why, for a class that is
    not a number type)."""
    if isinstance(node, ir.Op):
        return _operator_site(node, env, loc) if method == methods.SUBSCRIPT_METHOD else None
    if not (isinstance(node, ir.Subscript) and isinstance(node.value, ir.Name)):
        return None
    found = _receiver_method(node.value, method, node, env, loc)
    if found is None:
        return None
    cls, function = found
    check = methods.method_check(node.value, cls, method, function)
    call = ir.Call(ir.Const(function), (node.value, node.index), ())
    return MethodSite(node, node.value, function.__qualname__, check, call)


def _receiver_method(receiver: ir.Name, method: str, node: ir.Expr, env: TypeEnv, loc: ir.Loc,
                     ) -> tuple[type, types.FunctionType] | None:
    """The user class the version is compiled for `receiver` to be exactly, and the plain
    function its `method` is; else None (with a note saying why, for a class that is not a
    number type)."""
    known = env.get(receiver.id)
    cls = known.type if known is not None else None
    if not isinstance(cls, type) or known is None or known.is_number:
        return None
    function, why = methods.resolved_method(cls, method)
    if function is None:
        notes.missed("inline", "not inlined {}: {}", node, why, loc=loc)
        return None
    return cls, function


def _subtree_sizes(order: list[tuple[ir.Expr, bool]]) -> list[int]:
    """For each node of an `evaluation_order` (post-order: a node's subtree is the run of
    entries ending at it), the number of nodes in its subtree, counted in one pass."""
    size: dict[int, int] = {}
    for node, _ in order:
        size[id(node)] = 1 + sum(size[id(child)] for child in expr_children(node))
    return [size[id(node)] for node, _ in order]


def _replaced_in_header(stmt: ir.Stmt, old: ir.Expr, new: ir.Expr) -> ir.Stmt:
    """`stmt` with the very node `old` of its header expression replaced by `new`."""
    header = header_expression(stmt)
    return stmt if header is None else with_header(stmt, replace_first(header, old, new))


def inline_calls(function: ir.Function) -> ir.Function:
    """Replace calls of small, non-recursive functions of the program by their bodies."""
    namespace = function.namespace
    kinds = node_kinds(function)
    if namespace is None or not kinds & {ir.Call, ir.Subscript} and not (
            ir.Op in kinds and any(methods.receiver_class_kind(kind)
                                   for kind in function.argument_types.values())):
        return function
    inliner = _Inliner(function, namespace)
    result = rewrite_clean_statements(function, inliner.statement, inliner.assumed,
                                      inliner.effects)
    if result is function:
        return function
    # the callees' locals are locals of this function now (see ir.Function.locals), and the
    # inlined closures' variables are free variables sharing their cells
    cells = inliner.bodies.cells
    return dataclasses.replace(result, locals=result.locals | bound_names(result),
                               shared_cells={**result.shared_cells, **cells},
                               namespace=dataclasses.replace(
                                   namespace, closure=namespace.closure | frozenset(cells)))
