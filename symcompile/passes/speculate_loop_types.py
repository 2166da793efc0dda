"""speculate_loop_types: give a loop over values of unknown type a second body for floats.

Nothing is known of `a` in `for a in values:`, so `1.0 * a` must stay (for an int it makes a
float, for an array a new array). Where the body would get simpler if `a` were a float, the
loop tests each element and runs one of two copies of its body:

    for a in values:
        if type(a) is float:
            ...the body, which simplify_algebra (next) rewrites knowing `a` is a float
        else:
            ...the body as written

The test costs one type check per turn, so it is added only where a type-conditional rule of
simplify_algebra would then fire on something that depends on `a`, and the body is small and
holds no loop (an inner loop may still be unrolled, which would change the body). A loop over
`range(...)` counts in ints and is left alone.

A *recheck region*: where the body may run code the compiler cannot see (`effects`: `1.0 * a`
on an `a` of any type may run `a.__mul__`, which may rebind a global), every turn after the
first starts after such code, so nothing in the body may rely on a global (fold `COEFFS`,
inline `add` without a check at the call, unroll `for c in COEFFS`). There the test can also
check, at the top of each turn, that the globals the version relies on still hold
(`ir.assumptions_hold()`, a few `is` tests):

    for a in values:
        if type(a) is float and assumptions_hold():
            ...the body, which starts as the function's entry does: globals are relied on
        else:
            ...the body as written

The float copy then starts as the function's entry does, and runs no unseen code as long as
what it works on is plain (floats), so the passes rely on globals there. Such a split is made
where a trial finds that this pays for the recheck: the clean part of the float copy reads a
global constant (to fold, or to unroll a loop over it) or calls two of the module's functions
(inlined without checks at the calls); the body may then hold loops.

Example::

    def f(values):
        out = []
        for a in values:
            out.append(1.0 * a * a)
        return out
    # --- after speculate_loop_types ---
    def f(values):
        out = []
        for a in values:
            if type(a) is float:
                out.append(1.0 * a * a)
            else:
                out.append(1.0 * a * a)
        return out
"""

from __future__ import annotations

import types

from .. import ir
from ..analysis.clean_statements import rewrite_clean_statements
from ..analysis.effects import Effects
from ..analysis.trusted import plain_value
from ..analysis.value_types import Known, TypeFlow, types_before
from ..ir.names import body_size, local_names, means, node_kinds, untracked_names
from ..ir.rewrite import (
    copy_statements,
    map_statements,
    nested_bodies,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
)
from . import notes
from .algebra import Simplifier

# the largest loop body (in IR nodes) given a second copy
SPECULATION_BUDGET = 300
SPECULATED_TYPE = float


def _element_test(name: str, recheck: bool = False) -> ir.Expr:
    """`type(name) is float`, with `type` and `float` the builtins themselves (bound objects),
    and with `recheck`, `and assumptions_hold()`."""
    check = ir.Call(ir.Const(type), (ir.Name(name),))
    test = ir.Compare(("is",), (check, ir.Const(SPECULATED_TYPE)))
    return ir.BoolOp("and", (test, ir.assumptions_hold())) if recheck else test


def _not_worth_it(stmt: ir.For, namespace: ir.Namespace | None) -> bool:
    """A loop already split (`if type(a) is float:`), or one over `range(...)` (ints)."""
    match stmt:
        case ir.For(ir.Name(name), _, (ir.If(ir.BoolOp("and", (test, recheck)), _, _),), _) \
                if ir.is_assumptions_hold(recheck):
            return _not_worth_it(ir.For(ir.Name(name), stmt.iter, (ir.If(test, (), ()),), ()),
                                 namespace)
        case ir.For(ir.Name(name), _, (ir.If(ir.Compare(("is",), (ir.Call(check, (ir.Name(tested),), ()), kind)),
                                             _, _),), _) if tested == name:
            return means(check, type, namespace) and means(kind, SPECULATED_TYPE, namespace)
        case ir.For(_, ir.Call(func)):
            return means(func, range, namespace)
    return False


def _subscripted(body: tuple[ir.Stmt, ...], name: str) -> bool:
    """Whether `body` reads or stores an item of `name` itself (`a["pos"]`, `a[0] = x`)."""
    return any(isinstance(node, ir.Subscript) and node.value == ir.Name(name)
               for stmt in walk_statements(body) for expr in statement_expressions(stmt)
               for node in walk_expr(expr))


class _Speculator:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.untracked = untracked_names(function)
        self.env_before = types_before(function)
        self.effects = Effects(function)
        self.locals = local_names(function)

    def _pays(self, loop: ir.For, name: str) -> bool:
        """Whether simplify_algebra would rewrite the body using that `name` is a float."""
        flow = TypeFlow(self.untracked)
        head = flow.loop_head(loop, self.env_before[id(loop)])
        simplifier = Simplifier(self.function)
        with notes.recording():  # a trial: what it would simplify is not done here
            TypeFlow(self.untracked, simplifier.statement).block(
                loop.body, {**head, name: Known(SPECULATED_TYPE, frozenset({name}))})
        return name in simplifier.relied

    def _recheck_pays(self, loop: ir.For, name: str) -> bool:
        """Whether the float copy behind a recheck, starting clean, lets the passes rely on
        globals enough to pay for the recheck: where it is still clean, a global constant is
        read (to fold, or a loop over it to unroll) or two calls of this module's functions
        are (to inline without checks). Judged by a trial of the split loop."""
        split = ir.For(loop.target, loop.iter,
                       (ir.If(_element_test(name, recheck=True), loop.body, (), loop.loc),),
                       loop.orelse, loop.loc)
        trial = self.function.with_body(
            map_statements(self.function.body, lambda stmt: split if stmt is loop else stmt))
        fallbacks = {id(stmt.orelse[0]) for stmt in walk_statements(loop.body)
                     if isinstance(stmt, ir.If) and len(stmt.orelse) == 1}  # `else: r = add(...)`
        inside = {id(stmt) for stmt in walk_statements(loop.body)} - fallbacks
        read: list[object] = []

        def probe(stmt: ir.Stmt, dirty: bool) -> ir.Stmt:
            if not dirty and id(stmt) in inside:
                read.extend(self._globals_read(stmt).values())
            return stmt

        rewrite_clean_statements(trial, probe)
        calls = sum(isinstance(value, types.FunctionType) for value in read)
        return calls >= 2 or any(plain_value(value) for value in read)

    def _globals_read(self, stmt: ir.Stmt) -> dict[str, object]:
        """The module's globals the statement's own expressions read, with their values."""
        namespace = self.function.namespace
        if namespace is None:
            return {}
        return {node.id: namespace.globals[node.id] for expr in statement_expressions(stmt)
                for node in walk_expr(expr)
                if isinstance(node, ir.Name) and node.id not in self.locals
                and node.id in namespace.globals}

    def _split(self, stmt: ir.For, name: str) -> ir.Expr | None:
        """The test to split the loop `for name in ...` on, if it pays: `type(name) is float`
        where simplify_algebra would use that, `... and assumptions_hold()` where the body
        may run unseen code and relies on globals (see the module's text)."""
        namespace = self.function.namespace
        if _subscripted(stmt.body, name):  # a float has no items: its copy would raise
            return None
        dirty = not (namespace is not None and namespace.fixed) \
            and self.effects.body(stmt.body) is None
        if dirty and self._recheck_pays(stmt, name):
            return _element_test(name, recheck=True)
        if not any(isinstance(inner, (ir.For, ir.While)) for inner in walk_statements(stmt.body)) \
                and self._pays(stmt, name):
            return _element_test(name)
        return None

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        """`body` with its loops split where it pays, outer loops first: the loops inside a
        loop split on a recheck are left alone (its float copy starts clean, its other copy
        stays as written)."""
        return unchanged_or_new(body, [self.visit(stmt) for stmt in body])

    def visit(self, stmt: ir.Stmt) -> ir.Stmt:
        match stmt:
            case ir.For(ir.Name(name), iter_, body, orelse, loc) if (
                    id(stmt) in self.env_before and name not in self.untracked
                    and not _not_worth_it(stmt, self.function.namespace)
                    and body_size(body) <= SPECULATION_BUDGET
                    and (test := self._split(stmt, name)) is not None):
                notes.changed("split loop", "split the loop on {}", test, loc=loc)
                return ir.For(ir.Name(name), iter_, (ir.If(test, body, copy_statements(body), loc),),
                              orelse, loc)
            case ir.If(test, body, orelse) if ir.rechecks(test):
                return with_bodies(stmt, self.block(body), orelse)
        bodies = nested_bodies(stmt)
        return with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1])) if bodies else stmt


def speculate_loop_types(function: ir.Function) -> ir.Function:
    """Split the bodies of loops whose elements, if floats, would make them simpler."""
    if ir.For not in node_kinds(function):
        return function
    return function.with_body(_Speculator(function).block(function.body))
