"""unroll_comprehensions: a list comprehension over `range` of a few constants as a list display.

`[E for k in range(3)]` evaluates `range(3)` in the function, then `E` with `k = 0`, `1` and `2`
in turn, appending each value to a new list nobody else can see until it is complete. The
display `[E0, E1, E2]` (each `Ei` being `E` with the constant `i` for `k`) evaluates the same
operations on the same values in the same order and builds an equal new list, without the
comprehension's function, frame and iterator (and, on Python 3.11, without making the names
`E` reads cells of the function). It holds while `range` is the builtin: the display runs
behind `range is range_2`, read where the comprehension reads `range`; the comprehension as
written runs otherwise:

    [E0, E1, E2] if range is range_2 else [E for k in range(3)]

Assigned to a *private list* (`analysis/private_lists.py`: nobody else can reach it), the
statements after it in the block (at most MAX_TAIL_NODES) are copied into both branches, and
the display's values go to locals: `d_0, d_1, d_2 = E0, E1, E2; d = [d_0, d_1, d_2]`. After a
display of names, the reads `d[0]`, `d[1]`... that follow read those names, until a statement
may change the list or rebind one of them (`forward_items`): the same objects, no code run.

Only one `for` over `range` of int constants (at most 8 turns), no `if`, a plain name as the
target, and an `E` with no scope or binding of its own (a lambda or a comprehension in it would
see `k` change; `:=` binds in the function). Every local `E` reads is certainly bound where the
comprehension runs: an unbound one raises a NameError with another message in a comprehension
on Python 3.11 ("free variable") than in the function ("local variable").

Example::

    def f(a, b):
        return [a[k] - b[k] for k in range(3)]
    # --- after unroll_comprehensions ---
    def f(a, b):
        return [a[0] - b[0], a[1] - b[1], a[2] - b[2]] if range is range_2 else [
            (a[k] - b[k]) for k in range(3)]
"""

from __future__ import annotations

import ast
import builtins
import copy

from .. import ir
from ..analysis.private_lists import private_lists, writes
from ..frontend.build import build_expr
from ..ir.names import (
    all_names,
    assigned_names,
    body_size,
    bound_on_entry,
    expression_size,
    fresh_name,
    introspects,
    local_names,
    node_kinds,
    untracked_names,
    written_names,
)
from ..ir.rewrite import (
    copy_statements,
    map_statements,
    map_statement_expressions,
    nested_bodies,
    statement_expressions,
    unchanged_or_new,
    walk_expr,
    walk_statements,
    with_bodies,
)
from . import notes

MAX_TURNS = 8
MAX_UNROLLED_NODES = 400
MAX_TAIL_NODES = 200  # the statements after an assigned comprehension copied into both branches

_BINDS = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr,
          ast.Yield, ast.YieldFrom, ast.Await)


def _kept(expr: ir.Expr) -> ir.Expr | None:
    """The comprehension as written kept beside a display this pass made, or None."""
    match expr:
        case ir.IfExp(ir.Compare(("is",), (ir.Name("range"), ir.Const(builtins.range))),
                      ir.Build("list"), ir.OpaqueExpr(ast.ListComp()) as kept):
            return kept
    return None


def _over_range(node: ast.ListComp) -> tuple[str, range] | None:
    """The target and the numbers of `[E for k in range(constants)]`, else None."""
    if len(node.generators) != 1:
        return None
    generator = node.generators[0]
    match generator:
        case ast.comprehension(ast.Name(target), ast.Call(ast.Name("range"), args, []), [], 0) \
                if 1 <= len(args) <= 3 and all(isinstance(arg, ast.Constant)
                                               and type(arg.value) is int for arg in args):
            bounds = [arg.value for arg in args
                      if isinstance(arg, ast.Constant) and isinstance(arg.value, int)]
            return target, range(*bounds)
    return None


_RANGE_IS_BUILTIN = ir.Compare(("is",), (ir.Name("range"), ir.Const(builtins.range)))


class _WithConstant(ast.NodeTransformer):
    """Every read of a name as a constant."""

    def __init__(self, target: str, value: int) -> None:
        self.target = target
        self.value = value

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id != self.target:
            return node
        return ast.copy_location(ast.Constant(self.value), node)


class _WithName(ast.NodeTransformer):
    """Every read of a name as a read of another."""

    def __init__(self, old: str, new: str) -> None:
        self.old = old
        self.new = new

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.copy_location(ast.Name(self.new, node.ctx), node) if node.id == self.old else node


def _with_constant(elt: ast.expr, target: str, value: int) -> ast.expr:
    """`elt` with every read of `target` the constant `value`."""
    result = _WithConstant(target, value).visit(copy.deepcopy(elt))
    assert isinstance(result, ast.expr)
    return result


class _Unroller:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.local = local_names(function) | written_names(function)
        self.bound_on_entry = bound_on_entry(function)
        self.bound: frozenset[str] | None = None  # at the statement at hand (None: unknown)
        self.loc = function.loc
        self.taken = all_names(function)
        self.introspects = introspects(function)
        self.private = private_lists(function)
        self.kept: set[int] = set()
        for stmt in walk_statements(function.body):
            for expr in statement_expressions(stmt, targets=False):
                self.kept.update(id(kept) for node in walk_expr(expr)
                                 if (kept := _kept(node)) is not None)

    def _range_is_builtin(self) -> bool:
        namespace = self.function.namespace
        return "range" not in self.local and namespace is not None \
            and namespace.lookup("range") == (True, builtins.range)

    def _refused(self, expr: ir.OpaqueExpr, why: str) -> None:
        notes.missed("unroll_comprehensions", "not unrolled {}: {}", expr, why, loc=self.loc)

    def _items(self, expr: ir.Expr) -> tuple[ir.Expr, ...] | None:
        """The elements of the display `expr` unrolls to, if it is a comprehension this pass
        writes as one (a refusal is noted), else None."""
        if not isinstance(expr, ir.OpaqueExpr) or not isinstance(expr.node, ast.ListComp) \
                or id(expr) in self.kept or (found := _over_range(expr.node)) is None:
            return None
        target, numbers = found
        elt = expr.node.elt
        read = {node.id for node in ast.walk(elt) if isinstance(node, ast.Name)} - {target}
        unbound = sorted((read & self.local) - (self.bound or frozenset()))
        if len(numbers) > MAX_TURNS:
            self._refused(expr, f"{len(numbers)} turns (at most {MAX_TURNS})")
        elif any(isinstance(node, _BINDS) for node in ast.walk(elt)):
            self._refused(expr, "its element has a scope or binding of its own")
        elif not self._range_is_builtin():
            self._refused(expr, "range is not the builtin")
        elif self.bound is None or unbound:
            self._refused(expr, f"{', '.join(unbound) or 'a local'} may be unbound here")
        else:
            items = tuple(build_expr(_with_constant(elt, target, value)) for value in numbers)
            if sum(expression_size(item) for item in items) <= MAX_UNROLLED_NODES:
                notes.changed("unroll_comprehensions", "{} as a list display", expr, loc=self.loc)
                return items
            self._refused(expr, f"more than {MAX_UNROLLED_NODES} IR nodes")
        return None

    def expr(self, expr: ir.Expr) -> ir.Expr:
        """A comprehension inside an expression: the display if `range` is the builtin, else
        the comprehension as written."""
        items = self._items(expr)
        return expr if items is None else ir.IfExp(_RANGE_IS_BUILTIN, ir.Build("list", items), expr)

    def assign(self, stmt: ir.Assign) -> ir.If | None:
        """`x = [E for k in range(...)]`: the display if `range` is the builtin, else the
        comprehension as a loop appending to a new list (no comprehension: on Python 3.11 the
        names it reads would be cells of the function everywhere)."""
        assert isinstance(stmt.value, ir.OpaqueExpr) and isinstance(stmt.value.node, ast.ListComp)
        items = self._items(stmt.value)
        if items is None:
            return None
        comprehension = stmt.value.node
        generator = comprehension.generators[0]
        assert isinstance(generator.target, ast.Name)
        turn = fresh_name(generator.target.id, self.taken)
        made = ir.Name(fresh_name("made", self.taken))
        element = build_expr(_WithName(generator.target.id, turn).visit(
            copy.deepcopy(comprehension.elt)))
        loop = ir.For(ir.Name(turn), build_expr(generator.iter),
                      (ir.ExprStmt(ir.Call(ir.Attribute(made, "append"), (element,), ()),
                                   stmt.loc),), (), stmt.loc)
        written = (ir.Assign((made,), ir.Build("list", ()), stmt.loc), loop,
                   ir.Assign(stmt.targets, made, stmt.loc))
        return ir.If(_RANGE_IS_BUILTIN, (ir.Assign(stmt.targets, ir.Build("list", items),
                                                   stmt.loc),), written, stmt.loc)

    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result: list[ir.Stmt] = []
        for index, stmt in enumerate(body):
            # a `while` test runs again after its body (which may `del` a name)
            self.bound = None if isinstance(stmt, ir.While) else self.bound_on_entry.get(id(stmt))
            self.loc = getattr(stmt, "loc", self.function.loc)
            if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.OpaqueExpr) \
                    and isinstance(stmt.value.node, ast.ListComp) and not self.introspects \
                    and (unrolled := self.assign(stmt)) is not None:
                if (joined := self.joined(unrolled, stmt, body[index + 1:])) is not None:
                    return (*result, joined)
                result.append(unrolled)
                continue
            new = map_statement_expressions(stmt, self.expr)
            if bodies := nested_bodies(new):
                new = with_bodies(new, self.block(bodies[0]), self.block(bodies[1]))
            result.append(new)
        return unchanged_or_new(body, result)

    def joined(self, unrolled: ir.If, stmt: ir.Assign, rest: tuple[ir.Stmt, ...]) -> ir.If | None:
        """`if range is range_2: d_0, d_1 = E0, E1; d = [d_0, d_1]; REST else: <the loop>;
        REST` (see `forward_items`); None where `d` is not private, REST reads no item of it or
        is over MAX_TAIL_NODES."""
        name = stmt.targets[0].id if len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], ir.Name) else None
        display = unrolled.body[0]
        if name is None or name not in self.private or not rest \
                or body_size(rest) > MAX_TAIL_NODES or not _reads_items(rest, name) \
                or not isinstance(display, ir.Assign) or not isinstance(display.value, ir.Build):
            return None
        items = display.value.elts
        values = tuple(ir.Name(fresh_name(f"{name}_{turn}", self.taken)) for turn in range(len(items)))
        rest = self.block(rest)
        notes.changed("unroll_comprehensions", "the items of {} in locals", ir.Name(name),
                      loc=stmt.loc)
        then = (ir.Assign((ir.Build("tuple", values),), ir.Build("tuple", items), stmt.loc),
                ir.Assign(stmt.targets, ir.Build("list", values), stmt.loc), *rest)
        return ir.If(unrolled.test, then, (*unrolled.orelse, *copy_statements(rest)), stmt.loc)


def _item(expr: ir.Expr, name: str, count: int) -> int | None:
    """The index of `name[i]` (an int constant within a list of `count` items), else None."""
    match expr:
        case ir.Subscript(ir.Name(read), ir.Const(index)) if read == name \
                and type(index) is int and -count <= index < count:
            return index
    return None


def _reads_items(body: tuple[ir.Stmt, ...], name: str) -> bool:
    return any(isinstance(node, ir.Subscript) and node.value == ir.Name(name)
               for stmt in walk_statements(body) for expr in statement_expressions(stmt)
               for node in walk_expr(expr))


def _stops(stmt: ir.Stmt, group: frozenset[str], names: set[str]) -> bool:
    """Whether `stmt` (or a statement in it) may change the list of `group` or rebind one of
    `names`: binds a name of the group, stores into it, calls a method changing it, assigns
    one of the names, or is opaque."""
    return any(isinstance(inner, ir.Opaque) or writes(inner, group)
               or assigned_names(inner) & names for inner in walk_statements((stmt,)))


def forward_items(body: tuple[ir.Stmt, ...], private: dict[str, frozenset[str]],
                  tracked: set[str]) -> tuple[tuple[ir.Stmt, ...], bool]:
    """`body` where, after `d = [x, y]` (`d` a private list, the items locals no opaque code
    touches: only the function's own statements rebind them), the statements read `x` for
    `d[0]` and `y` for `d[1]` until one may change the list or rebind a name; in every block.
    Whether anything changed. No `d[0]` is left to replace: done once."""
    changed = False
    result = list(body)
    for position, stmt in enumerate(result):
        match stmt:
            case ir.Assign((ir.Name(name),), ir.Build("list", items)) if name in private \
                    and items and all(isinstance(item, ir.Name) and item.id in tracked
                                      for item in items):
                values = tuple(item for item in items if isinstance(item, ir.Name))
                names = {value.id for value in values}
                for later in range(position + 1, len(result)):
                    if _stops(result[later], private[name], names):
                        break
                    replaced = _with_items(result[later], name, values)
                    changed |= replaced is not result[later]
                    result[later] = replaced
        if bodies := nested_bodies(result[position]):
            inner, inner_changed = forward_items(bodies[0], private, tracked)
            orelse, orelse_changed = forward_items(bodies[1], private, tracked)
            if inner_changed or orelse_changed:
                result[position] = with_bodies(result[position], inner, orelse)
                changed = True
    return tuple(result), changed


def _with_items(stmt: ir.Stmt, name: str, values: tuple[ir.Name, ...]) -> ir.Stmt:
    """`stmt` reading `values[i]` for `name[i]`, in its nested statements too."""
    def item(expr: ir.Expr) -> ir.Expr:
        index = _item(expr, name, len(values))
        return expr if index is None else values[index]

    return map_statements((stmt,), lambda inner: map_statement_expressions(inner, item))[0]


def unroll_comprehensions(function: ir.Function) -> ir.Function:
    """Write `[E for k in range(constants)]` as the display of its elements, behind a test that
    `range` is the builtin."""
    if ir.OpaqueExpr in node_kinds(function):
        body = _Unroller(function).block(function.body)
        function = function if body is function.body else function.with_body(body)
    if ir.Build not in node_kinds(function):
        return function
    tracked = local_names(function) - untracked_names(function)
    body, changed = forward_items(function.body, private_lists(function), tracked)
    return function.with_body(body) if changed else function
