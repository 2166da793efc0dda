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
"""

from __future__ import annotations

import ast

from .. import ir
from ..ir.names import opaque_names, opaque_nodes, parameter_names
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
