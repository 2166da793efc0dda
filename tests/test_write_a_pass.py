"""docs/write-a-pass.md, followed literally: the page's pass, placed in the pipeline as the
page says, passes the checks the page promises every pass of the pipeline passes.

The page's blocks run as they are (tests/test_docs.py checks what they print); this takes the
pass they define, puts it at the end of `pipeline.PASSES` and runs it through the notes checks
(tests/test_notes.py: a run that changed something says what, one that changed nothing says
nothing) and, alone, through the differential oracle over the corpus
(tests/test_passes_differential.py).
"""

from __future__ import annotations

import pytest

from symcompile.backend import codegen
from symcompile.passes import pipeline
from tests import test_passes_differential as differential
from tests.corpus import CORPUS_BY_NAME, CORPUS_NAMES
from tests.test_docs import DOCS, run_page

PAGE = DOCS / "write-a-pass.md"


def run_the_page() -> dict[str, object]:
    """The names the page's blocks define, run in order."""
    namespace: dict[str, object] = {}
    run_page(PAGE, namespace)
    return namespace


@pytest.fixture(scope="module")
def page() -> dict[str, object]:
    return run_the_page()


@pytest.fixture(scope="module")
def registered(page: dict[str, object]) -> pipeline.Pass:
    found = page["divide_by_multiplying"]
    assert callable(found)
    return found  # type: ignore[return-value]


@pytest.mark.slow  # compiles the whole corpus twice with the page's pass
def test_the_page_pass_reports_what_it_changed_and_only_that(page: dict[str, object],
                                                              registered: pipeline.Pass):
    passes = [*pipeline.PASSES, registered]
    # the corpus, and the page's own examples (the corpus hardly divides by powers of two)
    functions = [*CORPUS_BY_NAME.values(), page["midpoint"].original, page["scaled"].original]
    fired = 0
    for function in functions:
        parameters = function.__code__.co_varnames[:function.__code__.co_argcount]
        for argument_types in ({}, dict.fromkeys(parameters, float)):
            _, _, log = pipeline.optimize(function, passes, argument_types=argument_types)
            for run in log:
                said = [note for note in run.notes if note.kind == "changed"]
                assert bool(said) == run.changed, (function.__name__, run.name, run.round, said)
                # and explain can show each one (the template and subjects are as the page says)
                assert all(note.text(codegen.expression_text) for note in said)
                fired += run.changed and run.name == registered.__name__
    assert fired, "the page's pass never fired: the check checks nothing"


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_the_page_pass_alone_matches_the_original(name: str, registered: pipeline.Pass):
    differential.test_pass_alone_matches_original(name, registered)
