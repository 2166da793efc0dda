"""index_products: compute a product of ints that an inner loop reads unchanged once, before it.

A helper of hoist_object_reads, for the copy of a loop nest it makes on numbers and lists of
numbers: `a.data[i * a.cols + j]` inlined from `Matrix.__getitem__` becomes
`a_data[i * a_cols + j]`, whose `i * a_cols` is the same on every turn of the loop over `j`.
There `a_cols` is tested to be an int (it is read in a list index, which raises TypeError for
anything else, so only the loop as written meets other types) and `i` is bound by
`for i in range(...)` (ints), so the product raises nothing and runs no code: computed once
before the inner loop, into a fresh local, it gives the same int.

Only the time it takes may differ: a product of two ints takes time that grows faster than
their sizes (see hoist_loop_invariants). So a product moves only where the turn of the
enclosing loop computes it anyway: a statement after the inner loop in the same block, which
nothing between skips, evaluates it on every evaluation (the diagonal in
`x[i] = ... / a_data[i * a_cols + i]`); that statement then reads the local too. At most one
product more is computed in a whole run (where the inner loop raises) than in the original.

Example (a nest hoist_object_reads copied, `a_cols` tested an int)::

    for i in range(n):
        s = b[i]
        for j in range(n):
            if j != i:
                s -= a_data[i * a_cols + j] * x[j]
        x[i] = s / a_data[i * a_cols + i]
    # --- after ---
    for i in range(n):
        s = b[i]
        t_p = i * a_cols
        for j in range(n):
            if j != i:
                s -= a_data[t_p + j] * x[j]
        x[i] = s / a_data[t_p + i]
"""

from __future__ import annotations

from .. import ir
from ..ir.names import assigned_names, evaluation_order, fresh_name, may_leave_block
from ..ir.rewrite import (map_statement_expressions, nested_bodies, statement_expressions,
                          walk_expr, walk_statements, with_bodies)
from . import notes


def hoist(body: tuple[ir.Stmt, ...], ints: set[str], taken: set[str]) -> tuple[ir.Stmt, ...]:
    """`body` with the int products its inner loops read unchanged computed before them.
    `ints`: the names that hold ints wherever they are read in `body` (besides the targets of
    its `for ... in range(...)` loops that nothing else in it binds)."""
    counters = {name for stmt in walk_statements(body) if (name := _counter(stmt))}
    others = set().union(*(assigned_names(stmt) for stmt in walk_statements(body)
                           if not _counter(stmt)))
    return _block(body, ints | (counters - others), taken)


def _counter(stmt: ir.Stmt) -> str:
    """The name `for name in range(...)` binds; '' for any other statement."""
    match stmt:
        case ir.For(ir.Name(name), ir.Call(ir.Name("range"))):
            return name
    return ""


def _block(body: tuple[ir.Stmt, ...], ints: set[str], taken: set[str]) -> tuple[ir.Stmt, ...]:
    out: list[ir.Stmt] = []
    rest = list(body)
    while rest:
        stmt = rest.pop(0)
        bodies = nested_bodies(stmt)
        if bodies:
            stmt = with_bodies(stmt, _block(bodies[0], ints, taken), _block(bodies[1], ints, taken))
        found = _product(stmt, rest, ints) if isinstance(stmt, ir.For) else None
        if found is None:
            out.append(stmt)
            continue
        product, reader = found
        local = ir.Name(fresh_name("t_p", taken))
        taken.add(local.id)
        notes.changed("hoist object reads", "compute {} once before the loop", product,
                      loc=stmt.loc)
        out += [ir.Assign((local,), product, stmt.loc), _replaced(stmt, product, local)]
        rest[:reader + 1] = [_replaced(later, product, local) for later in rest[:reader + 1]]
    return tuple(out)


def _product(loop: ir.For, after: list[ir.Stmt], ints: set[str]) -> tuple[ir.Expr, int] | None:
    """The first product of two ints (names in `ints` the loop does not assign, int constants)
    the loop reads that a statement of `after` surely evaluates too, and that statement's
    index."""
    changed = set().union(*(assigned_names(stmt) for stmt in walk_statements((loop,))))
    for stmt in walk_statements(loop.body):
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                reader = _computed_after(node, after) if _int_product(node, ints - changed) \
                    else None
                if reader is not None:
                    return node, reader
    return None


def _int_product(node: ir.Expr, ints: set[str]) -> bool:
    return isinstance(node, ir.Op) and node.op == "mul" and len(node.args) == 2 and all(
        (isinstance(arg, ir.Name) and arg.id in ints) or
        (isinstance(arg, ir.Const) and type(arg.value) is int) for arg in node.args)


def _computed_after(product: ir.Expr, after: list[ir.Stmt]) -> int | None:
    """The index of a statement of `after`, reached whenever the ones before it run (none of
    which rebinds the product's names or leaves the block), that evaluates `product` on every
    run; None if there is none."""
    names = {node.id for node in walk_expr(product) if isinstance(node, ir.Name)}
    for index, stmt in enumerate(after):
        if isinstance(stmt, (ir.Assign, ir.AugAssign, ir.ExprStmt)) and any(
                node == product and always for expr in statement_expressions(stmt, targets=False)
                for node, always in evaluation_order(expr)):
            return index
        if set().union(*(assigned_names(inner) for inner in walk_statements((stmt,)))) & names \
                or may_leave_block(stmt) or any(isinstance(inner, (ir.Return, ir.Raise, ir.Opaque))
                                                for inner in walk_statements((stmt,))):
            return None
    return None


def _replaced(stmt: ir.Stmt, product: ir.Expr, local: ir.Name) -> ir.Stmt:
    """`stmt` (nested bodies too) reading `local` where it computes `product`."""
    def swap(node: ir.Expr) -> ir.Expr:
        return local if node == product else node

    stmt = map_statement_expressions(stmt, swap)
    bodies = nested_bodies(stmt)
    if not bodies:
        return stmt
    return with_bodies(stmt, tuple(_replaced(s, product, local) for s in bodies[0]),
                       tuple(_replaced(s, product, local) for s in bodies[1]))
