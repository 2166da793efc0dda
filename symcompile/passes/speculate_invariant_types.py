"""speculate_invariant_types: give a loop that computes `+ - *` on values it never changes,
of types not known, a copy for floats, so that those operations are computed once before it.

`while abs(x * x - a) > tol * a:` inside `for a in values:` computes `tol * a` on every turn.
Nothing is known of `a` or `tol`, so hoist_loop_invariants must leave it there: for a user
class `*` may print, raise or give a new object each time. Where both are floats it is one
float product, the same on every turn. So the loop gets a copy behind a test of those types:

    if type(tol) is float and type(a) is float:
        ...the loop, from which hoist_loop_invariants (next) takes `tol * a` out
    else:
        ...the loop as written

`type(v) is float` runs no code of anyone's (the builtins are bound as objects), and the two
copies are the same loop, so the split itself is exact; the hoisting is hoist_loop_invariants'
rule on floats. It is made where:

* an operand of `+`, `-` or `*` in the loop (its test, its body) is a local the loop never
  assigns, certainly bound before the loop (the test reads it there), whose type is not known;
  the other operand is such a local, a known float or a float constant;
* the cost model (`analysis.cost`) expects the float operations taken out of the loop's turns
  (`NUMBER_OPERATION` each, for the turns `expected_turns` expects) to save more than the test
  costs (`TYPE_CHECK` per local and a `BRANCH`) on every run of the loop;
* the loop is at most `COPY_BUDGET` IR nodes, not the kept loop of such a test (that one is the
  fallback, left as written), and nothing opaque touches the locals.

Example::

    def roots(values, tol):
        result = []
        for a in values:
            x = 1.0
            while abs(x * x - a) > tol * a:
                x = 0.5 * (x + a / x)
            result.append(x)
        return result
    # --- after speculate_invariant_types ---
    def roots(values, tol):
        result = []
        for a in values:
            x = 1.0
            if type(tol) is float and type(a) is float:
                while abs(x * x - a) > tol * a:
                    x = 0.5 * (x + a / x)
            else:
                while abs(x * x - a) > tol * a:
                    x = 0.5 * (x + a / x)
            result.append(x)
        return result
"""

from __future__ import annotations

from .. import ir
from ..analysis import cost
from ..analysis.value_types import Known, TypeEnv, types_before
from ..ir.names import (assigned_names, body_size, bound_on_entry, local_names, means, node_kinds,
                        untracked_names)
from ..ir.rewrite import (copy_statements, nested_bodies, statement_expressions,
                          unchanged_or_new, walk_expr, walk_statements, with_bodies)
from . import notes

#: the largest loop (in IR nodes) given a copy
COPY_BUDGET = 300
#: the operators whose float results hoist_loop_invariants computes before a loop
HOISTED_OPS = frozenset({"add", "sub", "mul"})


def _float_test(names: list[str]) -> ir.Expr:
    """`type(a) is float and ...`, with `type` and `float` the builtins themselves."""
    tests = tuple(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)),
                                       ir.Const(float))) for name in names)
    return tests[0] if len(tests) == 1 else ir.BoolOp("and", tests)


def _is_float_test(test: ir.Expr, namespace: ir.Namespace | None) -> bool:
    """Whether `test` is one `_float_test` makes (then its `else` holds the kept loop)."""
    parts = test.values if isinstance(test, ir.BoolOp) and test.op == "and" else (test,)
    for part in parts:
        match part:
            case ir.Compare(("is",), (ir.Call(check, (ir.Name(),), ()), kind)) \
                    if means(check, type, namespace) and means(kind, float, namespace):
                continue
        return False
    return True


class _Speculator:
    def __init__(self, function: ir.Function) -> None:
        self.namespace = function.namespace
        self.env_before = types_before(function)
        self.bound = bound_on_entry(function)
        self.locals = local_names(function) - untracked_names(function)

    def _unknown_operands(self, loop: ir.For | ir.While, env: TypeEnv) -> tuple[list[str], int]:
        """The locals to test, and how many operations the test lets hoist_loop_invariants
        take out of the loop."""
        changed = set(assigned_names(loop))
        for inner in walk_statements(loop.body):
            changed |= assigned_names(inner)
        steady = self.locals & self.bound.get(id(loop), frozenset()) - changed
        exprs = [loop.test] if isinstance(loop, ir.While) else []
        exprs += [expr for inner in walk_statements(loop.body)
                  for expr in statement_expressions(inner)]
        names: list[str] = []
        count = 0
        for expr in exprs:
            for node in walk_expr(expr):
                tested = self._operands(node, env, steady)
                if tested:
                    count += 1
                    for name in tested:
                        if name not in names:
                            names.append(name)
        return names, count

    @staticmethod
    def _operands(node: ir.Expr, env: TypeEnv, steady: set[str]) -> list[str] | None:
        """The untyped locals of `node` when it is `+ - *` of steady locals of unknown type,
        known floats and float constants, with at least one of the first."""
        if not (isinstance(node, ir.Op) and node.op in HOISTED_OPS and len(node.args) == 2):
            return None
        unknown: list[str] = []
        for operand in node.args:
            match operand:
                case ir.Const(value) if type(value) is float:
                    continue
                case ir.Name(name) if name in steady:
                    known = env.get(name)
                    if known is None:
                        unknown.append(name)
                    elif not (isinstance(known, Known) and known.type is float):
                        return None
                case _:
                    return None
        return unknown or None

    def _split(self, loop: ir.For | ir.While) -> ir.Expr | None:
        env = self.env_before.get(id(loop))
        if env is None or body_size((loop,)) > COPY_BUDGET:
            return None
        names, count = self._unknown_operands(loop, env)
        if not names:
            return None
        saving = cost.NUMBER_OPERATION * count * cost.expected_turns(loop, env)
        check = cost.TYPE_CHECK * len(names) + cost.BRANCH
        if saving <= check:
            notes.missed("split loop", "not split on the types of {}: saves {} ns a run, its "
                         "test costs {}", ", ".join(names), int(saving), int(check),
                         loc=loop.loc)
            return None
        return _float_test(names)

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        return unchanged_or_new(body, [self.visit(stmt) for stmt in body])

    def visit(self, stmt: ir.Stmt) -> ir.Stmt:
        if isinstance(stmt, ir.If) and _is_float_test(stmt.test, self.namespace):
            return with_bodies(stmt, self.block(stmt.body), stmt.orelse)
        if isinstance(stmt, (ir.For, ir.While)):
            test = self._split(stmt)
            if test is not None:
                notes.changed("split loop", "split the loop on {}", test, loc=stmt.loc)
                return ir.If(test, (stmt,), copy_statements((stmt,)), stmt.loc)
        bodies = nested_bodies(stmt)
        return with_bodies(stmt, self.block(bodies[0]), self.block(bodies[1])) if bodies else stmt


def speculate_invariant_types(function: ir.Function) -> ir.Function:
    """Give loops computing `+ - *` on steady locals of unknown types a copy for floats."""
    if ir.For not in node_kinds(function) and ir.While not in node_kinds(function):
        return function
    return function.with_body(_Speculator(function).block(function.body))
