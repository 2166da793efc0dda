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

from .. import ir, notes
from ..analysis import body_size, untracked_names
from ..codegen import expression_text
from ..rewrite import copy_statements, map_statements, walk_statements
from ..value_types import Known, TypeFlow, types_before
from .simplify_algebra import Simplifier

# the largest loop body (in IR nodes) given a second copy
SPECULATION_BUDGET = 300
SPECULATED_TYPE = float


def _element_test(name: str) -> ir.Expr:
    """`type(name) is float`, with `type` and `float` the builtins themselves (bound objects)."""
    check = ir.Call(ir.Const(type), (ir.Name(name),))
    return ir.Compare(("is",), (check, ir.Const(SPECULATED_TYPE)))


def _means(expr: ir.Expr, value: object, namespace: ir.Namespace | None) -> bool:
    """Whether `expr` is `value`: bound as an object, or (in code symcompile generated and is
    compiling again) a global name for it."""
    if isinstance(expr, ir.Const):
        return expr.value is value
    if isinstance(expr, ir.Name) and namespace is not None:
        found, bound = namespace.lookup(expr.id)
        return found and bound is value
    return False


def _not_worth_it(stmt: ir.For, namespace: ir.Namespace | None) -> bool:
    """A loop already split (`if type(a) is float:`), or one over `range(...)` (ints)."""
    match stmt:
        case ir.For(ir.Name(name), _, (ir.If(ir.Compare(("is",), (ir.Call(check, (ir.Name(tested),), ()), kind)),
                                             _, _),), _) if tested == name:
            return _means(check, type, namespace) and _means(kind, SPECULATED_TYPE, namespace)
        case ir.For(_, ir.Call(func)):
            return _means(func, range, namespace)
    return False


class _Speculator:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.untracked = untracked_names(function)
        self.env_before = types_before(function)

    def _pays(self, loop: ir.For, name: str) -> bool:
        """Whether simplify_algebra would rewrite the body using that `name` is a float."""
        flow = TypeFlow(self.untracked)
        head = flow.loop_head(loop, self.env_before[id(loop)])
        simplifier = Simplifier(self.function)
        with notes.recording():  # a trial: what it would simplify is not done here
            TypeFlow(self.untracked, simplifier.statement).block(
                loop.body, {**head, name: Known(SPECULATED_TYPE, frozenset({name}))})
        return name in simplifier.relied

    def visit(self, stmt: ir.Stmt) -> ir.Stmt:
        match stmt:
            case ir.For(ir.Name(name), iter_, body, orelse, loc) if (
                    id(stmt) in self.env_before and name not in self.untracked
                    and not _not_worth_it(stmt, self.function.namespace)
                    and body_size(body) <= SPECULATION_BUDGET
                    and not any(isinstance(inner, (ir.For, ir.While)) for inner in walk_statements(body))
                    and self._pays(stmt, name)):
                notes.changed(f"split the loop on {expression_text(_element_test(name))}", loc)
                return ir.For(ir.Name(name), iter_, (ir.If(_element_test(name), body,
                                                           copy_statements(body), loc),),
                              orelse, loc)
        return stmt


def speculate_loop_types(function: ir.Function) -> ir.Function:
    """Split the bodies of loops whose elements, if floats, would make them simpler."""
    speculator = _Speculator(function)
    return function.with_body(map_statements(function.body, speculator.visit))
