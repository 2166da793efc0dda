"""What one pass run did to the data flow, as two pictures: the DAG before and after it.

Part of the explain view (`explain.Explanation.step_pictures`, the HTML report, the
playground), on top of `dag.py`. Both pictures draw each value the code computes as its own
node (`dag.build_graph(..., merge=False)`), so a value is shared only where the code computes
it once and uses it again: the sharing common-subexpression elimination makes shows as new.

Nodes are matched by what they say (their code, with the variable they are stored in; lines
aside), as many times as it occurs on each side. A node with no match is marked: `removed`
in the before picture (the pass took it away or rewrote it), `added` in the after picture;
and where one new value used several times replaces several equal computations gone,
`merged` on both sides (CSE's `t = x * y` for two `x * y`), and a node reading the shared
value matches the node that computed it before (`t + 1` is `x * y + 1`), so only what the
pass changed is marked. A function too big to draw whole
(more than `dag.MAX_NODES` nodes) is drawn around its changes: the marked nodes and the
nodes one arrow from them.
"""

from __future__ import annotations

import ast
import collections
import re

from .. import ir
from . import dag
from .layered import Graph

__all__ = ["Change", "step_graphs", "to_dot"]

_LINE = re.compile(r"^line \d+: ")


class Change:
    """The before and after graphs of a pass run, marked, and how many nodes each mark has."""

    def __init__(self, before: Graph, after: Graph, cut: bool = False,
                 shares: tuple[tuple[str, str, int], ...] = ()) -> None:
        self.before, self.after, self.cut = before, after, cut
        self.shares = shares  # (variable, code, computations before) of each merged value
        self.counts = _counts(before, after)  # of the whole graphs, before any cut

    def around_changes(self) -> Change:
        """The change drawn around its marked nodes, if the function is too big to draw."""
        if max(len(self.before.labels), len(self.after.labels)) <= dag.MAX_NODES:
            return self
        cut = Change(_around_changes(self.before, dag.MAX_NODES),
                     _around_changes(self.after, dag.MAX_NODES), True, self.shares)
        cut.counts = self.counts
        return cut

    def summary(self) -> str:
        """`2 new, 3 gone, x * y computed 2 times made one value t`, or that no value changed."""
        counts = self.counts
        words = [f"{counts['added']} new"] if "added" in counts else []
        words += [f"{counts['removed']} gone"] if "removed" in counts else []
        words += [f"{code} computed {times} times made one value, {name}"
                  for name, code, times in self.shares]
        return ", ".join(words) or "no value changed (the pass changed only how the code is laid out)"


def _counts(before: Graph, after: Graph) -> dict[str, int]:
    """How many nodes each mark has: `added` and `merged` after, `removed` before."""
    marks = collections.Counter(after.marks.values())
    found = {"added": marks["added"], "removed": list(before.marks.values()).count("removed"),
             "merged": marks["merged"]}
    return {mark: count for mark, count in found.items() if count}


def _said(graph: Graph, node: int) -> str:
    """What a node says, lines aside: `e = a + b`, `return e`."""
    return f"{graph.kinds[node]}:{_LINE.sub('', graph.tips[node])}"


def _code(graph: Graph, node: int) -> str:
    """The code computing a node's value, without the variable it is stored in."""
    return _LINE.sub("", graph.tips[node]).split(" = ")[-1]


def _unmatched(graph: Graph, other: Graph) -> list[int]:
    """The nodes of `graph` saying something `other` says fewer times (the later ones)."""
    available = collections.Counter(_said(other, node) for node in other.labels)
    unmatched = []
    for node in graph.labels:
        key = _said(graph, node)
        if available[key]:
            available[key] -= 1
        else:
            unmatched.append(node)
    return unmatched


class _Named(ast.NodeTransformer):
    """Each read of a shared value's variable replaced by the code that computed it."""

    def __init__(self, codes: dict[str, ast.expr]) -> None:
        self.codes = codes

    def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802 (ast's name)
        return self.codes[node.id] if isinstance(node.ctx, ast.Load) and \
            node.id in self.codes else node


def _parsed(text: str) -> ast.Module | None:
    """`text` (a node's code: a value, `e = a + b`, `if n > 0:`) parsed, or None."""
    try:
        return ast.parse(text + "\n    pass" if text.endswith(":") else text)
    except SyntaxError:
        return None


def _normal(graph: Graph, node: int, codes: dict[str, ast.expr]) -> str:
    """What a node says, as its syntax tree, the shared values' variables read as their code."""
    text = _LINE.sub("", graph.tips[node])
    tree = _parsed(text)
    if tree is None:
        return f"{graph.kinds[node]}:{text}"
    return f"{graph.kinds[node]}:{ast.dump(_Named(codes).visit(tree))}"


Shares = list[tuple[str, str, int]]


def _merged(before: Graph, after: Graph, removed: list[int], added: list[int],
            shares: Shares) -> dict[str, ast.expr]:
    """Mark each new value used more than once that replaces two or more equal computations
    gone (each added to `shares`); the variables such values are stored in, with their code."""
    codes: dict[str, ast.expr] = {}
    for node in added:
        if after.kinds[node] != "value" or after.uses(node) < 2:
            continue
        code = _code(after, node)
        gone = [old for old in removed if before.marks[old] == "removed"
                and _code(before, old) == code]
        tree = _parsed(_LINE.sub("", after.tips[node]))
        if len(gone) < 2 or tree is None or not isinstance(tree.body[0], ast.Assign):
            continue
        after.marks[node] = "merged"
        after.tips[node] += (f" (computed once and used {after.uses(node)} times: before this "
                             f"pass, {len(gone)} computations of {code})")
        for old in gone:
            before.marks[old] = "merged"
            before.tips[old] += " (one value, shared, after this pass)"
        value = tree.body[0].value
        names = {target.id: value for target in tree.body[0].targets
                 if isinstance(target, ast.Name)}
        shares.append((", ".join(names), code, len(gone)))
        codes |= names
    return codes


def _merged_inputs(graph: Graph) -> None:
    """Mark merged, too, the values gone that only merged values used (the `x * x` inside
    each of two `x * x + y * y` made one)."""
    uses: dict[int, list[int]] = collections.defaultdict(list)
    for source, target in graph.edges:
        uses[source].append(target)
    for node in reversed(graph.labels):  # uses come later: ids are topological
        if graph.marks.get(node) == "removed" and uses[node] and \
                all(graph.marks.get(use) == "merged" for use in uses[node]):
            graph.marks[node] = "merged"


def _mark(before: Graph, after: Graph) -> Shares:
    """Mark what the pass changed (see the module); the values it made shared."""
    removed, added = _unmatched(before, after), _unmatched(after, before)
    before.marks.update(dict.fromkeys(removed, "removed"))
    after.marks.update(dict.fromkeys(added, "added"))
    shares: Shares = []
    codes = _merged(before, after, removed, added, shares)
    if not codes:
        return shares
    _merged_inputs(before)
    available = collections.defaultdict(list)  # the removed nodes, by what they say
    for old in removed:
        if before.marks[old] == "removed":
            available[_normal(before, old, {})].append(old)
    for node in added:
        if after.marks[node] == "added" and available[key := _normal(after, node, codes)]:
            del before.marks[available[key].pop(0)], after.marks[node]
    return shares


def _around_changes(graph: Graph, limit: int) -> Graph:
    """The marked nodes (the first `limit // 2`) and the nodes one arrow from them, in order,
    numbered again."""
    marked = set(list(graph.marks)[:limit // 2])
    kept = set(marked)
    for source, target in graph.edges:
        if len(kept) >= limit:
            break
        if source in marked or target in marked:
            kept |= {source, target}
    result = Graph()
    new: dict[int, int] = {}
    for node in sorted(kept):
        new[node] = result.add(graph.labels[node], graph.kinds[node], graph.tips[node])
        if node in graph.marks:
            result.marks[new[node]] = graph.marks[node]
    for source, target in graph.edges:
        if source in new and target in new:
            result.connect(new[source], new[target])
    return result


def step_graphs(before: ir.Function, after: ir.Function) -> Change:
    """The marked DAGs of the function before and after a pass run (see the module)."""
    old, new = dag.build_graph(before, merge=False), dag.build_graph(after, merge=False)
    shares = _mark(old, new)
    return Change(old, new, shares=tuple(shares)).around_changes()


def to_dot(change: Change, name: str = "dag") -> str:
    """Graphviz DOT text: the before and after pictures side by side, as two clusters."""
    lines = [f"digraph {dag.dot_string(name)} {{", "  rankdir=TB;",
             "  node [fontname=monospace, fontsize=11];", '  edge [color="#667"];']
    for side, graph in (("before", change.before), ("after", change.after)):
        lines += [f"  subgraph cluster_{side} {{", f'    label="{side}";']
        lines += dag.dot_body(graph, prefix=f"{side[0]}", indent="    ") + ["  }"]
    return "\n".join(lines + ["}"]) + "\n"
