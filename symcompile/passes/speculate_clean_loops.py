"""speculate_clean_loops: give a loop that checks on every turn the helper it inlined a copy
without those checks, behind one test of its locals' types and a recheck.

`total += integrand(a + k * h)` inside `for k in range(1, n):` is inlined behind a check of
`integrand` at the call (`if integrand is integrand_2: ... else: total += integrand(...)`,
see inline_calls) wherever code the compiler cannot see may run before it: in the version for
any types, `a + k * h` may run `a.__add__`, which may rebind `integrand`, and so may the loop's
earlier turns. Where the locals the loop reads are floats (ints for `range`), nothing in the
loop runs such code, so the check made once before the loop holds on every turn:

    if type(total) is float and assumptions_hold():
        for k in range(1, n):
            ...the body with the checks at calls decided: only the inlined code
    else:
        for k in range(1, n):
            ...the loop as written, checks and all

`assumptions_hold()` is a recheck (`ir.assumptions_hold`): the globals the function relies on,
now with the names of the helpers whose checks went (`integrand is integrand_2`), tested again
before the copy, where code run since entry may have rebound them. The copy is made only where
the effects analysis, given the types the test establishes, finds that the whole loop (every
turn, its header too) runs no unseen code: then no global changes during it, and every check
decided would have been true. What that verdict rests on (argument types, globals holding
plain values or transparent functions) becomes an entry check too. The locals tested are those
the loop reads that are bound before it and whose types are not known there (at most
`MAX_TESTED`), each for `float`, or `int` where it is an argument of `range`; the loop is at
most `COPY_BUDGET` IR nodes. The split pays where the loop turns more than once: a type check
per local and the recheck once, against a check per call on every turn.

In the example, `g_2` is the function `g` inlined (bound in the generated code), and `n` is
compiled for ints; the recheck is spelled out only where code may run before the loop.

Example::

    def g(t):
        return t * 0.5 + 1.0

    g_2 = g

    def f(t, n: int):
        for k in range(n):
            t = t * 0.5 + 1.0 if g is g_2 else g(t)
        return t
    # --- after speculate_clean_loops ---
    def f(t, n: int):
        if type(t) is float:
            for k in range_2(n):
                t = t * 0.5 + 1.0
        else:
            for k in range(n):
                t = t * 0.5 + 1.0 if g is g_2 else g(t)
        return t
"""

from __future__ import annotations

import types

from .. import ir
from ..analysis.effects import Effects
from ..analysis.trusted import builds_container
from ..analysis.value_types import TypeEnv, types_before
from ..ir.names import (body_size, bound_on_entry, check_fallback, falls_back, local_names, means,
                        node_kinds, parameter_names, stored_targets, target_names,
                        untracked_names)
from ..ir.rewrite import (copy_statements, header_expression, map_expr, map_statements,
                          nested_bodies, statement_expressions, unchanged_or_new, walk_expr,
                          walk_statements, with_bodies, with_header)
from . import notes

#: the most locals the test before a copy checks
MAX_TESTED = 6
#: the largest loop (in IR nodes) given a copy
COPY_BUDGET = 300


def _checked_name(test: ir.Expr) -> str | None:
    """`add` for a check at a call `add is add_2` (the function inlined bound as a constant,
    or, in generated code compiled again, a global name)."""
    match test:
        case ir.Compare(("is",), (ir.Name(name), ir.Const() | ir.Name())):
            return name
    return None


def _holds_check(body: tuple[ir.Stmt, ...]) -> bool:
    """Whether `body` holds a check at a call (`if add is add_2:` or `x if add is add_2 else
    add(...)`)."""
    for stmt in walk_statements(body):
        if isinstance(stmt, ir.If) and check_fallback(stmt) is not None \
                and _checked_name(stmt.test) is not None:
            return True
        for expr in statement_expressions(stmt):
            if any(isinstance(node, ir.IfExp) and _checked_name(node.test) is not None
                   and falls_back(node.test, node.orelse) for node in walk_expr(expr)):
                return True
    return False


class _Decider:
    """Decides the checks at calls of a body where their names still hold the functions
    inlined (the globals as they are at compile time), collecting those names."""

    def __init__(self, namespace: ir.Namespace, locals_: set[str]) -> None:
        self.namespace = namespace
        self.locals = locals_
        self.decided: dict[str, object] = {}

    def holds(self, test: ir.Expr) -> bool:
        """Whether the check `test` is true by the globals as they are (then relied on)."""
        if _checked_name(test) is None or not isinstance(test, ir.Compare):
            return False
        values = [self._value(operand) for operand in test.operands]
        if any(value is None for value in values) or values[0] is not values[1]:
            return False
        self.decided.update((operand.id, value) for operand, value in zip(test.operands, values)
                            if isinstance(operand, ir.Name))
        return True

    def _value(self, operand: ir.Expr) -> object | None:
        """The function a side of a check holds now: a constant's, or a global's."""
        if isinstance(operand, ir.Const):
            return operand.value
        if isinstance(operand, ir.Name) and operand.id not in self.locals:
            found, value = self.namespace.lookup(operand.id)
            return value if found and isinstance(value, types.FunctionType) else None
        return None

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            if isinstance(stmt, ir.If) and check_fallback(stmt) is not None \
                    and self.holds(stmt.test):
                result.extend(self.block(stmt.body))
                continue
            bodies = nested_bodies(stmt)
            if bodies:
                stmt = with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1]))
            header = header_expression(stmt)
            if header is not None:
                new = map_expr(header, self._expression)
                stmt = stmt if new is header else with_header(stmt, new)
            result.append(stmt)
        return unchanged_or_new(body, result)

    def _expression(self, node: ir.Expr) -> ir.Expr:
        if isinstance(node, ir.IfExp) and falls_back(node.test, node.orelse) \
                and self.holds(node.test):
            return node.body
        return node


def _operands(node: ir.Expr) -> tuple[ir.Expr, ...]:
    """The operands of an operator or a comparison, and the arguments of a call: where a
    float (or an int) may stand (never an item's or an attribute's owner, which a float has
    not)."""
    match node:
        case ir.Op(_, args) | ir.Call(_, args):
            return args
        case ir.Compare(_, operands):
            return operands
    return ()


def _range_arguments(loop: ir.For | ir.While, namespace: ir.Namespace) -> set[str]:
    """The names passed straight to `range(...)` in the loop (its header included)."""
    return {arg.id for stmt in walk_statements((loop,)) for expr in statement_expressions(stmt)
            for node in walk_expr(expr)
            if isinstance(node, ir.Call) and means(node.func, range, namespace)
            for arg in node.args if isinstance(arg, ir.Name)}


def _type_test(names: list[str], ints: set[str]) -> ir.Expr:
    """`type(a) is float and ... and assumptions_hold()` (`int` for the names `ints` holds),
    with `type`, `float` and `int` the builtins themselves (bound objects: the test runs no
    code of anyone's)."""
    tests = tuple(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)),
                                       ir.Const(int if name in ints else float)))
                  for name in names)
    return ir.BoolOp("and", (*tests, ir.assumptions_hold())) if tests else ir.assumptions_hold()


def _is_split(stmt: ir.Stmt) -> bool:
    """Whether `stmt` is a split this pass made (a recheck of type tests): left alone."""
    if not isinstance(stmt, ir.If) or not ir.rechecks(stmt.test):
        return False
    parts = stmt.test.values[:-1] if isinstance(stmt.test, ir.BoolOp) else ()
    return all(isinstance(part, ir.Compare) and isinstance(part.operands[0], ir.Call)
               and part.operands[0].func == ir.Const(type) for part in parts)


class _Speculator:
    def __init__(self, function: ir.Function, namespace: ir.Namespace) -> None:
        self.function = function
        self.namespace = namespace
        self.env_before = types_before(function)
        self.bound = bound_on_entry(function)
        self.locals = local_names(function)
        self.tracked = self.locals - untracked_names(function)
        # the locals that may hold what the function did not build (a parameter, an item)
        self.foreign = set(parameter_names(function)) | {
            name for stmt in walk_statements(function.body)
            if not (isinstance(stmt, ir.Assign) and builds_container(stmt.value))
            for target in stored_targets(stmt) for name in target_names(target)}
        self.assumed: list[ir.Assumption] = []

    def _tested(self, loop: ir.For | ir.While, env: TypeEnv) -> list[str] | None:
        """The locals to test before the copy, or None where there are too many."""
        target = set(target_names(loop.target)) if isinstance(loop, ir.For) else set()
        bound = self.tracked & self.bound.get(id(loop), frozenset())
        operands = {operand.id for stmt in walk_statements((loop,))
                    for expr in statement_expressions(stmt) for node in walk_expr(expr)
                    for operand in _operands(node) if isinstance(operand, ir.Name)}
        operands |= {stmt.target.id for stmt in walk_statements((loop,))  # `total += t`
                     if isinstance(stmt, ir.AugAssign) and isinstance(stmt.target, ir.Name)}
        names = sorted(name for name in operands & bound
                       if name not in target and env.get(name) is None)
        return names if len(names) <= MAX_TESTED else None

    def _hopeless(self, loop: ir.For | ir.While, env: TypeEnv) -> bool:
        """Whether the loop reads an item or an attribute of a local, or loops over one, that
        is of no known type and may be something other than a list or dict the function built:
        its code may run whatever the test (a quick answer, before the trial's analyses)."""
        owners = [node.value for stmt in walk_statements((loop,))
                  for expr in statement_expressions(stmt) for node in walk_expr(expr)
                  if isinstance(node, (ir.Subscript, ir.Attribute))]
        owners += [stmt.iter for stmt in walk_statements((loop,)) if isinstance(stmt, ir.For)]
        return any(isinstance(owner, ir.Name) and owner.id in self.foreign
                   and env.get(owner.id) is None for owner in owners)

    def _split(self, loop: ir.For | ir.While) -> ir.If | None:
        env = self.env_before.get(id(loop))
        if env is None or body_size((loop,)) > COPY_BUDGET or not _holds_check(loop.body) \
                or self._hopeless(loop, env):
            return None
        names = self._tested(loop, env)
        if names is None:
            return None
        decider = _Decider(self.namespace, self.locals)
        body = decider.block(copy_statements(loop.body))
        if not decider.decided:
            return None
        decided = self._counted(with_bodies(loop, body, copy_statements(loop.orelse)), decider)
        ints = _range_arguments(loop, self.namespace) & set(names)
        split = ir.If(_type_test(names, ints), (decided,), (loop,), loop.loc)
        trial = self.function.with_body(
            map_statements(self.function.body, lambda stmt: split if stmt is loop else stmt))
        effects = Effects(trial)
        relied = effects.statement(decided)
        if relied is None:
            notes.missed("split loop", "not split on the types of {}: the loop may still run "
                         "code the compiler cannot see", ", ".join(names) or "nothing",
                         loc=loop.loc)
            return None
        effects.rely(relied)
        self.assumed.extend(effects.assumptions())
        self.assumed.extend(ir.Assumption(name, value, f"inlined {name}")
                            for name, value in decider.decided.items())
        return split

    def _counted(self, loop: ir.Stmt, decider: _Decider) -> ir.For | ir.While:
        """`for k in range(...)` with the builtin `range` itself, bound as an object (the
        recheck just before the header tests the global, relied on as the decider's): its
        turns then count in ints `value_types` knows."""
        match loop:
            case ir.For(target, ir.Call(ir.Name(name) as func, args, keywords)) \
                    if name not in self.locals and means(func, range, self.namespace):
                decider.decided[name] = range
                return ir.For(target, ir.Call(ir.Const(range), args, keywords), loop.body,
                              loop.orelse, loop.loc)
        assert isinstance(loop, (ir.For, ir.While))
        return loop

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        return unchanged_or_new(body, [self.visit(stmt) for stmt in body])

    def visit(self, stmt: ir.Stmt) -> ir.Stmt:
        if _is_split(stmt):
            return stmt
        if isinstance(stmt, (ir.For, ir.While)) and (split := self._split(stmt)) is not None:
            notes.changed("split loop", "split the loop on {}, without the checks at its "
                          "calls", split.test, loc=stmt.loc)
            return split
        bodies = nested_bodies(stmt)
        return with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1])) if bodies else stmt


def speculate_clean_loops(function: ir.Function) -> ir.Function:
    """Give loops that check inlined helpers on every turn a copy without the checks, behind a
    test of their locals' types and a recheck."""
    namespace = function.namespace
    kinds = node_kinds(function)
    if namespace is None or not kinds & {ir.For, ir.While} or not kinds & {ir.If, ir.IfExp} \
            or not _holds_check(function.body):
        return function
    speculator = _Speculator(function, namespace)
    body = speculator.block(function.body)
    if body is function.body:
        return function
    return function.with_body(body).assuming(*speculator.assumed)
