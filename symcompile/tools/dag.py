"""The data flow of a function, as pictures a student learns from: Graphviz DOT text, or SVG.

Part of the explain view. A node is a value in the student's terms: an input (a parameter or
a global, `x`), a computed value shown as the code that computes it (`add(a, b)`, `x + y`),
with the variable it is stored in (`e = a + b`), or a statement that uses values (`return
g`, `print(t)`, `if n > 0`). Arrows go from a value to each place that uses it, so a value
used twice is one node with two arrows out: that sharing is what makes the expressions a DAG
rather than a tree (constants are written into the code of the values that use them).

Pictures are layered top-down, the arrows pointing down (`layered.py`). A function with more
than `MAX_NODES` nodes is drawn as an overview of its statement groups (consecutive
statements, at most `MAX_GROUPS`) and a picture per group, so no picture grows with the
function. Graphviz's `dot` lays out the SVG when it is installed; symcompile's own layout
(`layered.to_svg`) otherwise, so the HTML report draws anywhere.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import itertools
import math
import shutil
import subprocess
from collections.abc import Iterator

from .. import ir
from ..backend.codegen import expression_text
from ..ir.names import stored_targets
from ..ir.ops import OPS
from ..ir.rewrite import (
    expr_children,
    nested_bodies,
    replace_first,
    statement_expressions,
    walk_statements,
)
from . import layered
from .layered import Graph, Kind
from .layered import short as _short

__all__ = ["Graph", "build_graph", "dot_body", "dot_string", "pictures", "statement_text", "to_dot", "to_svg"]

MAX_NODES = 80  # more, and the function is drawn as statement groups
MAX_GROUPS = 20
DOT_TIMEOUT = 20  # seconds Graphviz may take before symcompile draws the picture itself


# Inside `texts_remembered`, each expression's text is written once: a value's text holds its
# operands' (written again for each), and a pass run's DAGs before and after share most
# expressions with each other and with the next run's. By the expression's id, the expression
# kept with its text (so no id is reused while remembered).
_texts: contextvars.ContextVar[dict[int, tuple[ir.Expr, str]] | None] = contextvars.ContextVar(
    "symcompile_dag_texts", default=None)


@contextlib.contextmanager
def texts_remembered() -> Iterator[None]:
    """Remember each expression's text while the block draws (the report's pictures)."""
    token = _texts.set({} if _texts.get() is None else _texts.get())
    try:
        yield
    finally:
        _texts.reset(token)


def _text(expr: ir.Expr | None) -> str:
    if expr is None:
        return ""
    texts = _texts.get()
    if texts is None:
        return expression_text(expr, limit=10_000)
    if id(expr) not in texts:
        texts[id(expr)] = (expr, expression_text(expr, limit=10_000))
    return texts[id(expr)][1]


def operation_text(expr: ir.Expr) -> str:
    """A value's label: its code, or if that is too long for a box its own operation, each
    operand drawn as a node of its own written `…` (`… * 3.0`, `add(…, y)`)."""
    text = _text(expr)
    if len(text) <= layered.MAX_LABEL:
        return text
    for child in expr_children(expr):
        callee = isinstance(expr, ir.Call) and child is expr.func
        if not callee and not isinstance(child, (ir.Const, ir.Name)):
            expr = replace_first(expr, child, ir.Name("…"))
    return _short(_text(expr))


def statement_text(stmt: ir.Stmt) -> str:
    """The first line of the statement as Python: `return g`, `for i in range(n):`."""
    match stmt:
        case ir.Assign(targets, value):
            return " = ".join([*map(_text, targets), _text(value)])
        case ir.AugAssign(target, op, value):
            return f"{_text(target)} {OPS[op].spelling}= {_text(value)}"
        case ir.If(test):
            return f"if {_text(test)}:"
        case ir.While(test):
            return f"while {_text(test)}:"
        case ir.For(target, iterable):
            return f"for {_text(target)} in {_text(iterable)}:"
        case ir.Return(value):
            return f"return {_text(value)}".rstrip()
        case ir.Raise(exc, cause):
            return f"raise {_text(exc)}" + (f" from {_text(cause)}" if cause is not None else "")
        case ir.ExprStmt(value):
            return _text(value)
        case ir.Opaque(node):
            return ast.unparse(node).splitlines()[0]
    return type(stmt).__name__.lower()  # break, continue


class _Builder:
    """Builds the graph of some statements, reading each variable from the node that last
    stored it (a variable stored before these statements is an input)."""

    def __init__(self, params: set[str], merge: bool = True) -> None:
        self.graph = Graph()
        self.params = params
        self.merge = merge  # equal values one node (the textbook DAG), or each evaluation one
        self.stored: dict[str, int] = {}  # variable → the node holding its value
        self.inputs: dict[str, int] = {}
        self.values: dict[tuple[str, tuple[int | None, ...]], int] = {}
        self.names: dict[int, list[str]] = {}
        self.operations: dict[int, str] = {}  # each value's label, as `operation_text`

    def read(self, name: str) -> int:
        if name in self.stored:
            return self.stored[name]
        if name not in self.inputs:
            tip = "a parameter" if name in self.params else "read from outside"
            self.inputs[name] = self.graph.add(name, "input", f"{name}: {tip}")
        return self.inputs[name]

    def value(self, expr: ir.Expr) -> int | None:
        """The node of `expr`'s value (None for a constant or a callee read from outside)."""
        match expr:
            case ir.Const():
                return None
            case ir.Name(name):
                return self.read(name)
        children = [self._operand(expr, child) for child in expr_children(expr)]
        key = (_text(expr), tuple(children))
        if self.merge and key in self.values and not isinstance(expr, (ir.Call, ir.OpaqueExpr)):
            return self.values[key]  # one node for equal values: the DAG's sharing
        node = self.graph.add(operation_text(expr), "value", key[0])
        self.operations[node] = self.graph.labels[node]
        for child in children:
            self.graph.connect(child, node)
        self.values[key] = node
        return node

    def _operand(self, parent: ir.Expr, child: ir.Expr) -> int | None:
        is_callee = isinstance(parent, ir.Call) and child is parent.func
        if is_callee and not (isinstance(child, ir.Name) and child.id in self.stored):
            return None  # `add(a, b)` names its callee
        return self.value(child)

    def store(self, name: str, node: int, stmt: ir.Stmt) -> None:
        names = self.names.setdefault(node, [])
        names.append(name)
        code = self.graph.tips[node].split(" = ")[-1]
        whole = f"{', '.join(names)} = {code}"
        self.graph.labels[node] = whole if len(whole) <= layered.MAX_LABEL else \
            _short(f"{', '.join(names)} = {self.operations.get(node, code)}")
        self.graph.tips[node] = f"line {stmt.loc.line}: {', '.join(names)} = {code}" \
            if stmt.loc.line else f"{', '.join(names)} = {code}"
        self.stored[name] = node

    def statement(self, stmt: ir.Stmt) -> None:
        match stmt:
            case ir.Assign((ir.Name(name),), value) if not isinstance(value, (ir.Name, ir.Const)):
                node = self.value(value)
                assert node is not None
                self.store(name, node, stmt)
                return
        text = statement_text(stmt)
        fresh = len(self.graph.labels)
        uses = [self.value(expr) for expr in statement_expressions(stmt, targets=False)]
        if isinstance(stmt, (ir.Return, ir.ExprStmt)) and uses[0] is not None and \
                uses[0] >= fresh and uses[0] in self.operations and not self.graph.uses(uses[0]):
            self._becomes_statement(uses[0], text, stmt)  # `return a + b`: one node
            return
        targets = stored_targets(stmt)
        reads = [self._reads_of_target(target) for target in targets]
        kind: Kind = "value" if isinstance(stmt, (ir.Assign, ir.AugAssign)) else "statement"
        where = f"line {stmt.loc.line}: " if stmt.loc.line else ""
        node = self.graph.add(_short(text), kind, where + text)
        if isinstance(stmt, ir.AugAssign) and isinstance(stmt.target, ir.Name):
            self.graph.connect(self.read(stmt.target.id), node)
        for source in [*uses, *itertools.chain.from_iterable(reads)]:
            self.graph.connect(source, node)
        for target in targets:
            for name in _stored_names(target):
                self.stored[name] = node

    def _becomes_statement(self, node: int, text: str, stmt: ir.Stmt) -> None:
        operation = ("return " if isinstance(stmt, ir.Return) else "") + self.operations[node]
        self.graph.labels[node] = text if len(text) <= layered.MAX_LABEL else _short(operation)
        self.graph.kinds[node] = "statement"
        self.graph.tips[node] = f"line {stmt.loc.line}: {text}" if stmt.loc.line else text

    def _reads_of_target(self, target: ir.Expr) -> list[int | None]:
        """`self.x = ...` reads `self`; `a[i] = ...` reads `a` and `i`."""
        if isinstance(target, (ir.Attribute, ir.Subscript)):
            return [self.value(child) for child in expr_children(target)]
        return []


def _stored_names(target: ir.Expr) -> list[str]:
    match target:
        case ir.Name(name):
            return [name]
        case ir.Build(_, items):
            return [name for item in items for name in _stored_names(item)]
        case ir.Starred(item):
            return _stored_names(item)
    return []


def _params(function: ir.Function) -> set[str]:
    args = function.params
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return {arg.arg for arg in every if arg is not None}


def _graph_of(function: ir.Function, statements: list[ir.Stmt], merge: bool = True) -> Graph:
    builder = _Builder(_params(function), merge)
    for stmt in statements:
        builder.statement(stmt)
    return builder.graph


def build_graph(function: ir.Function, merge: bool = True) -> Graph:
    """The data flow of every statement of `function`: equal values (same code, same inputs)
    one node, as the textbook draws an expression DAG; with `merge=False` each value the code
    computes its own node, so a value is shared only where the code computes it once and uses
    it again (what a pass's before/after pictures show, `dag_steps.py`)."""
    return _graph_of(function, list(walk_statements(function.body)), merge)


def _groups(function: ir.Function) -> list[list[ir.Stmt]]:
    """The statements, in source order, cut into at most `MAX_GROUPS` runs of equal length
    (a statement with a body comes with the statements of its body)."""
    units = [[stmt, *walk_statements(tuple(itertools.chain(*nested_bodies(stmt))))]
             for stmt in function.body]
    if len(units) < MAX_GROUPS:  # a long loop body: cut the flat list instead
        units = [[stmt] for stmt in walk_statements(function.body)]
    size = math.ceil(len(units) / MAX_GROUPS)
    return [list(itertools.chain(*units[start:start + size])) for start in range(0, len(units), size)]


def _lines(statements: list[ir.Stmt]) -> str:
    lines = [stmt.loc.line for stmt in statements if stmt.loc.line]
    if not lines:
        return f"{len(statements)} statements"
    return f"line {lines[0]}" if min(lines) == max(lines) else f"lines {min(lines)}-{max(lines)}"


def overview(function: ir.Function, groups: list[list[ir.Stmt]]) -> Graph:
    """One node a statement group, an arrow where a group uses a value another stored."""
    graph = Graph()
    params = _params(function)
    inputs: dict[str, int] = {}
    stored_by: dict[str, int] = {}
    for statements in groups:
        inner = _graph_of(function, statements)
        outside = [inner.labels[node] for node, kind in inner.kinds.items() if kind == "input"]
        names = [name for stmt in statements for target in stored_targets(stmt)
                 for name in _stored_names(target)]
        stored = ", ".join(dict.fromkeys(names))
        label = _lines(statements) + (f": {stored}" if stored else "")
        node = graph.add(_short(label), "group",
                         f"{_lines(statements)}, {len(statements)} statements; stores {stored}")
        for name in outside:
            if name in stored_by:
                graph.connect(stored_by[name], node)
            elif name in params:
                if name not in inputs:
                    inputs[name] = graph.add(name, "input", f"{name}: a parameter")
                graph.connect(inputs[name], node)
        stored_by.update(dict.fromkeys(names, node))
    return graph


def pictures(function: ir.Function) -> list[tuple[str, Graph]]:
    """What to draw for `function`: its graph, or for a big one the overview of its statement
    groups and then each group's graph, each with a title."""
    whole = build_graph(function)
    if len(whole.labels) <= MAX_NODES:
        return [("", whole)]
    groups = _groups(function)
    return [(f"{len(groups)} groups of statements, and what flows between them",
             overview(function, groups))] + \
        [(_lines(statements), _graph_of(function, statements)) for statements in groups]


# ------------------------------------------------------------------ DOT


_DOT_STYLE: dict[str, dict[str, str]] = {
    "input": {"shape": "ellipse", "style": "filled", "fillcolor": "#fff7d6"},
    "value": {"shape": "box", "style": "rounded,filled", "fillcolor": "#ffffff"},
    "statement": {"shape": "box", "style": "filled", "fillcolor": "#e8eef8"},
    "group": {"shape": "box", "style": "filled", "fillcolor": "#eeeeee"},
    "reference": {"shape": "box", "style": "dashed,filled", "fillcolor": "#f8f8f8"},
    # a value used more than once; what a pass did to a node (`dag_steps.py`)
    "shared": {"color": "#c05a00", "penwidth": "2"},
    "added": {"color": "#1a7f37", "fillcolor": "#dafbe1", "penwidth": "2.5"},
    "removed": {"color": "#cf222e", "fillcolor": "#ffebe9", "penwidth": "2",
                "style": "dashed,filled"},
    "merged": {"color": "#8250df", "fillcolor": "#f3e8ff", "penwidth": "3"},
}


def dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot_body(graph: Graph, prefix: str = "n", indent: str = "  ") -> list[str]:
    """The DOT lines of the graph's nodes and arrows (node ids `prefix` + number)."""
    lines = []
    for node, label in graph.labels.items():
        look = graph.marks.get(node) or ("shared" if graph.uses(node) > 1 else "")
        style = {**_DOT_STYLE[graph.kinds[node]], **_DOT_STYLE.get(look, {})}
        attributes = ", ".join(f"{key}={dot_string(value)}" for key, value in style.items())
        lines.append(f"{indent}{prefix}{node} [label={dot_string(label)}, tooltip="
                     f"{dot_string(graph.tips[node])}, {attributes}];")
    return lines + [f"{indent}{prefix}{source} -> {prefix}{target};"
                    for source, target in graph.edges]


def to_dot(graph: Graph, name: str = "dag") -> str:
    """Graphviz DOT text for the graph (arrows from a value to its uses, top-down)."""
    lines = [f"digraph {dot_string(name)} {{", "  rankdir=TB;",
             "  node [fontname=monospace, fontsize=11];", '  edge [color="#667"];']
    return "\n".join(lines + dot_body(graph) + ["}"]) + "\n"


def _dot_svg(graph: Graph) -> str | None:
    """The picture as Graphviz draws it, or None without a working `dot`."""
    dot = shutil.which("dot")
    if dot is None:
        return None
    try:
        done = subprocess.run([dot, "-Tsvg"], input=to_dot(graph), capture_output=True,
                              text=True, timeout=DOT_TIMEOUT, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    start = done.stdout.find("<svg")
    if start < 0:
        return None
    return done.stdout[start:].replace("<svg ", '<svg class="dag" ', 1)


def to_svg(graph: Graph) -> str:
    """An SVG picture of the graph: Graphviz's if `dot` is installed, else symcompile's."""
    return _dot_svg(graph) or layered.to_svg(graph)
