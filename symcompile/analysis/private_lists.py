"""Private lists: locals that certainly hold an exact `list` no code but the function's own can
reach, so only the function's own statements can change which items they hold.

An analysis for `hoist_list_items`. A local is a private list when every assignment to it
binds a list the function made (a list display, a list comprehension) or another private
list, and the function uses it only in ways that hand the list object to nobody: reading or
storing an item (`xs[i]`, `xs[i] = v`, `xs[i][j] = v`), iterating over it (`for x in xs`, the
first `for` of a comprehension: a list iterator only reads), taking its length with the builtin
`len` bound as an object (not the name `len`, which code may rebind), calling a list method that
changes it (`xs.append(v)`), binding another local to it (`ys = xs`) and returning it, alone
or in a tuple (nothing of the function runs after that). Names bound to one another share a
group: they may be the same list, so a write through one counts for all of them. A parameter
is never private (the caller holds it), nor is a global, nor a name opaque code binds,
deletes or captures.

Reading an item of such a list with an exact int index runs no code and, within range, cannot
raise; storing into the list's items' own items (`xs[i][j] = v`) does not change `xs`.

*Private rows* (`private_rows`): a private list whose items are themselves lists only the
function reaches: every binding makes its rows (`[[0.0] * m for _ in range(n)]`, a display of
displays), and every use of it reaches a row only to read or store one of its items
(`c[i][j]`, `c[i][j] += v`, never a slice, which could resize it) or take its length; it is
never iterated, its items never stored or handed out (`row = c[i]`, `for row in c`,
`c.append(r)`). A row `[0.0] * m` is a new list only
where `m` is an int (an object's `__rmul__` could give any list), so such names are tested
where the rows are used: a parameter the function never assigns, or a local assigned once, at
its top level, keeps the value the rows were made with.
"""

from __future__ import annotations

import ast

from .. import ir
from ..ir.names import assigned_names, opaque_names, opaque_nodes, parameter_names
from ..ir.rewrite import expr_children, statement_expressions, walk_statements

# list methods that change the list: calling one is a write, not an escape
MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse"})
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

Groups = dict[str, frozenset[str]]


def makes_list(expr: ir.Expr) -> bool:
    """Whether evaluating `expr` (when it does not raise) gives a new exact list."""
    return isinstance(expr, ir.Build) and expr.kind == "list" or \
        isinstance(expr, ir.OpaqueExpr) and isinstance(expr.node, ast.ListComp)


def private_lists(function: ir.Function) -> Groups:
    """Each private list's name, mapped to its group (the names it may share a list with,
    itself included)."""
    uses = _Uses()
    for node in opaque_nodes(function):
        uses.opaque(node)
    for stmt in walk_statements(function.body):
        uses.statement(stmt)
    excluded = uses.other | uses.escaped | set(parameter_names(function))
    private: Groups = {}
    for group in _groups(uses):
        if not group & excluded and group <= uses.sources.keys():
            private.update(dict.fromkeys(group, group))
    return private


class _Uses:
    """How the function binds and uses each name."""

    def __init__(self) -> None:
        # the sources of each name's plain assignments: None for a new list, else the name
        self.sources: dict[str, list[str | None]] = {}
        self.other: set[str] = set()  # names bound some other way (unpacking, `for`, `+=`...)
        self.escaped: set[str] = set()  # names used in a way that may hand the list out

    def opaque(self, node: ast.AST) -> None:
        usage = opaque_names(node)
        iterated: set[str] = set()
        if isinstance(node, _COMPREHENSIONS) and isinstance(node.generators[0].iter, ast.Name):
            iterated.add(node.generators[0].iter.id)
        self.escaped |= usage.stored | usage.nested | usage.declared | (usage.loaded - iterated)
        self.other |= usage.stored

    def statement(self, stmt: ir.Stmt) -> None:
        match stmt:
            case ir.Assign((ir.Name(name),), value):
                if isinstance(value, ir.Name):
                    self.sources.setdefault(name, []).append(value.id)
                    return
                self.sources.setdefault(name, []).append(None)
                if not makes_list(value):
                    self.other.add(name)
                self.read(value)
                return
            case ir.Assign(targets, value):
                for target in targets:
                    self.target(target)
                self.read(value)
                return
            case ir.AugAssign(target, _, value):
                self.target(target)
                self.read(value)
                return
            case ir.For(target, ir.Name(), _, _):
                self.target(target)
                return
            case ir.For(target, iterable):
                self.target(target)
                self.read(iterable)
                return
            case ir.Return(ir.Name()):
                return
            case ir.Return(ir.Build("tuple", elts)):  # nothing of the function runs after it
                for elt in elts:
                    if not isinstance(elt, ir.Name):
                        self.read(elt)
                return
        for expr in statement_expressions(stmt):
            self.read(expr)

    def target(self, target: ir.Expr) -> None:
        """What storing into `target` does with names: binds them, or stores into an item."""
        match target:
            case ir.Name(name):
                self.other.add(name)
            case ir.Subscript(ir.Name(), index):
                self.read(index)
            case ir.Subscript(value, index):
                self.read(value)
                self.read(index)
            case ir.Attribute(value):
                self.read(value)
            case ir.Build(_, elts):
                for elt in elts:
                    self.target(elt)
            case ir.Starred(value):
                self.target(value)
            case _:
                self.read(target)

    def read(self, expr: ir.Expr) -> None:
        """Mark each name `expr` reads other than as an indexed list or a mutator's receiver."""
        match expr:
            case ir.Name(name):
                self.escaped.add(name)
            case ir.Subscript(ir.Name(), index):
                self.read(index)
            case ir.Call(ir.Const(function), (ir.Name(),), ()) if function is len:
                return  # the builtin itself, bound (a name `len` may be rebound to anything)
            case ir.Call(ir.Attribute(ir.Name(), method), args, keywords) if method in MUTATORS:
                for part in (*args, *(keyword.value for keyword in keywords)):
                    self.read(part)
            case _:
                for child in expr_children(expr):
                    self.read(child)


def _groups(uses: _Uses) -> list[frozenset[str]]:
    """The names bound to one another (`a = b`), joined: each group may share one list."""
    parent = {name: name for name in uses.sources}

    def root(name: str) -> str:
        while parent[name] != name:
            name = parent[name]
        return name

    for name, sources in uses.sources.items():
        for source in sources:
            if source is not None:
                parent.setdefault(source, source)
                parent[root(name)] = root(source)
    members: dict[str, set[str]] = {}
    for name in parent:
        members.setdefault(root(name), set()).add(name)
    return [frozenset(group) for group in members.values()]


def writes(stmt: ir.Stmt, group: frozenset[str]) -> bool:
    """Whether the statement itself (not its nested bodies) may change a list of `group`:
    binds one of its names, stores into its items or calls a mutator on it."""
    match stmt:
        case ir.Assign(targets):
            if any(_stores_into(target, group) for target in targets):
                return True
        case ir.AugAssign(target):
            if _stores_into(target, group):
                return True
        case ir.For(target):
            if _stores_into(target, group):
                return True
    for expr in statement_expressions(stmt):
        if _calls_mutator(expr, group):
            return True
    return False


def _stores_into(target: ir.Expr, group: frozenset[str]) -> bool:
    match target:
        case ir.Name(name) | ir.Subscript(ir.Name(name), _):
            return name in group
        case ir.Build(_, elts):
            return any(_stores_into(elt, group) for elt in elts)
        case ir.Starred(value):
            return _stores_into(value, group)
    return False


def _calls_mutator(expr: ir.Expr, group: frozenset[str]) -> bool:
    if isinstance(expr, ir.Call) and isinstance(expr.func, ir.Attribute) \
            and isinstance(expr.func.value, ir.Name) and expr.func.value.id in group:
        return True
    return any(_calls_mutator(child, group) for child in expr_children(expr))


def private_rows(function: ir.Function, groups: Groups) -> dict[frozenset[str], tuple[str, ...]]:
    """Each group of private lists whose items are private rows, mapped to the names that
    must be ints for its rows to be new lists (the `m` of `[0.0] * m`)."""
    opaque: set[str] = set()
    rebound: set[str] = set()
    for node in opaque_nodes(function):
        usage = opaque_names(node)
        opaque |= usage.all
        rebound |= usage.stored | usage.declared
    rows: dict[frozenset[str], tuple[str, ...]] = {}
    for group in set(groups.values()):
        counts = _RowUses(group, rebound)
        if group & opaque or not counts.check(function):
            continue
        if all(counts.fixed(function, name) for name in counts.counts):
            rows[group] = tuple(sorted(counts.counts))
    return rows


class _RowUses:
    """Whether a group's rows stay the function's own, and the names its rows' `* m` use."""

    def __init__(self, group: frozenset[str], rebound: set[str]) -> None:
        self.group = group
        self.rebound = rebound  # the names opaque code binds
        self.counts: set[str] = set()

    def check(self, function: ir.Function) -> bool:
        for stmt in walk_statements(function.body):
            match stmt:
                case ir.Assign((ir.Name(name),), value) if name in self.group:
                    if not (isinstance(value, ir.Name) or self._makes_rows(value)):
                        return False
                    continue
                case ir.Return(ir.Name()):
                    continue
                case ir.Return(ir.Build("tuple", elts)):  # nothing of the function runs after it
                    if any(self._hands_out(elt) for elt in elts if not isinstance(elt, ir.Name)):
                        return False
                    continue
            if any(self._hands_out(expr) for expr in statement_expressions(stmt)):
                return False
        return True

    def _makes_rows(self, value: ir.Expr) -> bool:
        """A list display of new rows, or a list comprehension making one per item."""
        if isinstance(value, ir.Build) and value.kind == "list":
            return all(self._new_row(elt) for elt in value.elts)
        if isinstance(value, ir.OpaqueExpr) and isinstance(value.node, ast.ListComp):
            return self._new_row_node(value.node.elt)
        return False

    def _new_row(self, expr: ir.Expr) -> bool:
        match expr:
            case ir.Build("list", _) | ir.OpaqueExpr(ast.ListComp()):
                return True
            case ir.Op("mul", (ir.Build("list", _), ir.Const(value))) if type(value) is int:
                return True
            case ir.Op("mul", (ir.Build("list", _), ir.Name(name))):
                self.counts.add(name)
                return True
        return False

    def _new_row_node(self, node: ast.expr) -> bool:
        match node:
            case ast.List() | ast.ListComp():
                return True
            case ast.BinOp(ast.List(), ast.Mult(), ast.Constant(value)) if type(value) is int:
                return True
            case ast.BinOp(ast.List(), ast.Mult(), ast.Name(name)):
                self.counts.add(name)
                return True
        return False

    def _hands_out(self, expr: ir.Expr) -> bool:
        """Whether `expr` uses a name of the group other than to reach a row's item or length
        (or the group's own length)."""
        match expr:
            case ir.Subscript(ir.Subscript(ir.Name(name), index), item) if name in self.group:
                # a slice stored into may resize the row
                return isinstance(item, ir.Slice) or self._hands_out(index) or self._hands_out(item)
            case ir.Call(ir.Const(function), (ir.Subscript(ir.Name(name), index),), ()) \
                    if function is len and name in self.group:
                return self._hands_out(index)
            case ir.Call(ir.Const(function), (ir.Name(name),), ()) if function is len and name in self.group:
                return False
            case ir.Name(name):
                return name in self.group
        return any(self._hands_out(child) for child in expr_children(expr))

    def fixed(self, function: ir.Function, name: str) -> bool:
        """Whether `name` holds one value all through a call: a parameter never assigned, or a
        local assigned by one statement of the function's top level (not opaque code's)."""
        if name in self.rebound:
            return False
        binders = [stmt for stmt in walk_statements(function.body) if name in assigned_names(stmt)]
        if name in parameter_names(function):
            return not binders
        return len(binders) == 1 and any(stmt is binders[0] for stmt in function.body) \
            and isinstance(binders[0], ir.Assign) and binders[0].targets == (ir.Name(name),)
