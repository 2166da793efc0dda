"""The explain view: its text (golden files in tests/explain/, timings masked), the HTML report
(parsed: every section, every pass, the DAG picture, nothing loaded from outside) and the DAG
in DOT."""

from __future__ import annotations

import ast
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import hypothesis
import pytest

import symcompile as sc
from symcompile.backend import codegen
from symcompile.examples import fancy
from symcompile.tools.explain import explain
from tests import corpus

EXPLAIN_DIR = Path(__file__).parent / "explain"


def masked(text: str) -> str:
    """The text with its timings masked (they differ from run to run)."""
    return re.sub(r"\d+\.\d+ ms", "… ms", text)


def add(a, b):
    return a + b


def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g


def main():
    return fancy_func(1, 2, 3, 4)


def kept_opaque(xs):
    total = 0.0
    with open(xs) as handle:
        total += len(handle.read())
    return [x * 2 for x in range(3)], total


@pytest.mark.parametrize("name, func, args", [
    ("fancy_func", fancy.fancy_func, (1, 2, 3, 4)),
    ("fancy_main", main, ()),
])
def test_text_explanation(name: str, func, args, update_golden: bool) -> None:
    produced = masked(str(explain(func, *args)))
    path = EXPLAIN_DIR / f"{name}.txt"
    if update_golden or not path.exists():
        path.write_text(produced, encoding="utf-8")
        pytest.skip(f"wrote {path}")
    assert produced == path.read_text(encoding="utf-8")


def test_explanation_shows_every_changing_pass_and_the_final_source() -> None:
    explanation = explain(fancy.fancy_func, 1, 2, 3, 4)
    text = str(explanation)
    assert [step.name for step in explanation.steps][:2] == ["inline_calls", "propagate"]
    for step in explanation.steps:
        assert f"=== {step.name} (round {step.round}): " in text
        assert step.nodes_before != step.nodes_after or step.diff
    assert text.index("the generated source") > text.index("inline_calls")
    assert "return e + f if add is add_2 else add(e, f)" in explanation.final
    assert "stale = add is not add_2" in explanation.final


def test_kept_as_written_says_what_and_why() -> None:
    explanation = explain(kept_opaque, "x")
    line = kept_opaque.__code__.co_firstlineno + 2
    assert f"line {line}: with open(xs) as handle: kept as written: with statement" in explanation.kept
    assert any("[x * 2 for x in range(3)]" in line for line in explanation.kept)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_report_is_self_contained_and_complete(tmp_path: Path) -> None:
    explanation = explain(fancy.fancy_func, 1, 2, 3, 4)
    path = tmp_path / "report.html"
    explanation.to_html(path)
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    tags = [tag for tag, _ in page.tags]
    assert "svg" in tags and tags.count("rect") >= 5
    sections = [attrs.get("id") for tag, attrs in page.tags if tag == "section"]
    assert sections == [f"step-{index}" for index in range(len(explanation.steps))]
    for tag, attrs in page.tags:
        assert tag not in ("script", "link", "img", "iframe")
        assert not any(str(value).startswith(("http:", "https:", "//"))
                       for key, value in attrs.items() if key in ("src", "href"))
    text = "".join(page.text)
    for heading in ("The original", "The pipeline", "The generated source", "The expression DAG",
                    "Kept as written", "Left alone"):
        assert heading in text
    assert explanation.html_page() == path.read_text(encoding="utf-8")


def test_dag_is_dot_with_shared_subexpressions_once() -> None:
    def square_sum(x, y):
        return (x + y) * (x + y)

    dot = explain(square_sum, 1.5, 2.5).dag()
    assert dot.startswith('digraph "') and dot.rstrip().endswith("}")
    labels = re.findall(r'label="([^"]*)"', dot)
    # one node for both (x + y), stored in a local or not: the expressions form a DAG
    assert len([label for label in labels if label in ("x + y", "t = x + y")]) == 1
    assert len(re.findall(r"-> ", dot)) == dot.count("->")


def documented(x, n):
    """A docstring
    over two lines."""
    total = 0.0
    for i in range(n):
        total += x * 1.0
    text = """a string
    over lines"""
    return total, text


def test_comments_say_where_each_statement_came_from() -> None:
    compiled = sc.symbolic(main, comments=True)
    assert compiled() == 10
    line = main.__code__.co_firstlineno + 1
    assert f"    return 10  # line {line}: return fancy_func(1, 2, 3, 4) (inline fancy_func, add ×3;" \
        in str(compiled.source)


def test_comments_never_change_the_code() -> None:
    """No comment inside a string spanning lines; the commented source runs the same."""
    compiled = sc.symbolic(documented, comments=True)
    plain = sc.symbolic(documented)
    assert compiled(2.0, 3) == plain(2.0, 3) == documented(2.0, 3)
    source = sc.source(compiled, 2.0, 3)
    assert "# line" in source
    stripped = [line.split("  # line")[0] for line in source.splitlines()]
    assert ast.dump(ast.parse("\n".join(stripped))) == ast.dump(ast.parse(sc.source(plain, 2.0, 3)))


def test_each_hunk_is_labelled_with_the_rules_applied_at_its_lines() -> None:
    explanation = explain(fancy.fancy_func, 1, 2, 3, 4)
    inline = explanation.steps[0]
    assert inline.name == "inline_calls"
    headers = [line for line in inline.diff.splitlines() if line.startswith("@@")]
    checked = "inline add behind a check of add at the call (code the compiler cannot see " \
        "may run before it)"
    assert headers == [f"@@ -1,5 +1,7 @@  inline add (line 9); {checked} (line 10); "
                       f"{checked} (line 11)"]
    forward = next(step for step in explanation.steps if step.name == "forward_single_uses")
    assert "@@  forward g = e + f if add is add else add(e, f) (line 11)" in forward.diff


def square(x):
    return x * x


def distance(x1, y1, x2, y2):
    return math.sqrt(square(x2 - x1) + square(y2 - y1))


def test_always_explainable_left_alone_never_contradicts_what_was_done() -> None:
    """Round 1 refuses to inline square (math.sqrt is looked up first); round 2, with sqrt
    bound, inlines it: the refusal is history in round 2's step, not something left alone."""
    explanation = explain(distance, 0.0, 0.0, 3.0, 4.0)
    assert explanation.missed == ()
    assert "nothing" == str(explanation).split("=== left alone ===\n")[1].strip()
    inline = next(step for step in explanation.steps if step.name == "inline_calls")
    assert inline.round == 2
    said = [note.text(codegen.expression_text) for note in inline.lifted]
    assert said == [f"not inlined square: other work comes before it in its statement (line "
                    f"{distance.__code__.co_firstlineno + 1})"]
    assert f"  (left alone in round 1: {said[0]})" in str(explanation)


def _called(source: str) -> set[str]:
    """The callees in `source`, as written (`np.dot`) and by their last name (`dot`)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            names.add(ast.unparse(node.func))
            if isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)
    return names


def _a_call(name: str) -> tuple[tuple, dict]:
    calls = corpus.corners(name)
    if calls:
        return calls[0]
    # the first call hypothesis generates, the same in every run (shrinking it to the simplest
    # took most of this test's time, 1-2 s for each entry drawing arrays)
    return hypothesis.find(corpus.arguments(name), lambda _: True, settings=hypothesis.settings(
        database=None, derandomize=True, phases=[hypothesis.Phase.generate]))


@pytest.mark.parametrize("name", corpus.CORPUS_NAMES)
def test_always_explainable_every_call_left_alone_is_in_the_final_code(name: str) -> None:
    """Over the corpus: each `not inlined X` under "left alone" leaves a call to X."""
    args, kwargs = _a_call(name)
    explanation = explain(corpus.CORPUS_BY_NAME[name], *args, **kwargs)
    calls = _called(explanation.final)
    for line in explanation.missed:
        refused = re.match(r"not inlined (.+?): ", line)
        if refused:
            assert refused.group(1) in calls, (line, explanation.final)
