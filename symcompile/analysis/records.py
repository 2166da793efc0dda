"""Record lists: a local list of dicts the function made with constant keys, which nobody but
the function can reach and nobody changes, so reading a key of one of its dicts always gives
the same object, runs no code and cannot raise.

An analysis for `hoist_record_items`. A local `R` is a record list when its one assignment
binds a list comprehension whose element is a dict display of distinct str constant keys
(`[{"pos": list(b["pos"]), "m": b["m"]} for b in start]`: a new exact dict per element, each
with every key) and the function uses `R` only to iterate over it in a `for` loop, directly
(`for a in R`), over a slice (`for b in R[i + 1:]`: a new list of the same dicts) or through
`enumerate(R)` (the builtin, tested where the loop reads it), to take its length with the
builtin `len` bound as an object (`type` too), and to return it. Its *members*, the loop targets, are bound
only by such loops and used only to read a key of the display (`a["pos"]`): never stored into,
passed, returned or read whole. No opaque code mentions `R` or a member, and the function does
not look at its locals by name. Then no code can store into `R` or its dicts: each dict holds
the values the display gave it while the function runs (the values themselves may change, a
list held in a dict may be appended to, but the dict holds the same objects).

`enumerate` rebound by the time a loop reads it would receive `R` itself, and whatever it is
could keep it and change it later: so that loop runs as written, and from then on the lists
are no longer private (`hoist_record_items` keeps a flag). Such a loop must not stand inside
another loop over `R`, whose member would then be a dict unseen code may hold.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .. import ir
from ..ir.names import introspects, opaque_names, opaque_nodes, parameter_names
from ..ir.rewrite import expr_children, statement_expressions, walk_statements


@dataclass
class RecordList:
    """A record list: its name, the keys of its dicts, and per member the keys read through it."""

    name: str
    keys: frozenset[str]
    members: dict[str, set[str]] = field(default_factory=dict)
    enumerated: bool = False  # iterated through `enumerate` somewhere (a test, a flag)


def record_keys(value: ir.Expr) -> frozenset[str] | None:
    """The keys of `[{"k": ..., ...} for ...]` (distinct str constants), else None."""
    if not isinstance(value, ir.OpaqueExpr) or not isinstance(value.node, ast.ListComp) \
            or not isinstance(value.node.elt, ast.Dict):
        return None
    keys = [key.value for key in value.node.elt.keys
            if isinstance(key, ast.Constant) and type(key.value) is str]
    if len(keys) != len(value.node.elt.keys) or len(set(keys)) != len(keys):
        return None
    return frozenset(keys)


def record_loop(stmt: ir.For, name: str) -> str | None:
    """The member a loop over record list `name` binds (`for a in R`, `for b in R[i:]`,
    `for i, a in enumerate(R)`), else None."""
    match stmt:
        case ir.For(ir.Name(member), ir.Name(iterated)) if iterated == name:
            return member
        case ir.For(ir.Name(member), ir.Subscript(ir.Name(iterated), ir.Slice())) \
                if iterated == name:
            return member
        case ir.For(ir.Build("tuple", (ir.Name(), ir.Name(member))),
                    ir.Call(ir.Name("enumerate"), (ir.Name(iterated),), ())) if iterated == name:
            return member
    return None


def is_enumerated(stmt: ir.For) -> bool:
    return isinstance(stmt.iter, ir.Call)


def record_lists(function: ir.Function) -> list[RecordList]:
    """The function's record lists (none where it looks at its own locals by name)."""
    if introspects(function):
        return []
    definitions: dict[str, list[ir.Expr]] = {}
    for stmt in walk_statements(function.body):
        if isinstance(stmt, ir.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ir.Name):
            definitions.setdefault(stmt.targets[0].id, []).append(stmt.value)
    found = []
    opaque = _opaque_mentions(function)
    for name, values in definitions.items():
        keys = record_keys(values[0]) if len(values) == 1 else None
        if keys is None or name in opaque or name in parameter_names(function):
            continue
        record = _uses(function, name, keys)
        if record is not None and not set(record.members) & (opaque | set(parameter_names(function))):
            found.append(record)
    return found


def _opaque_mentions(function: ir.Function) -> set[str]:
    """The names opaque code reads, binds, declares or captures (a comprehension's own target
    aside: it is a name of the comprehension's scope)."""
    names: set[str] = set()
    for node in opaque_nodes(function):
        usage = opaque_names(node)
        own: set[str] = set()
        if isinstance(node, ast.ListComp):
            own = {target.id for generator in node.generators
                   for target in ast.walk(generator.target) if isinstance(target, ast.Name)}
        names |= (usage.loaded | usage.stored | usage.nested | usage.declared) - own
    return names


def _uses(function: ir.Function, name: str, keys: frozenset[str]) -> RecordList | None:
    """`name` as a record list if every use of it and of its members is one allowed."""
    record = RecordList(name, keys)
    loops: set[int] = set()
    for stmt in walk_statements(function.body):
        if isinstance(stmt, ir.For) and (member := record_loop(stmt, name)) is not None:
            record.members.setdefault(member, set())
            record.enumerated |= is_enumerated(stmt)
            loops.add(id(stmt))
            if any(isinstance(inner, ir.For) and is_enumerated(inner)
                   and record_loop(inner, name) is not None
                   for inner in walk_statements(stmt.body + stmt.orelse)):
                return None  # (the list would go to unseen code while a member is in use)
    for stmt in walk_statements(function.body):
        if not _statement_allowed(stmt, record, id(stmt) in loops):
            return None
    return record


def _statement_allowed(stmt: ir.Stmt, record: RecordList, loop: bool) -> bool:
    """Whether `stmt` uses the record list and its members only in the allowed ways."""
    match stmt:
        case ir.Assign((ir.Name(target),), value) if target == record.name:
            return record_keys(value) is not None
        case ir.Return(ir.Name(returned)) if returned == record.name:
            return True
        case ir.For(target, iterable) if loop:
            counter = target.elts[0] if isinstance(target, ir.Build) else None
            reads = [part for part in _slice_bounds(iterable) if part is not None]
            return (counter is None or _target_allowed(counter, record)) \
                and all(_reads_allowed(expr, record) for expr in reads)
    match stmt:
        case ir.Assign(targets) | ir.AugAssign(targets) | ir.For(targets):
            stored = targets if isinstance(targets, tuple) else (targets,)
            if not all(_target_allowed(target, record) for target in stored):
                return False
    return all(_reads_allowed(expr, record) for expr in statement_expressions(stmt, targets=False))


def _slice_bounds(iterable: ir.Expr) -> tuple[ir.Expr | None, ...]:
    """The bounds of `R[lo:hi:step]`, or the arguments of `enumerate(R)` but `R`: nothing."""
    if isinstance(iterable, ir.Subscript) and isinstance(iterable.index, ir.Slice):
        return iterable.index.lower, iterable.index.upper, iterable.index.step
    return ()


def _target_allowed(target: ir.Expr, record: RecordList) -> bool:
    """A store target naming the list or a member only inside a key read (`a["vel"][k] = v`
    stores into the list `a["vel"]`, not into the dict `a`)."""
    names = {record.name, *record.members}
    match target:
        case ir.Name(name):
            return name not in names
        case ir.Subscript(ir.Name(name), _) | ir.Attribute(ir.Name(name)) if name in names:
            return False  # stores into the list or a member's dict
        case ir.Subscript(value, index):
            return _reads_allowed(value, record) and _reads_allowed(index, record)
        case ir.Attribute(value):
            return _reads_allowed(value, record)
        case ir.Build(_, elts):
            return all(_target_allowed(elt, record) for elt in elts)
        case ir.Starred(value):
            return _target_allowed(value, record)
    return False


def _reads_allowed(expr: ir.Expr, record: RecordList) -> bool:
    """Whether `expr` reads the list or a member only as `member["key"]` with a key of the
    display (noted), or the list as `len(R)` with the builtin bound."""
    match expr:
        case ir.Name(name):
            return name not in {record.name, *record.members}
        case ir.Subscript(ir.Name(member), ir.Const(key)) if member in record.members:
            if type(key) is not str or key not in record.keys:
                return False
            record.members[member].add(key)
            return True
        case ir.Call(ir.Const(function), (ir.Name(name),), ()) if function is len \
                and name == record.name:
            return True
        case ir.Call(ir.Const(function), (ir.Name(),), ()) if function is type:
            return True  # the builtin bound, as the type tests other passes write
    return all(_reads_allowed(child, record) for child in expr_children(expr))
