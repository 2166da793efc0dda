"""Every pass alone, over the whole corpus, under the differential oracle.

The whole pipeline is checked in tests/test_corpus.py; here each pass runs by itself, so a
pass that is only correct because another one cleans up after it is caught. Where a pass
changes nothing in a function, its output must be the faithful translation.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

import symcompile as sc
from symcompile.passes import pipeline
from tests.corpus import CORPUS_BY_NAME, CORPUS_NAMES
from tests.test_corpus import check_differential

PER_PASS_SETTINGS = settings(
    max_examples=8, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

_faithful: dict[str, str] = {}


def _faithful_source(name: str) -> str:
    if name not in _faithful:
        _faithful[name] = str(sc.symbolic(CORPUS_BY_NAME[name], passes=[]).source)
    return _faithful[name]


@pytest.mark.parametrize("run_pass", pipeline.PASSES, ids=[p.__name__ for p in pipeline.PASSES])
@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_pass_alone_matches_original(name: str, run_pass: pipeline.Pass) -> None:
    compiled = sc.symbolic(CORPUS_BY_NAME[name], passes=[run_pass])
    source = str(compiled.source)
    if source == _faithful_source(name):
        return  # the pass found nothing to do here; the faithful translation is tested elsewhere
    check_differential(name, compiled, PER_PASS_SETTINGS,
                       f"\n--- {name} after {run_pass.__name__} alone ---\n{source}")
