"""inline_checks: the checks at calls inline_calls makes where unseen code may have rebound
the callee, and their decision where it cannot have.

Where code the compiler cannot see may have run since entry, a call is inlined behind a check
of the callee's name, read where Python reads it (`c + d if add is add_2 else add(c, d)`, or
an `if add is add_2:` statement around the body; see the inline_calls text). `CallChecks`
builds them, and decides them later where they turn out to hold: in a statement that is clean
(a loop's float copy behind a recheck, see speculate_loop_types) the check goes and the
callee's name is relied on by the check on entry; in the body of a check, the same check
made again before anything unseen may run holds. The shapes of these checks are IR queries
(`ir.names.falls_back`, `check_fallback`).
"""

from __future__ import annotations

import dataclasses

from .. import ir
from ..analysis.effects import Effects
from ..ir.names import assigned_names, check_fallback, falls_back, is_quiet
from ..ir.rewrite import (
    header_expression,
    map_expr,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_header,
)
from . import notes
from .inline_bodies import NewNames
from .inline_callees import Target, callee_label


@dataclasses.dataclass(frozen=True)
class MethodSite:
    """An operation on an instance of a user class inlined as the method it calls: the
    operation as written (`m[i, j]`), its receiver (`m`), the method's name
    (`Matrix.__getitem__`), the check that it still calls it (`analysis.methods.method_check`)
    and the call it makes."""

    operation: ir.Expr
    receiver: ir.Expr
    method: str
    check: ir.Expr
    call: ir.Call  # the method's call that the operation makes: `getitem(m, (i, j))`


def _fallback_calls(function: ir.Function) -> set[int]:
    """The calls (by id) that checks at the call made earlier fall back to: `add(...)` in
    `... if add is add_2 else add(...)` and in the `else` of `if add is add_2:`."""
    found: set[int] = set()
    for stmt in walk_statements(function.body):
        if isinstance(stmt, ir.If) and (fallback := check_fallback(stmt)) is not None:
            found.add(id(fallback))
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                if isinstance(node, ir.IfExp) and falls_back(node.test, node.orelse):
                    found.add(id(node.orelse))
    return found


def is_check(stmt: ir.If) -> bool:
    """Whether `stmt` is a check at a call inlined from a function bound here."""
    return isinstance(stmt.test, ir.Compare) and isinstance(stmt.test.operands[-1], ir.Const) \
        and check_fallback(stmt) is not None


def _tested_name(test: ir.Expr) -> str | None:
    """The name a check at a call tests: `add` in `add is add_2`."""
    if isinstance(test, ir.Compare) and isinstance(test.operands[0], ir.Name):
        return test.operands[0].id
    return None


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


class CallChecks:
    """Makes and decides the checks at calls of one caller. `fallbacks` holds the calls (by
    id) checks fall back to: inlining them again would nest checks."""

    def __init__(self, function: ir.Function, namespace: ir.Namespace, caller_locals: set[str],
                 effects: Effects, names: NewNames, assumed: list[ir.Assumption]) -> None:
        self.namespace = namespace
        self.caller_locals = caller_locals
        self.effects = effects
        self.names = names
        self.assumed = assumed
        self.fallbacks = _fallback_calls(function)

    def resolved(self, stmt: ir.Stmt) -> ir.Stmt | tuple[ir.Stmt, ...]:
        """A clean statement with the checks at calls made where it was not clean (a copy of
        a loop's body that now starts with a recheck, see speculate_loop_types) decided: the
        callee's name still holding the function inlined is relied on by the check on entry,
        and only the inlined code is kept. A check Python makes after unseen code may run in
        the statement itself stays."""
        if isinstance(stmt, ir.If) and check_fallback(stmt) is not None \
                and self._holds(stmt.test, stmt.loc):
            return stmt.body
        header = header_expression(stmt)
        if header is None:
            return stmt
        late = self._late_checks(stmt, header)

        def decide(node: ir.Expr) -> ir.Expr:
            if isinstance(node, ir.IfExp) and falls_back(node.test, node.orelse) \
                    and _tested_name(node.test) not in late and self._holds(node.test, stmt.loc):
                return node.body
            return node

        new = map_expr(header, decide)
        return stmt if new is header else with_header(stmt, new)

    def within_check(self, check: ir.Expr, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        """The body of `if add is add_2:` with the same checks it makes before anything
        unseen may run decided: `add` still holds `add_2` there (`mul(dx, mul(m, mag))`
        inlined behind checks would check `mul` twice in a row)."""
        pending, result = list(body), []
        while pending:
            stmt = pending.pop(0)
            if isinstance(stmt, ir.If) and is_check(stmt) and stmt.test == check:
                pending[:0] = stmt.body
                continue
            header = header_expression(stmt)
            if header is not None:
                late = self._late_checks(stmt, header)
                decided = map_expr(header, lambda node: node.body if isinstance(node, ir.IfExp)
                                   and node.test == check and falls_back(node.test, node.orelse)
                                   and _tested_name(check) not in late else node)
                stmt = stmt if decided is header else with_header(stmt, decided)
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
                           if isinstance(node, ir.IfExp) and falls_back(node.test, node.orelse)
                           else node)
        return self.effects.reads(with_header(stmt, inlined))[0]

    def _holds(self, check: ir.Expr, loc: ir.Loc) -> bool:
        """Whether the check `add is add_2` is true now, by the global `add` as it is (then
        relied on: checked on entry)."""
        match check:
            case ir.Compare(_, (ir.Name(name), ir.Const(inlined))) \
                    if name not in self.caller_locals:
                found, value = self.namespace.lookup(name)
            case _:
                return False
        if not found or value is not inlined:
            return False
        notes.changed("inline", "inline {} without its check at the call (nothing unseen runs "
                      "before it here)", name, loc=loc)
        self.assumed.append(ir.Assumption(name, value, f"inlined {name}"))
        return True

    def checked(self, call: ir.Call, target: Target, statements: list[ir.Stmt],
                 result: ir.Expr, bound: frozenset[str], expression: bool, stmt: ir.Stmt,
                 whole: bool, released: list[ir.Stmt], site: MethodSite | None = None,
                 ) -> tuple[list[ir.Stmt], ir.Expr]:
        """The inlined `statements` and `result` behind a check that the callee's name still
        holds the function inlined, read where the call reads it (before the arguments);
        if not, the call runs as written. With `expression` allowed (no result to release), a
        single expression whose arguments are quiet becomes `result if add is add_2 else
        add(...)`; anything else an `if` statement. With `whole` (the call is all of `stmt`'s
        header), each branch ends with `stmt` itself (the inlined one then with the callee's
        locals `released`), and the `if` replaces it; otherwise the branches assign a result
        name of their own, which outlives the statement. For a method's `site`, the check is
        the site's, and the operation as written (`m[i, j]`) runs where it fails."""
        loc = stmt.loc
        check: ir.Expr = ir.Compare(("is",), (call.func, ir.Const(target.value)))
        fallback: ir.Expr = call
        if site is not None:
            check, fallback = site.check, site.operation
        self.fallbacks.add(id(fallback))
        arguments = _quiet_arguments(statements, bound)
        if expression and arguments is not None and not any(
                isinstance(node, ir.Call) and isinstance(node.func, ir.Name)
                for node in walk_expr(result)):
            inlined = map_expr(result, lambda node: arguments.get(node.id, node)
                               if isinstance(node, ir.Name) else node)
            return [], ir.IfExp(check, inlined, fallback)
        if whole:
            branch = (*statements, with_header(stmt, result), *released)
            return [ir.If(check, branch, (stmt,), loc)], result
        assigned = {name for new in walk_statements(tuple(statements))
                    for name in assigned_names(new)}
        result_name = result.id if isinstance(result, ir.Name) and result.id in assigned \
            and result.id in self.names.made else self.names.fresh(f"{callee_label(call)}_result")
        if result != ir.Name(result_name):
            statements = [*statements, ir.Assign((ir.Name(result_name),), result, loc)]
        written = ir.Assign((ir.Name(result_name),), fallback, loc)
        return [ir.If(check, tuple(statements), (written,), loc)], ir.Name(result_name)

    def said_checked(self, call: ir.Call, loc: ir.Loc, site: MethodSite | None = None) -> None:
        if site is not None:
            notes.changed("inline", "inline {} behind a check of type({}) at {} (unseen code "
                          "may change the class)",
                          site.method, site.receiver, site.operation, loc=loc)
            return
        label = callee_label(call)
        notes.changed("inline", "inline {} behind a check of {} at the call (code the compiler "
                      "cannot see may run before it)", label, label, loc=loc)
