"""split_local_dicts: a dict the function makes with constant keys, and uses only through
those keys until it returns it, keeps its items in locals.

`grades = {"A": 0, "B": 0}` followed by `grades["A"] += 1` in a loop hashes the key, looks it
up, and stores the sum back on every turn: three dict operations around one addition. Written
with a local per key (`grades_A += 1`), the same values go through the same operators in the
same order, and the dict is made, with the same items in the same order, only where the
function hands it out: at `return grades`. A pass of the rounds, before propagate, so that the
passes after it see plain locals (constants to carry, ints to type).

It applies to a local `d` when:

* `d = {k1: v1, ...}` is a statement of the function's own top level, the only one binding `d`,
  and no statement before it mentions `d`; the keys are distinct constants, each a `str` or an
  `int` (hashing and comparing them runs no code; a bool or float key could equal an int one);
* every later mention of `d` is `d[k]` with `k` one of those keys, read, assigned, augmented or
  unpacked into (no `del`, no method, no `in`, no key it lacks: those stay as written), or `d`
  alone in a `return`: the only mention of `d` there, or an element of the returned tuple
  after which no element mentions `d` (`return d["sum"] / d["n"], d`). The dict is rebuilt
  there, from the locals, with the keys in the display's order (storing into an existing key
  keeps its place);
* no opaque code mentions `d` and the function does not look at its own locals.

The dict cannot escape before the `return`, so no other code can see or change it: a read
gives the value the last store put there, as the local does. An exception leaves it behind
unseen (a frame's locals are not promised; docs/semantics.md), and the values it held die
with the frame, in the order of the locals' slots (docs/semantics.md, "Finalizers").

Example::

    def tally(scores):
        counts = {"pass": 0, "fail": 0}
        for s in scores:
            if s >= 50:
                counts["pass"] += 1
            else:
                counts["fail"] += 1
        return counts
    # --- after split_local_dicts ---
    def tally(scores):
        counts_pass = 0
        counts_fail = 0
        for s in scores:
            if s >= 50:
                counts_pass += 1
            else:
                counts_fail += 1
        return {'pass': counts_pass, 'fail': counts_fail}
"""

from __future__ import annotations

import re

from .. import ir
from ..ir.names import (all_names, fresh_name, introspects, node_kinds, opaque_names,
                        parameter_names, untracked_names)
from ..ir.rewrite import (map_expr, map_statement_expressions, map_statements,
                          statement_expressions, walk_expr, walk_statements)
from . import notes

#: the key types whose hashing and comparing runs no code and never makes two distinct
#: constants of them equal
KEY_TYPES: tuple[type, ...] = (str, int)


def split_local_dicts(function: ir.Function) -> ir.Function:
    """Keep the items of each qualifying local dict in locals of their own."""
    if ir.DictDisplay not in node_kinds(function) or introspects(function):
        return function
    excluded = set(parameter_names(function)) | untracked_names(function)
    index = 0
    while index < len(function.body):
        found = _split(function, index, excluded)
        if found is not None:
            function = found
        index += 1
    return function


def _made_dict(stmt: ir.Stmt) -> tuple[str, ir.DictDisplay] | None:
    """`d = {k: v, ...}` with distinct constant keys of KEY_TYPES: d and the display."""
    match stmt:
        case ir.Assign((ir.Name(name),), ir.DictDisplay(keys, _) as display) if keys:
            values = [key.value for key in keys if isinstance(key, ir.Const)
                      and type(key.value) in KEY_TYPES]
            if len(values) == len(keys) and len(set(values)) == len(values):
                return name, display
    return None


def _split(function: ir.Function, index: int, excluded: set[str]) -> ir.Function | None:
    stmt = function.body[index]
    made = _made_dict(stmt)
    if made is None or made[0] in excluded:
        return None
    name, display = made
    keys = [key.value for key in display.keys if isinstance(key, ir.Const)]
    before, after = function.body[:index], function.body[index + 1:]
    if any(_mentions(inner, name) for inner in walk_statements(before)):
        return None
    blocked = next((inner for inner in walk_statements(after)
                    if not _uses_fit(inner, name, keys)), None)
    if blocked is not None:
        notes.missed("split dict", "not split {}: used other than by its constant keys",
                     name, loc=blocked.loc)
        return None
    taken = all_names(function)
    items = {key: ir.Name(fresh_name(_local_for(name, key), taken)) for key in keys}
    first = tuple(ir.Assign((items[key],), value, stmt.loc)
                  for key, value in zip(keys, display.values))
    rebuilt = ir.DictDisplay(tuple(ir.Const(key) for key in keys), tuple(items.values()))
    rest = map_statements(after, lambda inner: _rewrite(inner, name, items, rebuilt))
    notes.changed("split dict", "keep the items of {} in locals", name, loc=stmt.loc)
    return function.with_body(before + first + rest)


def _local_for(name: str, key: object) -> str:
    wanted = name + "_" + re.sub(r"\W", "_", str(key))
    return wanted if wanted.isidentifier() else f"{name}_item"


def _item_key(expr: ir.Expr, name: str) -> object | None:
    """The key of `expr` when it is `name[k]` with a constant key of KEY_TYPES, else None."""
    match expr:
        case ir.Subscript(ir.Name(value), ir.Const(key)) if value == name \
                and type(key) in KEY_TYPES:
            return key
    return None


def _mentions(stmt: ir.Stmt, name: str) -> bool:
    """Whether the statement itself (not its nested bodies) mentions `name` at all."""
    if isinstance(stmt, ir.Opaque):
        return name in opaque_names(stmt.node).all
    return any(node == ir.Name(name) or (isinstance(node, ir.OpaqueExpr)
                                         and name in opaque_names(node.node).all)
               for expr in statement_expressions(stmt) for node in walk_expr(expr))


def _uses_fit(stmt: ir.Stmt, name: str, keys: list[object]) -> bool:
    """Whether every mention of `name` in the statement itself is an item with one of `keys`,
    or the single mention in a `return`."""
    if isinstance(stmt, ir.Opaque):
        return name not in opaque_names(stmt.node).all
    mentions = items = 0
    for expr in statement_expressions(stmt):
        for node in walk_expr(expr):
            if isinstance(node, ir.OpaqueExpr) and name in opaque_names(node.node).all:
                return False
            if node == ir.Name(name):
                mentions += 1
            elif (key := _item_key(node, name)) is not None:
                if key not in keys:
                    return False
                items += 1
    if isinstance(stmt, ir.Return) and stmt.value is not None:
        return mentions == items or mentions == 1 or (
            mentions == items + 1 and _returned_last(stmt.value, name))
    return mentions == items


def _returned_last(value: ir.Expr, name: str) -> bool:
    """Whether `value` is a tuple display holding `name` itself as an element, with no
    mention of `name` in the elements after it: the items read before it are read while the
    dict is still the function's own, as the locals are."""
    match value:
        case ir.Build("tuple", elts):
            places = [place for place, elt in enumerate(elts) if elt == ir.Name(name)]
            return len(places) == 1 and not any(
                node == ir.Name(name) for elt in elts[places[0] + 1:] for node in walk_expr(elt))
    return False


def _rewrite(stmt: ir.Stmt, name: str, items: dict[object, ir.Name],
             rebuilt: ir.DictDisplay) -> ir.Stmt:
    if not _mentions(stmt, name):
        return stmt

    def item(expr: ir.Expr) -> ir.Expr:
        key = _item_key(expr, name)
        return items[key] if key is not None else expr

    def target(expr: ir.Expr) -> ir.Expr:
        match expr:
            case ir.Build(kind, elts):
                return ir.Build(kind, tuple(target(elt) for elt in elts))
            case ir.Starred(value):
                return ir.Starred(target(value))
        return item(expr)

    match stmt:
        case ir.Assign(targets, value, loc):
            stmt = ir.Assign(tuple(target(t) for t in targets), value, loc)
        case ir.AugAssign(old, op, value, loc):
            stmt = ir.AugAssign(target(old), op, value, loc)
        case ir.For(old, iter_, body, orelse, loc):
            stmt = ir.For(target(old), iter_, body, orelse, loc)
    stmt = map_statement_expressions(stmt, item)
    if isinstance(stmt, ir.Return) and stmt.value is not None:
        value = map_expr(stmt.value, lambda node: rebuilt if node == ir.Name(name) else node)
        stmt = ir.Return(value, stmt.loc)
    return stmt
