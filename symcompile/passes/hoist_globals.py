"""hoist_globals: look up functions of NumPy, math and cmath once, when compiling.

`np.sin(x)` in a loop looks up the global `np` and then its attribute `sin` on every turn.
Modules' attributes are taken as fixed (the ledger says so), so the lookup can be done once,
at compile time: the function object is bound into the generated function's own scope, where
reading it is the cheapest lookup Python has. Only modules that are imported as such and whose
attributes name functions, classes or submodules of NumPy, math and cmath are bound; other
modules (`sys.stdout` changes at run time) are left alone.

Example::

    import math
    import numpy as np

    def f(x, xs):
        total = 0.0
        for v in xs:
            total += math.sqrt(v) * np.sin(x)
        return total
    # --- after hoist_globals ---
    def f(x, xs):
        total = 0.0
        for v in xs:
            total += sqrt(v) * sin(x)
        return total
"""

from __future__ import annotations

import types

from .. import ir
from ..analysis.trusted import TRUSTED_MODULES
from ..ir.names import node_kinds, written_names
from ..ir.rewrite import map_statement_expressions, map_statements
from . import notes


def _trusted_module(value: object) -> bool:
    return isinstance(value, types.ModuleType) and value.__name__.split(".")[0] in TRUSTED_MODULES


def hoist_globals(function: ir.Function) -> ir.Function:
    """Bind attributes of NumPy, math and cmath (functions, classes) at compile time."""
    namespace = function.namespace
    if namespace is None or ir.Attribute not in node_kinds(function):
        return function
    written = written_names(function)

    def module_of(owner: ir.Expr) -> object:
        """The module `owner` names (a global bound to a module, or an already bound one)."""
        if isinstance(owner, ir.Const):
            return owner.value
        if isinstance(owner, ir.Name) and owner.id not in written:
            found, value = namespace.lookup(owner.id)
            return value if found else None
        return None

    def hoist(stmt: ir.Stmt) -> ir.Stmt:
        # the expression as written of each object bound, by the node now in its place:
        # `np.linalg.norm` binds `np.linalg` first, whose spelling `norm`'s binding takes over
        written: dict[int, ir.Expr] = {}

        def resolve(expr: ir.Expr) -> ir.Expr:
            if isinstance(expr, ir.Attribute):
                module = module_of(expr.value)
                if _trusted_module(module) and expr.attr in vars(module):
                    value = vars(module)[expr.attr]
                    if callable(value) or _trusted_module(value):
                        bound = ir.Const(value)
                        owner = written.pop(id(expr.value), expr.value)
                        written[id(bound)] = ir.Attribute(owner, expr.attr)
                        return bound
                elif isinstance(module, types.ModuleType) and not _trusted_module(module):
                    notes.missed("bind", "not bound {}: only functions of NumPy, math and cmath "
                                 "are", expr, loc=stmt.loc)
            return expr

        new = map_statement_expressions(stmt, resolve)
        for spelled in written.values():
            notes.changed("bind", "bind {} at compile time", spelled, loc=stmt.loc)
        return new

    return function.with_body(map_statements(function.body, hoist))
