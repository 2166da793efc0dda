"""Analyses: plain functions over the IR that the passes ask questions of.

Nothing here rewrites anything; a pass recomputes what it needs, except the few facts most
passes ask of every function object (what its opaque code uses, the kinds of node it holds),
worked out once per object (the IR never changes). The questions: which names are the
function's locals, which of them escape the compiler's view (captured by nested code, touched
by opaque statements), how often each name is read and assigned, which locals are certainly
bound at each statement, and which expressions can be evaluated without effects or exceptions.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterator, TypeVar

from .. import ir
from .ops import binary_methods
from .rewrite import (
    expr_children,
    header_expression,
    nested_bodies,
    statement_expressions,
    walk_expr,
    walk_statements,
)

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# set by the front end on a def, class or import alias that binds a private name (`def __f`
# in a method of `C` binds `_C__f` but keeps its name as written): the name it binds
BOUND_AS = "symcompile_bound_as"
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass
class OpaqueNames:
    """Names an opaque piece of Python touches, by how it touches them."""

    stored: set[str] = field(default_factory=set)  # bound or deleted in the function's own scope
    loaded: set[str] = field(default_factory=set)  # read in the function's own scope
    nested: set[str] = field(default_factory=set)  # mentioned inside a nested scope (captured)
    declared: set[str] = field(default_factory=set)  # named by `global` or `nonlocal`

    @property
    def all(self) -> set[str]:
        return self.stored | self.loaded | self.nested | self.declared


def _target_names(node: ast.AST) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            yield child.id


def opaque_names(node: ast.AST, names: OpaqueNames | None = None, nested: bool = False) -> OpaqueNames:
    """What `node`, kept verbatim, does with names (scope-aware, conservative)."""
    names = names if names is not None else OpaqueNames()
    stored = names.nested if nested else names.stored
    loaded = names.nested if nested else names.loaded
    match node:
        case ast.Name(id=name, ctx=ctx):
            (loaded if isinstance(ctx, ast.Load) else stored).add(name)
        case ast.Global(names=declared) | ast.Nonlocal(names=declared):
            names.declared.update(declared)
        case ast.alias(name=name, asname=asname):
            stored.add(getattr(node, BOUND_AS, asname or name.split(".")[0]))
        case ast.ExceptHandler(name=str(name)) | ast.MatchAs(name=str(name)) | \
                ast.MatchStar(name=str(name)) | ast.MatchMapping(rest=str(name)):
            stored.add(name)
        case ast.NamedExpr(target=target):
            stored.update(_target_names(target))
    if isinstance(node, ast.Lambda):  # defaults run here, the body in a scope of its own
        opaque_names(node.args, names, nested)
        opaque_names(node.body, names, True)
        return names
    if isinstance(node, _SCOPES):
        stored.add(getattr(node, BOUND_AS, node.name))
        for child in ast.iter_child_nodes(node):
            in_body = any(child is statement for statement in node.body)
            opaque_names(child, names, nested or in_body)
        return names
    if isinstance(node, _COMPREHENSIONS):
        first_iterator = node.generators[0].iter
        opaque_names(first_iterator, names, nested)
        for child in ast.walk(node):
            if child is not first_iterator and isinstance(child, ast.Name):
                names.nested.add(child.id)
            if isinstance(child, ast.NamedExpr):  # a walrus in a comprehension binds our local
                stored.update(_target_names(child.target))
        return names
    for child in ast.iter_child_nodes(node):
        opaque_names(child, names, nested)
    return names


def opaque_nodes(function: ir.Function) -> Iterator[ast.AST]:
    """The verbatim Python pieces of the function: opaque statements and expressions."""
    return iter(_contents(function).opaque)


# what opaque code of each function uses: asked by most passes of every round, and an IR
# function never changes, so it is worked out once per function object
_opaque_usage: weakref.WeakKeyDictionary[ir.Function, OpaqueNames] = weakref.WeakKeyDictionary()


def opaque_usage(function: ir.Function) -> OpaqueNames:
    """The names the function's opaque code reads, stores and declares (do not modify it)."""
    found = _opaque_usage.get(function)
    if found is None:
        found = _opaque_usage[function] = OpaqueNames()
        for node in opaque_nodes(function):
            opaque_names(node, found)
    return found


Found = TypeVar("Found")


@dataclass(frozen=True)
class _Contents:
    """What one walk over a function's body finds (opaque code not entered)."""

    kinds: frozenset[type]  # the classes of its IR nodes, statements and expressions
    names: frozenset[str]  # the identifiers of its `ir.Name` nodes
    opaque: tuple[ast.AST, ...]  # its opaque statements' and expressions' Python


# what most passes ask of every function object, worked out once per object (the IR never
# changes): what its body holds, and the names it binds and mentions
_contents_of: weakref.WeakKeyDictionary[ir.Function, _Contents] = weakref.WeakKeyDictionary()
_bound_names: weakref.WeakKeyDictionary[ir.Function, frozenset[str]] = weakref.WeakKeyDictionary()
_all_names: weakref.WeakKeyDictionary[ir.Function, frozenset[str]] = weakref.WeakKeyDictionary()


def _once(table: weakref.WeakKeyDictionary[ir.Function, Found], function: ir.Function,
          find: Callable[[ir.Function], Found]) -> Found:
    """`find(function)`, remembered in `table` for as long as the function object lives."""
    found = table.get(function)
    if found is None:
        found = table[function] = find(function)
    return found


def _contents(function: ir.Function) -> _Contents:
    return _once(_contents_of, function, _find_contents)


def _find_contents(function: ir.Function) -> _Contents:
    return _joined([_statement_contents(stmt) for stmt in function.body])


def _joined(parts: list[_Contents]) -> _Contents:
    if len(parts) == 1:
        return parts[0]
    return _Contents(frozenset().union(*(part.kinds for part in parts)),
                     frozenset().union(*(part.names for part in parts)),
                     tuple(node for part in parts for node in part.opaque))


@dataclass
class _StatementFacts:
    """What one compilation has found of single statement objects, by their ids, each held
    beside its answer so the id stays its own: the IR never changes, passes ask the same of
    each statement again and again, and a new version of a function mostly holds the
    statements of the one before."""

    assigned: dict[int, tuple[ir.Stmt, frozenset[str]]] = field(default_factory=dict)
    reads: dict[int, tuple[ir.Stmt, frozenset[str]]] = field(default_factory=dict)
    contents: dict[int, tuple[ir.Stmt, _Contents]] = field(default_factory=dict)
    # the statements `verify` checked already, by (id, inside a loop)
    checked: dict[tuple[int, bool], object] = field(default_factory=dict)


_statement_facts: contextvars.ContextVar[_StatementFacts | None] = contextvars.ContextVar(
    "symcompile_statement_facts", default=None)


@contextlib.contextmanager
def statement_facts_remembered() -> Iterator[None]:
    """Inside the block (one compilation), what is found of a statement object is found once;
    outside, every question is answered afresh: nothing holds a compilation's IR after it."""
    token = _statement_facts.set(_StatementFacts())
    try:
        yield
    finally:
        _statement_facts.reset(token)


def statement_facts() -> _StatementFacts | None:
    """The statement facts of the compilation running, if one is."""
    return _statement_facts.get()


def _statement_contents(stmt: ir.Stmt) -> _Contents:
    facts = _statement_facts.get()
    entry = facts.contents.get(id(stmt)) if facts is not None else None
    if entry is not None and entry[0] is stmt:
        return entry[1]
    kinds: set[type] = {type(stmt)}
    names: set[str] = set()
    opaque: list[ast.AST] = [stmt.node] if isinstance(stmt, ir.Opaque) else []
    for expr in statement_expressions(stmt):
        for node in walk_expr(expr):
            kinds.add(type(node))
            if isinstance(node, ir.Name):
                names.add(node.id)
            elif isinstance(node, ir.OpaqueExpr):
                opaque.append(node.node)
    own = _Contents(frozenset(kinds), frozenset(names), tuple(opaque))
    found = _joined([own, *(_statement_contents(inner) for body in nested_bodies(stmt)
                            for inner in body)])
    if facts is not None:
        facts.contents[id(stmt)] = (stmt, found)
    return found


def _per_statement(table: dict[int, tuple[ir.Stmt, frozenset[str]]] | None, stmt: ir.Stmt,
                   find: Callable[[ir.Stmt], frozenset[str]]) -> frozenset[str]:
    """`find(stmt)`, remembered in `table` (one of the compilation's `_StatementFacts`, None
    outside a compilation) for the statement object."""
    if table is None:
        return find(stmt)
    entry = table.get(id(stmt))
    if entry is not None and entry[0] is stmt:
        return entry[1]
    found = find(stmt)
    table[id(stmt)] = (stmt, found)
    return found


def node_kinds(function: ir.Function) -> frozenset[type]:
    """The classes of the IR nodes in the function's body, statements and expressions (opaque
    code not entered): `ir.For in node_kinds(f)` says whether `f` has a `for` loop."""
    return _contents(function).kinds


def parameter_names(function: ir.Function) -> list[str]:
    args = function.params
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    return names + [a.arg for a in (args.vararg, args.kwarg) if a is not None]


def target_names(target: ir.Expr) -> Iterator[str]:
    """The variable names an assignment target binds (`a, (b, *c)` → a, b, c)."""
    match target:
        case ir.Name(id):
            yield id
        case ir.Build(_, elts):
            for elt in elts:
                yield from target_names(elt)
        case ir.Starred(value):
            yield from target_names(value)


def assigned_names(stmt: ir.Stmt) -> frozenset[str]:
    """Names the statement itself binds (not counting nested bodies)."""
    facts = _statement_facts.get()
    return _per_statement(facts.assigned if facts is not None else None, stmt, _find_assigned_names)


def _find_assigned_names(stmt: ir.Stmt) -> frozenset[str]:
    match stmt:
        case ir.Assign(targets):
            return frozenset(name for target in targets for name in target_names(target))
        case ir.AugAssign(ir.Name(id)):
            return frozenset({id})
        case ir.For(target):
            return frozenset(target_names(target))
        case ir.Opaque(node):
            return frozenset(opaque_names(node).stored)
    names: set[str] = set()
    for expr in statement_expressions(stmt):
        for inner in walk_expr(expr):
            if isinstance(inner, ir.OpaqueExpr):
                names |= opaque_names(inner.node).stored
    return frozenset(names)


def bound_names(function: ir.Function) -> set[str]:
    """The names the function's code binds somewhere (parameters included), not declared
    `global` or `nonlocal`: as Python decides, its local variables."""
    bound: frozenset[str] = _once(_bound_names, function, _find_bound_names)
    return set(bound)


def _find_bound_names(function: ir.Function) -> frozenset[str]:
    usage = opaque_usage(function)
    bound = set(parameter_names(function)) | usage.stored
    for stmt in walk_statements(function.body):
        bound |= assigned_names(stmt)
    return frozenset(bound - usage.declared)


def local_names(function: ir.Function) -> set[str]:
    """The function's local variables: those its code binds, and those of the original whose
    every binding a pass removed (still locals: reading one raises UnboundLocalError)."""
    bound: frozenset[str] = _once(_bound_names, function, _find_bound_names)
    return set(bound) | function.locals


def written_names(function: ir.Function) -> set[str]:
    """Every name the function binds or declares, locals and `global` names alike: the names
    whose value at a given point the function itself may have changed."""
    return local_names(function) | opaque_usage(function).declared


def untracked_names(function: ir.Function) -> set[str]:
    """Locals whose value the compiler cannot follow: anything opaque code touches (nested
    functions may read or rebind them at any call; `del`, `except ... as`, walrus...)."""
    return opaque_usage(function).all


def introspects(function: ir.Function) -> bool:
    """Whether the function may look at its own local variables by name (then no local may be
    dropped or renamed): calls of `locals`, `vars`, `eval`, `exec`, `dir` anywhere."""
    suspicious = {"locals", "vars", "eval", "exec", "dir"}
    return bool((opaque_usage(function).all | _contents(function).names) & suspicious)


def read_counts(function: ir.Function) -> Counter[str]:
    """How many times each name is read (opaque code mentioning a name counts as a read)."""
    counts: Counter[str] = Counter()
    for stmt in walk_statements(function.body):
        for expr in statement_expressions(stmt, targets=False):
            counts.update(node.id for node in walk_expr(expr) if isinstance(node, ir.Name))
        for target in stored_targets(stmt):
            counts.update(_names_read_by_target(target))
        if isinstance(stmt, ir.AugAssign) and isinstance(stmt.target, ir.Name):
            counts[stmt.target.id] += 1
    counts.update(opaque_usage(function).all)
    return counts


def reads_in_statement(stmt: ir.Stmt, name: str) -> int:
    """How many times the statement itself (not its nested bodies) reads `name`."""
    count = sum(1 for expr in statement_expressions(stmt, targets=False)
                for node in walk_expr(expr) if node == ir.Name(name))
    count += sum(1 for target in stored_targets(stmt) for read in _names_read_by_target(target)
                 if read == name)
    return count + int(isinstance(stmt, ir.AugAssign) and stmt.target == ir.Name(name))


def stored_targets(stmt: ir.Stmt) -> tuple[ir.Expr, ...]:
    """The targets `stmt` stores into (an assignment's, an augmented assignment's, a loop's)."""
    match stmt:
        case ir.Assign(targets):
            return targets
        case ir.AugAssign(target) | ir.For(target):
            return (target,)
    return ()


def _names_read_by_target(target: ir.Expr) -> Iterator[str]:
    """Names a target reads while storing: `a[i] = v` reads a and i, `a.b = v` reads a."""
    match target:
        case ir.Attribute(value):
            yield from (n.id for n in walk_expr(value) if isinstance(n, ir.Name))
        case ir.Subscript(value, index):
            for part in (value, index):
                yield from (n.id for n in walk_expr(part) if isinstance(n, ir.Name))
        case ir.Build(_, elts):
            for elt in elts:
                yield from _names_read_by_target(elt)
        case ir.Starred(value):
            yield from _names_read_by_target(value)


def assignment_counts(function: ir.Function) -> Counter[str]:
    """How many statements bind each name."""
    counts: Counter[str] = Counter(parameter_names(function))
    for stmt in walk_statements(function.body):
        counts.update(assigned_names(stmt))
    return counts


# ------------------------------------------------------------ definite assignment


def terminates(body: tuple[ir.Stmt, ...]) -> bool:
    """Whether running `body` never falls through to the next statement."""
    for stmt in body:
        match stmt:
            case ir.Return() | ir.Raise() | ir.Break() | ir.Continue():
                return True
            case ir.If(_, then, orelse) if terminates(then) and terminates(orelse):
                return True
    return False


def bound_on_entry(function: ir.Function) -> dict[int, frozenset[str]]:
    """For every statement (by `id`), the locals certainly bound when it starts."""
    result: dict[int, frozenset[str]] = {}
    _bound_through(function.body, frozenset(parameter_names(function)), result)
    return result


def bound_after(body: tuple[ir.Stmt, ...], bound: frozenset[str]) -> frozenset[str]:
    """The locals certainly bound after running `body`, given those bound before it."""
    return _bound_through(body, bound, {})


def _bound_through(body: tuple[ir.Stmt, ...], bound: frozenset[str],
                   result: dict[int, frozenset[str]]) -> frozenset[str]:
    for stmt in body:
        # one statement object may stand in several places (unrolled copies): keep what holds
        # at all of them
        result[id(stmt)] = result[id(stmt)] & bound if id(stmt) in result else bound
        match stmt:
            case ir.If(_, then, orelse):
                after_then = _bound_through(then, bound, result)
                after_else = _bound_through(orelse, bound, result)
                if terminates(then):
                    bound = after_else
                elif terminates(orelse):
                    bound = after_then
                else:
                    bound = after_then & after_else
            case ir.For(_, _, loop_body, orelse) | ir.While(_, loop_body, orelse):
                _bound_through(loop_body, bound | assigned_names(stmt), result)
                _bound_through(orelse, bound, result)
            case ir.Opaque(node):
                bound = bound - opaque_names(node).stored
            case _:
                bound = bound | assigned_names(stmt)
    return bound


def means(expr: ir.Expr, value: object, namespace: ir.Namespace | None) -> bool:
    """Whether `expr` is `value`: bound as an object, or (in code symcompile generated and is
    compiling again) a global name for it."""
    if isinstance(expr, ir.Const):
        return expr.value is value
    if isinstance(expr, ir.Name) and namespace is not None:
        found, bound = namespace.lookup(expr.id)
        return found and bound is value
    return False


def is_quiet(expr: ir.Expr, bound: frozenset[str]) -> bool:
    """Whether evaluating `expr` can have no effect and raise nothing: a constant or a read of
    a local certainly bound. (Anything else may run user code or raise.)"""
    return isinstance(expr, ir.Const) or (isinstance(expr, ir.Name) and expr.id in bound)


def evaluation_order(expr: ir.Expr) -> Iterator[tuple[ir.Expr, bool]]:
    """Subexpressions in the order Python evaluates them, each with whether it is evaluated on
    every evaluation of `expr` (False past a short circuit or inside a branch); post-order,
    so a node comes after everything it evaluates first. Opaque parts are not entered.
    (Walked with a stack of its own: see `rewrite.walk_expr`.)"""
    # each entry: a node, whether it is always evaluated, whether its operands are done
    stack: list[tuple[ir.Expr, bool, bool]] = [(expr, True, False)]
    while stack:
        node, always, done = stack.pop()
        if done:
            yield node, always
            continue
        stack.append((node, always, True))
        stack.extend(reversed(_operands_in_order(node, always)))


# the nodes that may leave operands unevaluated, and opaque code, not entered
_SHORT_CIRCUITS = frozenset({ir.BoolOp, ir.IfExp, ir.Compare, ir.OpaqueExpr})


def _operands_in_order(expr: ir.Expr, always: bool) -> list[tuple[ir.Expr, bool, bool]]:
    """The operands `evaluation_order` visits before `expr`, each with whether it is always
    evaluated (given whether `expr` is)."""
    if type(expr) not in _SHORT_CIRCUITS:  # most nodes: every operand evaluated, in order
        return [(operand, always, False) for operand in expr_children(expr)]
    match expr:
        case ir.BoolOp(_, (first, *rest)):
            flags = [always] + [False] * len(rest)
            operands: tuple[ir.Expr, ...] = (first, *rest)
        case ir.IfExp(test, body, orelse):
            flags, operands = [always, False, False], (test, body, orelse)
        case ir.Compare(_, (first, second, *rest)):
            flags = [always, always] + [False] * len(rest)
            operands = (first, second, *rest)
        case ir.OpaqueExpr():
            return []
        case _:
            operands = expr_children(expr)
            flags = [always] * len(operands)
    return [(operand, flag, False) for operand, flag in zip(operands, flags)]


class ValueNumbers:
    """A number for every expression node it is asked about, equal for two nodes exactly when
    they are equal (`==`: the same structure, constants by type and bits): what a pass that
    compares or counts many subexpressions uses instead of `==` and `hash`, which walk a
    node's whole subtree each time. Each node is numbered once, after its operands (without
    recursion); nodes are remembered by identity and kept alive, so keep one `ValueNumbers`
    for one pass run."""

    def __init__(self) -> None:
        self._table: dict[tuple[object, ...], int] = {}
        self._numbers: dict[int, tuple[ir.Expr, int]] = {}

    def of(self, expr: ir.Expr) -> int:
        """The number of `expr`."""
        stack: list[tuple[ir.Expr, bool]] = [(expr, False)]
        while stack:
            node, operands_done = stack.pop()
            if id(node) in self._numbers:
                continue
            if operands_done:
                key = self._key(node)
                self._numbers[id(node)] = (node, self._table.setdefault(key, len(self._table)))
            else:
                stack.append((node, True))
                stack.extend((child, False) for child in expr_children(node))
        return self._numbers[id(expr)][1]

    def _key(self, node: ir.Expr) -> tuple[object, ...]:
        """What `==` compares of `node`, its operands by their numbers."""
        def number(part: ir.Expr | None) -> int | None:
            return None if part is None else self._numbers[id(part)][1]

        def numbers(parts: tuple[ir.Expr | None, ...]) -> tuple[int | None, ...]:
            return tuple(map(number, parts))

        match node:
            case ir.Const(value):
                return (ir.Const, ir.const_key(value))
            case ir.Name(name):
                return (ir.Name, name)
            case ir.Op(op, args) | ir.BoolOp(op, args) | ir.Build(op, args):
                return (type(node), op, numbers(args))
            case ir.Compare(ops, operands):
                return (ir.Compare, ops, numbers(operands))
            case ir.IfExp(test, body, orelse):
                return (ir.IfExp, numbers((test, body, orelse)))
            case ir.Call(func, args, keywords):
                return (ir.Call, number(func), numbers(args),
                        tuple((kw.name, number(kw.value)) for kw in keywords))
            case ir.Attribute(value, attr):
                return (ir.Attribute, number(value), attr)
            case ir.Subscript(value, index):
                return (ir.Subscript, number(value), number(index))
            case ir.Slice(lower, upper, step):
                return (ir.Slice, numbers((lower, upper, step)))
            case ir.Starred(value):
                return (ir.Starred, number(value))
            case ir.DictDisplay(keys, values):
                return (ir.DictDisplay, numbers(keys), numbers(values))
            case ir.OpaqueExpr(node=code):
                return (ir.OpaqueExpr, ast.dump(code))
        return (type(node), "object", id(node))  # not IR: equal only to itself


def all_names(function: ir.Function) -> set[str]:
    """Every identifier the function mentions: parameters, variables, globals, opaque code."""
    names: frozenset[str] = _once(_all_names, function, _find_all_names)
    return set(names)


def _find_all_names(function: ir.Function) -> frozenset[str]:
    return frozenset(parameter_names(function)) | opaque_usage(function).all \
        | _contents(function).names


def fresh_name(wanted: str, taken: set[str], numbers: dict[str, int] | None = None) -> str:
    """`wanted`, or `wanted_2`, `wanted_3`... the first not in `taken`; it is added to it.
    `numbers`, for a `taken` that only grows, remembers the number of the last name given for
    each name wanted (all those below are taken), and the search goes on from there: a pass
    making hundreds of `add_result`s would otherwise try every one made before, each time."""
    number = numbers.get(wanted, 1) if numbers is not None else 1
    name = wanted if number == 1 else f"{wanted}_{number}"
    while name in taken:
        number += 1
        name = f"{wanted}_{number}"
    taken.add(name)
    if numbers is not None:
        numbers[wanted] = number
    return name


# passes that grow code (inlining, unrolling) stop when a function reaches this many IR nodes
MAX_FUNCTION_SIZE = 2000
# forward_single_uses builds no expression of more IR nodes than this: every pass walks
# expressions whole, many once per operand, so a chain of n statements merged into one expression
# would cost them n² steps (and Python's parser and compiler limit how deep an expression goes)
MAX_EXPRESSION_SIZE = 100


def expression_size(expr: ir.Expr) -> int:
    """The number of IR nodes in `expr`."""
    return sum(1 for _ in walk_expr(expr))


def body_size(body: tuple[ir.Stmt, ...]) -> int:
    """The number of IR nodes, statements and expression nodes, in `body`."""
    return sum(1 + sum(1 for expr in statement_expressions(stmt) for _ in walk_expr(expr))
               for stmt in walk_statements(body))


def size(function: ir.Function) -> int:
    """The number of IR nodes in the function's body (what the growing passes budget)."""
    return body_size(function.body)


# Checks at calls (inline_calls): `add(c, d)` inlined behind `if add is add_2:` or in
# `... if add is add_2 else add(c, d)` falls back to the call as written. The statements whose
# header a check may take whole, the call being all of it:
WHOLE_CALL_STATEMENTS = (ir.Assign, ir.AugAssign, ir.ExprStmt, ir.Return)


def falls_back(test: ir.Expr, call: ir.Expr) -> bool:
    """Whether `call` calls the name `test` checks (`add is add_2`; in generated code compiled
    again, `add_2` is a name too), or is the subscript of the receiver a method check tests
    (`m[i, j]` behind `type(m) is Matrix and getattr(Matrix, '__getitem__', None) is
    getitem`)."""
    return isinstance(test, ir.Compare) and test.ops == ("is",) \
        and isinstance(test.operands[0], ir.Name) \
        and isinstance(test.operands[1], (ir.Const, ir.Name)) \
        and isinstance(call, ir.Call) and call.func == test.operands[0] \
        or _method_fallback(test, call)


def _method_fallback(test: ir.Expr, operation: ir.Expr) -> bool:
    match _method_tested(test), operation:
        case (receiver, "__getitem__"), ir.Subscript(value):
            return value == receiver
        case (receiver, method), ir.Op(op, (left, _)):
            return (methods := binary_methods(op)) is not None and method == methods[0] \
                and left == receiver
    return False


def _method_tested(test: ir.Expr) -> tuple[ir.Expr, str] | None:
    """The receiver and the method a method check tests (`m` and `__getitem__` in `type(m) is
    Matrix and getattr(Matrix, '__getitem__', None) is getitem`, see
    analysis.methods.method_check), or None."""
    match test:
        case ir.BoolOp("and", (
                ir.Compare(("is",), (ir.Call(ir.Const(exact), (receiver,)), _)),
                ir.Compare(("is",), (ir.Call(ir.Const(lookup), (_, ir.Const(str() as method),
                                                                ir.Const(None))), _)), *_)) \
                if exact is type and lookup is getattr:
            return receiver, method
    return None


def check_fallback(stmt: ir.If) -> ir.Expr | None:
    """The call a check at a call falls back to (`if add is add_2: ... else: r = add(...)`,
    or any statement that is all that call: `else: t += add(...)`), or the subscript a method
    check of `__setitem__` falls back to storing (`else: m[i, j] = v`); or None."""
    if len(stmt.orelse) != 1:
        return None
    match _method_tested(stmt.test), stmt.orelse[0]:
        case (receiver, "__setitem__"), ir.Assign((ir.Subscript(value) as stored,)) \
                if value == receiver:
            return stored
    if isinstance(stmt.orelse[0], WHOLE_CALL_STATEMENTS) \
            and (call := header_expression(stmt.orelse[0])) is not None \
            and falls_back(stmt.test, call):
        return call
    return None


def fallback_size(body: tuple[ir.Stmt, ...]) -> int:
    """The IR nodes of `body` that are calls as written behind checks at calls (the `else`
    of `if add is add_2:`, the `add(c, d)` of `... if add is add_2 else add(c, d)`), which
    go wherever the code is clean again."""
    total = 0
    for stmt in walk_statements(body):
        if isinstance(stmt, ir.If) and check_fallback(stmt) is not None:
            total += body_size(stmt.orelse)
        for expr in statement_expressions(stmt):
            total += sum(expression_size(node.orelse) for node in walk_expr(expr)
                         if isinstance(node, ir.IfExp) and falls_back(node.test, node.orelse))
    return total


def has_opaque_parts(function: ir.Function) -> bool:
    return next(opaque_nodes(function), None) is not None


def reads(stmt: ir.Stmt, name: str) -> bool:
    """Whether running `stmt` (nested bodies included) may read the variable `name`; opaque
    code that mentions it counts as reading it."""
    for inner in walk_statements((stmt,)):
        if isinstance(inner, ir.Opaque):
            if name in opaque_names(inner.node).all:
                return True
            continue
        for expr in statement_expressions(inner, targets=False):
            for node in walk_expr(expr):
                if node == ir.Name(name) or (isinstance(node, ir.OpaqueExpr)
                                              and name in opaque_names(node.node).all):
                    return True
        if any(name in _names_read_by_target(target) for target in stored_targets(inner)):
            return True
        if isinstance(inner, ir.AugAssign) and inner.target == ir.Name(name):
            return True
    return False


def may_leave_block(stmt: ir.Stmt) -> bool:
    """Whether `stmt` may send control out of its block with `break` or `continue` (looking
    into opaque code too)."""
    for inner in walk_statements((stmt,)):
        if isinstance(inner, (ir.Break, ir.Continue)):
            return True
        if isinstance(inner, ir.Opaque) and any(isinstance(node, (ast.Break, ast.Continue))
                                                for node in ast.walk(inner.node)):
            return True
    return False


# ------------------------------------------------------------------------ liveness


def statement_reads(stmt: ir.Stmt) -> frozenset[str]:
    """The names the statement itself (not its nested bodies) may read; opaque code that
    mentions a name counts as reading it."""
    facts = _statement_facts.get()
    return _per_statement(facts.reads if facts is not None else None, stmt, _find_statement_reads)


def _find_statement_reads(stmt: ir.Stmt) -> frozenset[str]:
    if isinstance(stmt, ir.Opaque):
        return frozenset(opaque_names(stmt.node).all)
    names: set[str] = set()
    for expr in statement_expressions(stmt, targets=False):
        for node in walk_expr(expr):
            if isinstance(node, ir.Name):
                names.add(node.id)
            elif isinstance(node, ir.OpaqueExpr):
                names |= opaque_names(node.node).all
    for target in stored_targets(stmt):
        names.update(_names_read_by_target(target))
    if isinstance(stmt, ir.AugAssign) and isinstance(stmt.target, ir.Name):
        names.add(stmt.target.id)
    return frozenset(names)


def live_after(function: ir.Function) -> dict[int, frozenset[str]]:
    """For every statement (by `id`), the names whose values may be read after it runs: a
    name not in the set holds a dead value there (nothing reads it before it is assigned
    again or the function returns)."""
    result: dict[int, frozenset[str]] = {}
    _live_before(function.body, frozenset(), None, result)
    return result


# where `break` and `continue` go: the names live after the loop, and at its head
_LoopExits = tuple[frozenset[str], frozenset[str]] | None


def _live_before(body: tuple[ir.Stmt, ...], live: frozenset[str], loop: _LoopExits,
                 result: dict[int, frozenset[str]]) -> frozenset[str]:
    for stmt in reversed(body):
        # one statement object may stand in several places (unrolled copies): a name live
        # after any of them is live
        result[id(stmt)] = result.get(id(stmt), frozenset()) | live
        live = _live_through(stmt, live, loop, result)
    return live


def _live_through(stmt: ir.Stmt, live: frozenset[str], loop: _LoopExits,
                  result: dict[int, frozenset[str]]) -> frozenset[str]:
    """The names live before `stmt`, given those live after it."""
    reads = frozenset(statement_reads(stmt))
    match stmt:
        case ir.If(_, then, orelse):
            return reads | _live_before(then, live, loop, result) | _live_before(orelse, live, loop, result)
        case ir.For(_, _, body, orelse) | ir.While(_, body, orelse):
            after_else = _live_before(orelse, live, loop, result)
            bound = frozenset(assigned_names(stmt))  # a for loop's target, bound every turn
            head = after_else | (reads if isinstance(stmt, ir.While) else frozenset())
            while True:
                turn = _live_before(body, head, (live, head), result)
                new_head = head | (turn - bound) | (reads - bound if isinstance(stmt, ir.For) else reads)
                if new_head == head:
                    return head | reads
                head = new_head
        case ir.Break():
            return loop[0] if loop else live
        case ir.Continue():
            return loop[1] if loop else live
        case ir.Return() | ir.Raise():
            return reads
        case ir.Opaque():  # it may also break, continue or return
            return live | reads | (loop[0] | loop[1] if loop else frozenset())
    return (live - assigned_names(stmt)) | reads
