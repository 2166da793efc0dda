"""Clean statements: the statements no code the compiler cannot see can have run before, where
the globals checked on entry still hold their values.

The part of the effects analysis the passes rewrite with (fold_constants, inline_calls,
speculate_loop_types and unroll_loops run `rewrite_clean_statements`; codegen asks
`kept_rechecks`). A statement starts clean if every statement run before it in the function
runs no unseen code (`effects.Effects`); a branch of a recheck (`ir.assumptions_hold()`, the
entry checks run again) starts clean again. What a rewrite at a clean statement relied on
becomes an entry check, with what made the code before it clean.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .. import ir
from ..ir.names import assigned_names, node_kinds
from ..ir.rewrite import nested_bodies, unchanged_or_new, walk_statements, with_bodies
from .effects import Effects
from .trusted import NOTHING, Relied


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
    rewriter = _CleanRewriter(rewrite, assumed, effects or Effects(function))
    body = rewriter.block(function.body, False, NOTHING)[0]
    if body is function.body:
        return function
    return function.with_body(body).assuming(*assumed, *rewriter.effects.assumptions())


class _CleanRewriter:
    """The walk of `rewrite_clean_statements` (a class, not nested functions: a recursive
    closure is a reference cycle, which would keep the analyses alive until the cyclic
    collector runs)."""

    def __init__(self, rewrite: Callable[[ir.Stmt, bool], ir.Stmt | tuple[ir.Stmt, ...]],
                 assumed: list[ir.Assumption] | Sequence[ir.Assumption], effects: Effects) -> None:
        self.rewrite = rewrite
        self.assumed = assumed
        self.effects = effects

    def block(self, body: tuple[ir.Stmt, ...], dirty: bool, relied: Relied,
              ) -> tuple[tuple[ir.Stmt, ...], bool, Relied]:
        effects = self.effects
        result: list[ir.Stmt] = []
        for stmt in body:
            verdict = effects.statement(stmt)
            effects.at(stmt)
            own = effects.reads(stmt)[1]  # the work in it before the first unseen code
            bodies = nested_bodies(stmt)
            after_dirty = dirty or verdict is None
            after_relied = relied | (verdict or NOTHING)
            if bodies:
                if isinstance(stmt, ir.If):  # the branches run after the test
                    test = effects.own(stmt)
                    branch = (dirty or test is None, relied | (test or NOTHING))
                    # a recheck: the globals checked on entry are checked again (`ir.
                    # assumptions_hold`), so the branch starts as the function does
                    then = (test is None, test or NOTHING) if ir.rechecks(stmt.test) else branch
                else:  # a loop body may run after anything in the loop ran
                    branch = then = (after_dirty, after_relied)
                new_body, _, _ = self.block(bodies[0], *then)
                new_orelse, _, _ = self.block(bodies[1], *branch)
                rebuilt = with_bodies(stmt, new_body, new_orelse)
                header_dirty = after_dirty if isinstance(stmt, ir.While) else dirty
                header_relied = after_relied if isinstance(stmt, ir.While) else relied
                effects.at(stmt)
                replaced = self.rewritten(rebuilt, header_dirty, header_relied | own)
            else:
                replaced = self.rewritten(stmt, dirty, relied | own)
            dirty, relied = after_dirty, after_relied
            result += replaced if isinstance(replaced, tuple) else (replaced,)
        return unchanged_or_new(body, result), dirty, relied

    def rewritten(self, stmt: ir.Stmt, dirty: bool, relied: Relied) -> ir.Stmt | tuple[ir.Stmt, ...]:
        before = len(self.assumed)
        replaced = self.rewrite(stmt, dirty)
        if not dirty and len(self.assumed) > before:
            self.effects.rely(relied)
        return replaced


def kept_rechecks(function: ir.Function) -> dict[int, tuple[ir.Expr | None, Relied]]:
    """The loops split on a recheck (`for x in xs: if type(x) is float and assumptions_hold():
    ... else: ...`, by id) whose recheck need not run on every turn: after a turn through the
    first copy nothing unseen has run (that copy and the iteration run no unseen code), so
    the answer of the last recheck still holds, and only a turn through the other copy calls
    for a new one (see codegen). For each, what the iteration running no unseen code needs
    checked with the recheck (`type(xs) is list or type(xs) is tuple` for a local `xs` the
    loop does not rebind, or None if nothing), and the globals that copy running no unseen
    code rests on (which the recheck must cover)."""
    kept: dict[int, tuple[ir.Expr | None, Relied]] = {}
    if ir.For not in node_kinds(function):
        return kept
    effects = Effects(function)
    for stmt in walk_statements(function.body):
        match stmt:
            case ir.For(ir.Name() as target, iterable, (ir.If(test, then, _),), ()) \
                    if ir.rechecks(test) and (relied := effects.body(then)) is not None:
                effects.at(stmt)
                relied -= effects.locals
                if (iteration := effects.structural(iterable)) is not None:
                    kept[id(stmt)] = (None, relied | iteration)
                elif isinstance(iterable, ir.Name) and iterable.id in effects.locals \
                        and iterable.id not in effects.untracked and iterable != target \
                        and not any(iterable.id in assigned_names(inner)
                                    for inner in walk_statements(stmt.body)):
                    kept[id(stmt)] = (ir.BoolOp("or", tuple(
                        ir.Compare(("is",), (ir.Call(ir.Const(type), (iterable,)), ir.Const(kind)))
                        for kind in (list, tuple))), relied)
    return kept
