"""Always explainable, fast: what explain does to be fast must tell what doing it the long way
tells. Its renderings (`codegen.Rendering.places`) find the places where a comment may go, and so
where each line came from, walking only the blocks of statements: exactly the places found
walking every node and tokenizing (`places_walking_every_node`). It renders and counts each IR of
the log once, a run's IR after being the next changing run's before: each step's diff and sizes
are those of its own IRs rendered from scratch. It pauses the cyclic garbage collector, as a
compilation does: and leaves it as it found it."""

from __future__ import annotations

import ast
import difflib
import gc
import textwrap
import types

import pytest

import symcompile as sc
from benchmarks.bench_compile import chain_source
from symcompile.backend import codegen
from symcompile.examples import fancy
from symcompile.frontend import build as frontend
from symcompile.ir.names import size
from symcompile.runtime import api
from symcompile.tools import dag, report
from symcompile.tools.explain import explain
from tests import corpus

BLOCKS = '''
def blocks(xs, n):
    total = 0
    for x in xs:
        try:
            total += x
        except TypeError as error:
            total -= 1
            if n > 2:
                continue
        else:
            total *= 2
        finally:
            n += 1
    while n > 0:
        n -= 1
    else:
        total += 1
    match n:
        case 0:
            total += 10
        case _:
            total += 20
    def inner(y):
        return y + total
    with open(__file__) as handle:
        size = len(handle.read(1))
    return inner(total), size
'''

STRINGS = '''
def strings(a):
    """A docstring
    over two lines."""
    text = f"{a} and {a + 1}"
    other = 'x' + "y"
    return text + other + ("p"
                           "q")
'''


def _both(function: types.FunctionType) -> tuple[codegen.Rendering, codegen.Rendering]:
    built = frontend.build_function(frontend.read_function_source(function),
                                    frontend.namespace_of(function))
    rendered = codegen.rendering(built)
    return rendered, codegen.Rendering(rendered.node, rendered.text, rendered.parsed)


@pytest.mark.parametrize("source, fast, places", [(BLOCKS, True, 10), (STRINGS, False, 3)])
def test_explain_places_are_codegens_for_every_kind_of_block(make_module, source: str,
                                                             fast: bool, places: int) -> None:
    module = make_module(source)
    function = next(value for name, value in vars(module).items()
                    if isinstance(value, types.FunctionType) and name in ("blocks", "strings"))
    rendered, fast_rendered = _both(function)
    assert bool(codegen._SPANNING.search(rendered.text)) is not fast
    assert fast_rendered.places == rendered.places_walking_every_node()
    assert len(rendered.places) == places  # the nested statements' too
    comments = {line: f"from line {line}" for _, line in rendered.places}.get
    assert fast_rendered.commented(lambda line: comments(line) or "") \
        == rendered.commented(lambda line: comments(line) or "")


@pytest.mark.parametrize("source", [BLOCKS, STRINGS])
def test_explain_places_are_codegens_with_every_statement_from_a_users_line(source: str) -> None:
    """Statements nested in every kind of block (handlers, match cases, nested defs), each
    from a line of the user's: the same places, in the same (breadth-first) order."""
    node = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(node, ast.FunctionDef)
    for number, stmt in enumerate(s for s in ast.walk(node) if isinstance(s, ast.stmt)):
        setattr(stmt, codegen.LINE, 1000 - number)  # not in the order of the text
    text = codegen.render(node)
    rendered = codegen.Rendering(node, text, ast.parse(text))
    assert rendered.places == rendered.places_walking_every_node()
    assert len(rendered.places) == (21 if source is BLOCKS else 4)


def _corpus_calls(every: int) -> list[tuple[str, types.FunctionType, tuple[object, ...]]]:
    """Every `every`-th corpus function with a plain call, and the call's arguments."""
    found = [(name, function, tuple(calls[0][0]))
             for name, function in corpus.CORPUS_BY_NAME.items()
             if (calls := corpus.corners(name)) and not calls[0][1]
             and name not in corpus.ALWAYS_RAISES]
    return found[::every]


SAMPLED = [pytest.param(1, marks=pytest.mark.slow, id="whole"), pytest.param(8, id="sampled")]


@pytest.mark.parametrize("every", SAMPLED)
def test_explain_places_are_codegens_over_the_corpus(every: int) -> None:
    """Corpus functions' front-end IR and compiled IR: the same places."""
    walked = 0
    for name, function, args in _corpus_calls(every):
        version = api.version_for(sc.symbolic(function), *args)
        for ir_function in (version.before, version.ir):
            if ir_function is None:
                continue
            rendered = codegen.rendering(ir_function)
            assert rendered.places == rendered.places_walking_every_node(), name
            walked += not codegen._SPANNING.search(rendered.text)
    assert walked > 100 // every  # most took the walk over blocks, not the tokenizer


def _diff_body(before: str, after: str) -> list[str]:
    """The unified diff's lines (hunk headers and file names aside), by difflib, two lines of
    context, no junk."""
    old = before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    lines: list[str] = []
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(2):
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + line for line in old[i1:i2]]
            else:
                lines += ["-" + line for line in old[i1:i2]] + ["+" + line for line in new[j1:j2]]
    return lines


def _steps_checked(explanation) -> int:
    for step in explanation.steps:
        assert step.before is not None and step.after is not None
        assert (step.nodes_before, step.nodes_after) == (size(step.before), size(step.after))
        body = [line for line in step.diff.splitlines(keepends=True)[2:]
                if not line.startswith("@@")]
        assert body == _diff_body(codegen.rendering(step.before).text,
                                  codegen.rendering(step.after).text), step.title
    return len(explanation.steps)


def test_explain_steps_are_each_runs_own_irs_rendered_from_scratch(make_module) -> None:
    """A chain changed by five pass runs, one after another (a later run rewriting what an
    earlier one made)."""
    module = make_module(chain_source(30))
    assert _steps_checked(explain(module.f, 1.5, 2)) >= 4


@pytest.mark.parametrize("every", SAMPLED)
def test_explain_steps_are_their_own_irs_rendered_from_scratch_over_the_corpus(every: int,
                                                                               ) -> None:
    """The corpus functions more than one pass run changed."""
    checked = 0
    for _, function, args in _corpus_calls(every):
        explanation = explain(function, *args)
        if len(explanation.steps) > 1:
            checked += _steps_checked(explanation)
    assert checked > 16 // every


def test_explain_pauses_the_collector_and_leaves_it_as_it_found_it(monkeypatch) -> None:
    seen: list[bool] = []
    rendering = codegen.rendering

    def watched(function):
        seen.append(gc.isenabled())
        return rendering(function)

    monkeypatch.setattr("symcompile.backend.codegen.rendering", watched)
    assert gc.isenabled()
    assert explain(fancy.fancy_func, 1, 2, 3, 4).steps
    assert seen and not any(seen) and gc.isenabled()
    with pytest.raises(TypeError):
        explain(fancy.fancy_func, 1)  # no version for these arguments
    assert gc.isenabled()
    gc.disable()
    try:
        explain(fancy.fancy_func, 1.5, 2, 3, 4)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_explain_report_pictures_with_texts_remembered_are_those_drawn_afresh(make_module,
                                                                              ) -> None:
    """The report writes each expression's text once for all its DAG pictures: every picture
    (each pass run's before and after, the final DAG) as drawn with no text remembered."""
    explanation = explain(make_module(chain_source(30)).f, 1.5, 2)
    afresh = [report.step_dag(step) for step in explanation.steps] + [explanation.dag_svg()]
    with dag.texts_remembered():
        remembered = [report.step_dag(step) for step in explanation.steps]
        remembered.append(explanation.dag_svg())
        assert dag._texts.get()  # (it did remember)
    assert dag._texts.get() is None
    assert len(afresh) >= 5 and remembered == afresh
