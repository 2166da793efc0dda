"""hoist_record_items: read each key of a record once per turn of the loop that binds it.

`bodies = [{"pos": list(b["pos"]), "vel": list(b["vel"]), "m": b["m"]} for b in start]` makes
a *record list* (`analysis/records.py`): dicts nobody but the function can reach and nobody
stores into. Reading `a["pos"]` from one of them always gives the same object, runs no code
and cannot raise (every dict has every key of the display). So a loop binding `a` from the
list reads the keys the function reads through `a` once, at the top of each turn, into
locals, and the body reads the locals:

    for a in bodies:                      for a in bodies:
        a["vel"][0] += a["m"] * g             a_m = a["m"]
        a["vel"][1] += a["m"] * h    →        a_vel = a["vel"]
                                              a_vel[0] += a_m * g
                                              a_vel[1] += a_m * h

A read is replaced only inside a loop binding its name (where the locals were set by the
same turn; after the loop, or when it ran no turn, the name and the locals still agree). A
loop over `enumerate(bodies)` runs so only while `enumerate` is the builtin, tested where
the loop reads it; otherwise the loop as written runs and a flag records that `bodies` went to
unseen code, which may keep it: every outermost loop over the list then runs as written. (Such
a loop is never inside another loop over the list: see `analysis/records.py`.)

Example::

    def f(start, g):
        bodies = [{"vel": list(p), "m": m} for p, m in start]
        for a in bodies:
            a["vel"][0] += a["m"] * g
            a["vel"][1] += a["m"] * g
        return bodies
    # --- after hoist_record_items ---
    def f(start, g):
        bodies = [{'vel': list(p), 'm': m} for p, m in start]
        for a in bodies:
            a_m = a['m']
            a_vel = a['vel']
            a_vel[0] += a_m * g
            a_vel[1] += a_m * g
        return bodies
"""

from __future__ import annotations

import builtins

from .. import ir
from ..analysis.records import RecordList, is_enumerated, record_lists, record_loop
from ..ir.names import all_names, fresh_name
from ..ir.rewrite import copy_statements, map_statement_expressions, nested_bodies, with_bodies
from . import notes


class _Hoister:
    def __init__(self, record: RecordList, taken: set[str]) -> None:
        self.record = record
        self.locals = {(member, key): ir.Name(fresh_name(f"{member}_{key}" if key.isidentifier()
                                                         else f"{member}_item", taken))
                       for member, keys in record.members.items() for key in sorted(keys)}
        self.flag = ir.Name(fresh_name(f"{record.name}_private", taken)) \
            if record.enumerated else None

    def block(self, body: tuple[ir.Stmt, ...], active: frozenset[str]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for stmt in body:
            if active:
                stmt = map_statement_expressions(stmt, lambda expr: self.read(expr, active))
            if isinstance(stmt, ir.Assign) and stmt.targets == (ir.Name(self.record.name),) \
                    and self.flag is not None:
                result += [stmt, ir.Assign((self.flag,), ir.Const(True), stmt.loc)]
                continue
            member = record_loop(stmt, self.record.name) if isinstance(stmt, ir.For) else None
            if isinstance(stmt, ir.For) and member is not None:
                result.append(self.loop(stmt, member, active))
            elif bodies := nested_bodies(stmt):
                result.append(with_bodies(stmt, self.block(bodies[0], active),
                                          self.block(bodies[1], active)))
            else:
                result.append(stmt)
        return tuple(result)

    def read(self, expr: ir.Expr, active: frozenset[str]) -> ir.Expr:
        match expr:
            case ir.Subscript(ir.Name(member), ir.Const(key)) if member in active:
                return self.locals[(member, key)]  # type: ignore[index]
        return expr

    def loop(self, stmt: ir.For, member: str, active: frozenset[str]) -> ir.Stmt:
        """The loop with the member's keys read at the top of each turn; an outermost one
        behind the flag (and a test of `enumerate`) where the list may go to unseen code."""
        reads = tuple(ir.Assign((name,), ir.Subscript(ir.Name(member), ir.Const(key)), stmt.loc)
                      for (owner, key), name in self.locals.items() if owner == member)
        body = self.block(stmt.body, active | {member})
        hoisted = ir.For(stmt.target, stmt.iter, reads + body,
                         self.block(stmt.orelse, active), stmt.loc)
        notes.changed("hoist_record_items", "read {} of {} once per turn",
                      ", ".join(repr(key) for (owner, key) in self.locals if owner == member),
                      member, loc=stmt.loc)
        if self.flag is None or active:  # (inside a loop over the list the flag holds)
            return hoisted
        tests: tuple[ir.Expr, ...] = (self.flag,)
        if is_enumerated(stmt):
            tests += (ir.Compare(("is",), (ir.Name("enumerate"), ir.Const(builtins.enumerate))),)
        test = tests[0] if len(tests) == 1 else ir.BoolOp("and", tests)
        written = (ir.Assign((self.flag,), ir.Const(False), stmt.loc), *copy_statements((stmt,)))
        return ir.If(test, (hoisted,), written, stmt.loc)


def hoist_record_items(function: ir.Function) -> ir.Function:
    """Read the keys of record-list dicts once per turn of the loops binding them."""
    records = [record for record in record_lists(function) if any(record.members.values())]
    if not records:
        return function
    taken = all_names(function)
    body = function.body
    for record in records:
        hoister = _Hoister(record, taken)
        body = hoister.block(body, frozenset())
        if hoister.flag is not None:  # set first too: a test of it never finds it unbound
            body = _after_docstring(body, ir.Assign((hoister.flag,), ir.Const(True),
                                                    function.loc))
    return function.with_body(body)


def _after_docstring(body: tuple[ir.Stmt, ...], stmt: ir.Stmt) -> tuple[ir.Stmt, ...]:
    """`body` with `stmt` first, after the docstring if there is one."""
    match body:
        case (ir.ExprStmt(ir.Const(str())) as docstring, *rest):
            return (docstring, stmt, *rest)
    return (stmt, *body)

