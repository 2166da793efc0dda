"""The DAG view (issue 14 #1): nodes in the student's terms, arrows with arrowheads, a value
used twice drawn once with two arrows out, pictures of bounded size for a 300-statement
function, and Graphviz used only when its `dot` is installed."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from symcompile.tools import dag, layered
from symcompile.tools.explain import explain


def add(a, b):
    return a + b


def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g


def shared(x, y):
    t = x * y + 1.0
    print(t)
    return t - 1.0


def countdown(n):
    if n <= 0:
        return 0
    return countdown(n - 1) + 1


def _chain(length: int) -> str:
    body = [f"    a{i} = a{i - 1} * {i % 7 + 1}.0 + y" for i in range(1, length)]
    return "\n".join(["def chain(x, y):", "    a0 = x + y", *body, f"    return a{length - 1}"])


def _size(svg: str) -> tuple[float, float]:
    found = re.search(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"', svg)
    assert found, svg[:200]
    return float(found.group(1)), float(found.group(2))


@pytest.fixture
def no_graphviz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dag.shutil, "which", lambda name: None)


def test_always_explainable_nodes_are_named_in_the_students_terms() -> None:
    graph = dag.build_graph(explain(fancy_func, 1, 2, 3, 4).final_ir)
    labels = set(graph.labels.values())
    assert {"a", "b", "c", "d", "e = a + b", "add(e, f)"} <= labels  # inputs, stored, callee
    assert any(label.startswith("return ") for label in labels)
    assert not labels & {"call", "exprstmt", "opaque", "store =", "ifexp"}
    recursive = dag.build_graph(explain(countdown, 3).final_ir)
    assert "countdown(n - 1)" in recursive.labels.values()
    assert "if n <= 0:" in recursive.labels.values()
    assert {graph.kinds[node] for node, label in graph.labels.items() if len(label) == 1} == {"input"}


def test_always_explainable_a_shared_value_is_drawn_once_with_two_arrows_out(no_graphviz) -> None:
    graph = dag.build_graph(explain(shared, 1.5, 2.5).final_ir)
    [node] = [node for node, label in graph.labels.items() if label == "t = x * y + 1.0"]
    uses = [graph.labels[target] for source, target in graph.edges if source == node]
    assert sorted(uses) == ["print(t)", "return t - 1.0"]
    svg = dag.to_svg(graph)
    assert svg.count(">t = x * y + 1.0</text>") == 1
    assert re.search(r'<g class="node value shared"><title>line \d+: t = x \* y \+ 1\.0</title>', svg)


def test_always_explainable_arrows_have_arrowheads(no_graphviz) -> None:
    svg = dag.to_svg(dag.build_graph(explain(fancy_func, 1, 2, 3, 4).final_ir))
    [marker] = re.findall(r'<marker id="([\w-]+)"', svg)
    paths = re.findall(r'<path d="M[^"]*" fill="none"[^>]*>', svg)
    assert len(paths) >= 8
    assert all(f'marker-end="url(#{marker})"' in path for path in paths)
    dot = explain(fancy_func, 1, 2, 3, 4).dag()
    assert "rankdir=TB" in dot and "arrowhead=none" not in dot


@pytest.mark.slow  # size test: a 300-statement function
def test_always_explainable_a_300_statement_function_gives_pictures_of_sane_size(
        make_module, no_graphviz) -> None:
    module = make_module(_chain(300))
    explanation = explain(module.chain, 1.0, 2.0)
    pictures = dag.pictures(explanation.final_ir)
    assert 2 <= len(pictures) <= dag.MAX_GROUPS + 1
    assert pictures[0][0].endswith("groups of statements, and what flows between them")
    for title, graph in pictures:
        width, height = _size(dag.to_svg(graph))
        assert width <= 1600 and height <= 4000, (title, width, height)
        assert len(graph.labels) <= 2 * dag.MAX_NODES
    page = explanation._repr_html_()
    assert page.count("<details><summary>line") == len(pictures) - 1


def test_many_arrows_into_one_node_are_gathered(make_module, no_graphviz) -> None:
    names = [f"r{i}" for i in range(40)]
    source = "\n".join(["def wide(x):", *(f"    {name} = x * {i}.5" for i, name in
                                           enumerate(names)), f"    return ({', '.join(names)})"])
    graph = dag.build_graph(explain(make_module(source).wide, 2.0).final_ir)
    drawn = layered.layout(graph)
    [more] = [label for label in drawn.graph.labels.values() if label.startswith("+ ")]
    assert more == f"+ {40 - layered.MAX_IN + 1} more"
    width, _ = _size(dag.to_svg(graph))
    assert width <= 1600
    assert max(len(row) for row in drawn.rows) <= layered.MAX_PER_LAYER + layered.MAX_BENDS + 6


def test_graphviz_draws_when_its_dot_is_installed(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\ncat > " + str(tmp_path / "input.dot") + "\n"
                    "echo '<?xml version=\"1.0\"?>'\necho '<svg width=\"10pt\">drawn</svg>'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(dag.shutil, "which", lambda name: str(fake) if name == "dot" else None)
    graph = dag.build_graph(explain(fancy_func, 1, 2, 3, 4).final_ir)
    assert dag.to_svg(graph) == '<svg class="dag" width="10pt">drawn</svg>\n'
    assert (tmp_path / "input.dot").read_text() == dag.to_dot(graph)
    fake.write_text("#!/bin/sh\nexit 1\n")  # a broken Graphviz: symcompile draws it itself
    assert "<marker" in dag.to_svg(graph)


# ---- a pass's before/after pictures (issue 14 #1: what inlining, folding and CSE did)


def norm_ratio(x, y):
    return (x * x + y * y) / (1.0 + (x * x + y * y))


def _marked(graph: layered.Graph) -> list[tuple[str, str | None, int]]:
    return [(graph.labels[node], graph.marks.get(node), graph.uses(node)) for node in graph.labels]


def test_always_explainable_inlining_takes_away_the_three_add_calls() -> None:
    explanation = explain(fancy_func, 1, 2, 3, 4)
    change = explanation.step_of("inline_calls").change()
    calls = [(label, mark) for label, mark, _ in _marked(change.before) if "add(" in label]
    assert calls == [("e = add(a, b)", "removed"), ("f = add(c, d)", "removed"),
                     ("g = add(e, f)", "removed")]
    assert ("e = add_a + add_b", "added") in [(label, mark) for label, mark, _ in _marked(change.after)]
    assert change.summary().endswith("3 gone")


def test_always_explainable_folding_shows_the_constant_10_it_made() -> None:
    from tests.corpus import fancy_main
    explanation = explain(fancy_main)
    last_fold = [step for step in explanation.steps if step.name == "fold_constants"][-1]
    change = last_fold.change()
    assert ("return 3 + 7", "removed") in \
        [(label, mark) for label, mark, _ in _marked(change.before)]
    assert [(label, mark) for label, mark, _ in _marked(change.after) if mark] == \
        [("return 10", "added")]
    before, after = explanation.step_pictures(last_fold.title)
    assert before[0] == f"before {last_fold.title}" and after[0] == f"after {last_fold.title}"
    assert re.search(r'<g class="node statement added"><title>[^<]*</title><rect [^>]*'
                     r'fill="#dafbe1"[^>]*/><text[^>]*>return 10</text>', after[1])


def test_always_explainable_cse_shows_one_shared_node_where_there_were_two() -> None:
    explanation = explain(norm_ratio, 1.5, 2.5)
    step = explanation.step_of("eliminate_common_subexpressions")
    change = step.change()
    assert [entry for entry in _marked(change.before) if entry[0] == "x * x + y * y"] == \
        [("x * x + y * y", "merged", 1)] * 2
    after = _marked(change.after)
    assert [entry for entry in after if entry[1]] == [("t = x * x + y * y", "merged", 2)]
    # what reads the shared value computes what it did before: not marked
    assert ("1.0 + t", None, 1) in after
    assert change.summary() == "x * x + y * y computed 2 times made one value, t"
    dot = explanation.dag(step=step.title)
    assert "subgraph cluster_before" in dot and "subgraph cluster_after" in dot
    # the two sums and the second sum's own x * x and y * y; the one shared sum after
    assert dot.count('color="#8250df"') == 5


def test_every_step_of_the_report_has_its_before_and_after_pictures() -> None:
    explanation = explain(norm_ratio, 1.5, 2.5)
    page = explanation.html_page()
    assert page.count('<details class="dag-step" open>') == len(explanation.steps) >= 1
    assert page.count('<figure class="before"') == page.count('<figure class="after"') == \
        len(explanation.steps)
    with pytest.raises(ValueError, match="no pass run named 'vectorize_loops' changed norm_ratio"):
        explanation.step_of("vectorize_loops")


@pytest.mark.slow  # size test: a 300-statement function
def test_a_300_statement_function_is_drawn_around_each_passs_changes(
        make_module, no_graphviz) -> None:
    explanation = explain(make_module(_chain(300)).chain, 1.0, 2.0)
    assert explanation.steps
    for step in explanation.steps:
        change = step.change()
        assert change.cut
        for graph in (change.before, change.after):
            assert len(graph.labels) <= dag.MAX_NODES
            width, height = _size(dag.to_svg(graph))
            assert width <= 1600 and height <= 4000, (step.title, width, height)


def test_always_explainable_a_return_of_a_name_stored_by_another_group_is_drawn() -> None:
    """newton_cbrt's final IR ends with `return out` alone in its group, `out` an input there
    (stored by an earlier group): the return is a statement node reading it, not a relabelled
    operation (drawing the page raised KeyError)."""
    from benchmarks import bench_loops
    final = explain(bench_loops.newton_cbrt, [1.0, 8.0, 27.5]).final_ir
    assert final is not None
    drawn = [dag.to_svg(graph) for _, graph in dag.pictures(final)]
    assert any(re.search(r'<g class="node statement[^"]*"><title>[^<]*return out</title>', svg)
               for svg in drawn)
