"""The expression DAG of a function, as a graph to draw: Graphviz DOT text, or an SVG picture.

Part of the explain view. Every statement is a box; its expressions hang below it. Equal
subexpressions are one node (the IR compares nodes structurally, and that is what makes the
expressions a DAG), so a value used twice has two edges into it. The SVG is laid out by
symcompile itself (rows by depth, no Graphviz needed), so the HTML report draws it anywhere.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from .. import ir
from ..analysis.attributes import static_attribute
from ..ir.rewrite import expr_children, statement_expressions, walk_statements

MAX_LABEL = 28


@dataclass
class Graph:
    """Nodes (id → label, and whether it is a statement) and edges (parent id, child id)."""

    labels: dict[int, str] = field(default_factory=dict)
    statements: set[int] = field(default_factory=set)
    edges: list[tuple[int, int]] = field(default_factory=list)


def _short(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "…"


def _label(expr: ir.Expr) -> str:
    match expr:
        case ir.Const(value):
            return _short(repr(value) if isinstance(value, (int, float, complex, str, bool, type(None)))
                          else str(static_attribute(value, "__name__", type(value).__name__)))
        case ir.Name(name):
            return name
        case ir.Op(op):
            return op
        case ir.Compare(ops):
            return " ".join(ops)
        case ir.BoolOp(op) | ir.Build(op):
            return op
        case ir.OpaqueExpr(text=text):
            return _short(text)
    return type(expr).__name__.lower()


def _statement_label(stmt: ir.Stmt) -> str:
    line = f"{stmt.loc.line}: " if stmt.loc.line else ""
    match stmt:
        case ir.Assign(targets):
            names = ", ".join(target.id for target in targets if isinstance(target, ir.Name))
            return f"{line}{names or 'store'} ="
        case ir.AugAssign(ir.Name(name), op):
            return f"{line}{name} {op}="
    return f"{line}{type(stmt).__name__.lower()}"


def build_graph(function: ir.Function) -> Graph:
    """The statements of `function` and the DAG of their expressions."""
    graph = Graph()
    ids: dict[ir.Expr, int] = {}

    def visit(expr: ir.Expr) -> int:
        if expr in ids:
            return ids[expr]
        node = ids[expr] = len(graph.labels)
        graph.labels[node] = _label(expr)
        for child in expr_children(expr):
            graph.edges.append((node, visit(child)))
        return node

    for stmt in walk_statements(function.body):
        node = len(graph.labels)
        graph.labels[node] = _statement_label(stmt)
        graph.statements.add(node)
        for expr in statement_expressions(stmt, targets=False):
            graph.edges.append((node, visit(expr)))
    return graph


def to_dot(graph: Graph, name: str = "dag") -> str:
    """Graphviz DOT text for the graph."""
    lines = [f'digraph "{name}" {{', "  node [fontname=monospace];"]
    for node, label in graph.labels.items():
        shape = "box" if node in graph.statements else "ellipse"
        escaped = label.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'  n{node} [label="{escaped}", shape={shape}];')
    lines += [f"  n{parent} -> n{child};" for parent, child in graph.edges]
    return "\n".join(lines + ["}"]) + "\n"


def _depths(graph: Graph) -> dict[int, int]:
    """Each node's row: one below its lowest parent (statements on row 0)."""
    depth = {node: 0 for node in graph.statements}
    for _ in range(len(graph.labels)):
        changed = False
        for parent, child in graph.edges:
            wanted = depth.get(parent, 0) + 1
            if depth.get(child, -1) < wanted:
                depth[child], changed = wanted, True
        if not changed:
            break
    return depth


def to_svg(graph: Graph) -> str:
    """An SVG picture of the graph: rows by depth, edges as lines, no outside tools."""
    depth = _depths(graph)
    rows: dict[int, list[int]] = {}
    for node in graph.labels:
        rows.setdefault(depth.get(node, 0), []).append(node)
    width_of = {node: 12 + 7 * len(label) for node, label in graph.labels.items()}
    position: dict[int, tuple[float, float]] = {}
    widest = 0.0
    for row, nodes in sorted(rows.items()):
        x = 10.0
        for node in nodes:
            position[node] = (x + width_of[node] / 2, 20 + row * 60)
            x += width_of[node] + 14
        widest = max(widest, x)
    height = 40 + 60 * max(rows, default=0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dag" width="{widest:.0f}" '
             f'height="{height}" font-family="monospace" font-size="12">']
    for parent, child in graph.edges:
        (x1, y1), (x2, y2) = position[parent], position[child]
        parts.append(f'<line x1="{x1:.0f}" y1="{y1 + 10:.0f}" x2="{x2:.0f}" y2="{y2 - 10:.0f}" '
                     'stroke="#888"/>')
    for node, label in graph.labels.items():
        x, y = position[node]
        w = width_of[node]
        radius = 2 if node in graph.statements else 10
        fill = "#e8eef8" if node in graph.statements else "#fff"
        parts.append(f'<rect x="{x - w / 2:.0f}" y="{y - 10:.0f}" width="{w}" height="20" '
                     f'rx="{radius}" fill="{fill}" stroke="#446"/>')
        parts.append(f'<text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle">'
                     f'{html.escape(label)}</text>')
    return "\n".join(parts + ["</svg>"])
