"""A layered drawing of a directed acyclic graph, as SVG: symcompile's own graph layout.

Used by the DAG view (`dag.py`) when Graphviz is not installed, and so by the HTML report,
which must draw anywhere. The method is Sugiyama's, kept small: nodes go into layers (each
one below the lowest of its sources, at most `MAX_PER_LAYER` a layer, an input just above its
first use), an arrow down more than `LONG` layers starts at a dashed reference to its source
drawn near its use (so no picture widens with long arrows), the other arrows bend through
the layers they cross, barycentre sweeps order each layer to cross few arrows, and x
positions pull each node toward its neighbours. Arrows are curves with arrowheads.
"""

from __future__ import annotations

import html
import zlib
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["input", "value", "statement", "group", "reference"]
# what a pass did to a node, in its before/after pictures (`dag_steps.py`)
Mark = Literal["added", "removed", "merged"]
MAX_LABEL = 32  # characters of a node's label (its tooltip has the whole)
MAX_PER_LAYER = 6
MAX_IN = 6
LONG = 3
MAX_BENDS = 6  # arrows passing through a layer; more start at references
ROW, GAP, MARGIN, CHAR = 64, 18, 12, 7.2  # px: layer distance, node gap, border, glyph width
BOX = 22  # px: a box's height


def short(text: str) -> str:
    """`text`, cut to `MAX_LABEL` characters with `…`."""
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "…"


@dataclass
class Graph:
    """Nodes (id → label, kind, tooltip) and arrows (from a value to a use), ids in an order
    where every arrow goes from a lower id to a higher one."""

    labels: dict[int, str] = field(default_factory=dict)
    kinds: dict[int, Kind] = field(default_factory=dict)
    tips: dict[int, str] = field(default_factory=dict)
    edges: list[tuple[int, int]] = field(default_factory=list)
    marks: dict[int, Mark] = field(default_factory=dict)
    _edge_set: set[tuple[int, int]] = field(default_factory=set, repr=False)

    def add(self, label: str, kind: Kind, tip: str = "") -> int:
        node = len(self.labels)
        self.labels[node], self.kinds[node], self.tips[node] = label, kind, tip or label
        return node

    def connect(self, source: int | None, target: int) -> None:
        if source is not None and (source, target) not in self._edge_set:
            self._edge_set.add((source, target))
            self.edges.append((source, target))

    def uses(self, node: int) -> int:
        """How many arrows leave `node`."""
        return sum(1 for source, _ in self.edges if source == node)



@dataclass
class _Layout:
    """A layered drawing: each node's layer and position; long arrows pass through bends."""

    graph: Graph
    layer: dict[int, int] = field(default_factory=dict)
    rows: list[list[int]] = field(default_factory=list)  # ids; bends are negative
    x: dict[int, float] = field(default_factory=dict)
    paths: list[list[int]] = field(default_factory=list)  # each arrow: source, bends, target
    shared: set[int] = field(default_factory=set)  # values with more than one use

    def width(self, node: int) -> float:
        return 8.0 if node < 0 else 14 + CHAR * len(self.graph.labels[node])


def _layers(graph: Graph) -> dict[int, int]:
    """Each node one layer below the lowest of its inputs, in a layer with room (at most
    `MAX_PER_LAYER` nodes); an input just above its first use, or if no layer above has room,
    in rows of their own at the top."""
    sources: dict[int, list[int]] = {node: [] for node in graph.labels}
    for source, target in graph.edges:
        sources[target].append(source)
    layer: dict[int, int] = {}
    count: dict[int, int] = {}
    for node in graph.labels:  # ids are topological
        if graph.kinds[node] != "input":
            wanted = max([1, *(layer.get(source, -1) + 1 for source in sources[node])])
            while count.get(wanted, 0) >= MAX_PER_LAYER:
                wanted += 1
            layer[node] = wanted
            count[wanted] = count.get(wanted, 0) + 1
    crowded = 0
    for node in graph.labels:
        if graph.kinds[node] == "input":
            uses = [layer[target] for source, target in graph.edges if source == node]
            wanted = min(uses, default=1) - 1
            while wanted >= 0 and count.get(wanted, 0) >= MAX_PER_LAYER:
                wanted -= 1
            if wanted < 0:
                wanted, crowded = -1 - crowded // MAX_PER_LAYER, crowded + 1
            layer[node] = wanted
            count[wanted] = count.get(wanted, 0) + 1
    top = min(layer.values(), default=0)
    return {node: row - top for node, row in layer.items()}


def _gathered(graph: Graph) -> Graph:
    """The graph with at most `MAX_IN` arrows into a node: the others come from one node
    `+ 293 more` (its tooltip names them); inputs left with no arrow are not drawn."""
    sources: dict[int, list[int]] = {}
    for source, target in graph.edges:
        sources.setdefault(target, []).append(source)
    result = Graph(dict(graph.labels), dict(graph.kinds), dict(graph.tips), marks=dict(graph.marks))
    for target in sorted(sources):
        kept, rest = sources[target][:MAX_IN - 1], sources[target][MAX_IN - 1:]
        if len(rest) == 1:
            kept, rest = kept + rest, []
        for source in kept:
            result.connect(source, target)
        if rest:
            names = ", ".join(graph.labels[source] for source in rest)
            result.connect(result.add(f"+ {len(rest)} more", "reference", names), target)
    unused = {node for node, kind in graph.kinds.items() if kind == "input"} - \
        {source for source, _ in result.edges}
    for node in unused:
        del result.labels[node], result.kinds[node], result.tips[node]
        result.marks.pop(node, None)
    return _renumbered(result)


def _renumbered(graph: Graph) -> Graph:
    """`graph` with ids 0, 1, ... in a topological order (inputs first)."""
    targets: dict[int, list[int]] = {}
    waiting = {node: 0 for node in graph.labels}
    for source, target in graph.edges:
        targets.setdefault(source, []).append(target)
        waiting[target] += 1
    ready = sorted((node for node, count in waiting.items() if count == 0),
                   key=lambda node: (graph.kinds[node] != "input", node))
    order: list[int] = []
    while ready:
        node = ready.pop(0)
        order.append(node)
        for target in targets.get(node, ()):
            waiting[target] -= 1
            if waiting[target] == 0:
                ready.append(target)
        ready.sort()
    new = {old: index for index, old in enumerate(order)}
    result = Graph()
    for old in order:
        result.add(graph.labels[old], graph.kinds[old], graph.tips[old])
        if old in graph.marks:
            result.marks[new[old]] = graph.marks[old]
    for source, target in graph.edges:
        result.connect(new[source], new[target])
    return result


def _with_bends(layout: _Layout) -> None:
    """Rows of nodes, and a bend in every row an arrow passes through."""
    depth = max(layout.layer.values(), default=0) + 1
    layout.rows = [[] for _ in range(depth)]
    for node in layout.graph.labels:
        layout.rows[layout.layer[node]].append(node)
    bend = -1
    for source, target in layout.graph.edges:
        path = [source]
        for row in range(layout.layer[source] + 1, layout.layer[target]):
            layout.rows[row].append(bend)
            path.append(bend)
            bend -= 1
        layout.paths.append(path + [target])


def _order(layout: _Layout, sweeps: int = 4) -> None:
    """Reorder each row by the mean position of its neighbours in the row above (then
    below), which uncrosses most arrows."""
    above: dict[int, list[int]] = {}
    below: dict[int, list[int]] = {}
    for path in layout.paths:
        for upper, lower in zip(path, path[1:]):
            above.setdefault(lower, []).append(upper)
            below.setdefault(upper, []).append(lower)
    for sweep in range(sweeps):
        downward = sweep % 2 == 0
        rows = range(1, len(layout.rows)) if downward else range(len(layout.rows) - 2, -1, -1)
        for index in rows:
            near = layout.rows[index - 1] if downward else layout.rows[index + 1]
            place = {node: position for position, node in enumerate(near)}
            links = above if downward else below
            current = {node: position for position, node in enumerate(layout.rows[index])}

            def centre(node: int) -> float:
                found = [place[other] for other in links.get(node, ()) if other in place]
                return sum(found) / len(found) if found else current[node]

            layout.rows[index].sort(key=centre)


def _place(layout: _Layout, passes: int = 6) -> None:
    """x positions: each node pulled toward its neighbours, in its row's order, the picture
    no wider than its widest row packed."""
    neighbours: dict[int, list[int]] = {}
    for path in layout.paths:
        for a, b in zip(path, path[1:]):
            neighbours.setdefault(a, []).append(b)
            neighbours.setdefault(b, []).append(a)
    width = max((sum(layout.width(node) + GAP for node in row) - GAP for row in layout.rows),
                default=0.0)
    for row in layout.rows:
        used = sum(layout.width(node) + GAP for node in row) - GAP
        _spread(layout, row, width, {node: (width - used) / 2 for node in row})
    for _ in range(passes):
        for row in layout.rows:
            wanted = {node: sum(layout.x[other] for other in neighbours[node]) /
                      len(neighbours[node]) if neighbours.get(node) else layout.x[node]
                      for node in row}
            _spread(layout, row, width, wanted)
    layout.x = {node: x + MARGIN for node, x in layout.x.items()}


def _spread(layout: _Layout, row: list[int], width: float, wanted: dict[int, float]) -> None:
    """Each node of `row` as near its wanted x as the order, the gaps and `width` allow."""
    right: float = width + GAP
    for node in reversed(row):
        right = min(wanted[node] + layout.width(node) / 2, right - GAP)
        layout.x[node] = right - layout.width(node) / 2
        right -= layout.width(node)
    left: float = -GAP
    for node in row:
        layout.x[node] = max(layout.x[node], left + GAP + layout.width(node) / 2)
        left = layout.x[node] + layout.width(node) / 2


def _referenced(graph: Graph, layer: dict[int, int]) -> Graph:
    """The graph with each long arrow starting at a reference to its value (`↑ a0`, dashed)
    one layer above its use, so no arrow runs down past many layers and widens them all (nor
    through a layer that `MAX_BENDS` arrows pass already)."""
    result = Graph(dict(graph.labels), dict(graph.kinds), dict(graph.tips), marks=dict(graph.marks))
    references: dict[tuple[int, int], int] = {}
    bends: dict[int, int] = {}
    for source, target in graph.edges:
        row = layer[target] - 1
        crossed = range(layer[source] + 1, layer[target])
        if len(crossed) < LONG and all(bends.get(other, 0) < MAX_BENDS for other in crossed):
            for other in crossed:
                bends[other] = bends.get(other, 0) + 1
            result.connect(source, target)
            continue
        if (source, row) not in references:
            node = result.add(_reference(graph, source), "reference",
                              f"drawn above: {graph.tips[source]}")
            references[source, row], layer[node] = node, row
        result.connect(references[source, row], target)
    return result


def _reference(graph: Graph, source: int) -> str:
    """The label of a reference to `source`: `↑ a0`, `↑ lines 2-17`."""
    label = graph.labels[source]
    name = label.split(" = ")[0] if graph.kinds[source] in ("value", "input") else \
        label.split(":")[0] if graph.kinds[source] == "group" else label
    return f"↑ {name}" if len(name) <= 20 else f"↑ {name[:19]}…"


def layout(graph: Graph) -> _Layout:
    """symcompile's own layered layout of `graph`."""
    graph = _gathered(graph)
    layers = _layers(graph)
    result = _Layout(_referenced(graph, layers), layers)
    result.shared = {node for node in graph.labels if graph.uses(node) > 1}
    _with_bends(result)
    _order(result)
    _place(result)
    return result


_FILL = {"input": "#fff7d6", "value": "#ffffff", "statement": "#e8eef8", "group": "#eeeeee",
         "reference": "#f8f8f8"}
# a marked node's fill and border: new in the pass (green), gone (red, dashed), several
# computations made one shared value (purple)
MARK_STYLE: dict[Mark, tuple[str, str]] = {
    "added": ("#dafbe1", 'stroke="#1a7f37" stroke-width="2.5"'),
    "removed": ("#ffebe9", 'stroke="#cf222e" stroke-width="2" stroke-dasharray="5 3"'),
    "merged": ("#f3e8ff", 'stroke="#8250df" stroke-width="3"'),
}


def _look(drawn: _Layout, node: int) -> tuple[str, str, str]:
    """A node's classes, fill and border attributes."""
    kind, mark = drawn.graph.kinds[node], drawn.graph.marks.get(node)
    classes = " ".join(["node", kind, *(["shared"] if node in drawn.shared else []),
                        *([mark] if mark else [])])
    if mark is not None:
        return (classes, *MARK_STYLE[mark])
    stroke = 'stroke="#c05a00" stroke-width="2"' if node in drawn.shared else \
        'stroke="#446" stroke-dasharray="4 3"' if kind == "reference" else 'stroke="#446"'
    return classes, _FILL[kind], stroke


def to_svg(graph: Graph) -> str:
    """The SVG picture of `graph`, laid out here."""
    drawn = layout(graph)
    # an id of its own for the arrowhead, the same for the same picture (pages stay stable)
    marker = f"arrow-{zlib.crc32(repr((graph.labels, graph.edges)).encode()):08x}"
    width = max((drawn.x[n] + drawn.width(n) / 2 for row in drawn.rows for n in row),
                default=0.0) + MARGIN
    height = ROW * max(len(drawn.rows) - 1, 0) + BOX + 2 * MARGIN  # no empty band below
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dag" width="{width:.0f}" '
             f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
             'font-family="monospace" font-size="12">',
             f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="10" refY="5" '
             'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
             '<path d="M0,0 L10,5 L0,10 z" fill="#667"/></marker></defs>']
    rows_of = {node: index for index, row in enumerate(drawn.rows) for node in row}
    for path in drawn.paths:
        points = [(drawn.x[node], MARGIN + 11 + ROW * rows_of[node]) for node in path]
        (x0, y0), rest = points[0], points[1:]
        d = f"M{x0:.1f},{y0 + 11:.1f}"
        previous = (x0, y0 + 11)
        for index, (px, py) in enumerate(rest):
            end_y = py - 11 if index == len(rest) - 1 else py
            middle = (previous[1] + end_y) / 2
            d += f" C{previous[0]:.1f},{middle:.1f} {px:.1f},{middle:.1f} {px:.1f},{end_y:.1f}"
            previous = (px, end_y)
        parts.append(f'<path d="{d}" fill="none" stroke="#667" marker-end="url(#{marker})"/>')
    for node, label in drawn.graph.labels.items():
        x, top, w = drawn.x[node], MARGIN + ROW * drawn.layer[node], drawn.width(node)
        kind = drawn.graph.kinds[node]
        classes, fill, stroke = _look(drawn, node)
        radius = 11 if kind == "input" else 2 if kind == "statement" else 6
        parts.append(f'<g class="{classes}"><title>'
                     f'{html.escape(drawn.graph.tips[node])}</title>'
                     f'<rect x="{x - w / 2:.1f}" y="{top:.1f}" width="{w:.1f}" height="{BOX}" '
                     f'rx="{radius}" fill="{fill}" {stroke}/>'
                     f'<text x="{x:.1f}" y="{top + 15:.1f}" text-anchor="middle">'
                     f'{html.escape(label)}</text></g>')
    return "\n".join(parts + ["</svg>"])
