"""Round trips over the whole corpus: source → IR → source → IR → source is stable, and the
verifier accepts what the front end builds."""

from __future__ import annotations

import types

import pytest

from symcompile.backend import codegen
from symcompile.frontend import build as frontend
from symcompile.ir.verify import verify
from symcompile.passes import pipeline
from tests.corpus import CORPUS


def _plain(function: object) -> types.FunctionType:
    assert isinstance(function, types.FunctionType)
    return function


@pytest.mark.parametrize("function", CORPUS, ids=[f.__name__ for f in CORPUS])
def test_ir_source_ir_source_is_stable(function: object) -> None:
    first_ir = verify(frontend.build_function(frontend.read_function_source(_plain(function))))
    first_source = codegen.render_function(first_ir).source
    second_ir = verify(frontend.function_from_text(first_source))
    second_source = codegen.render_function(second_ir).source
    assert second_source == first_source
    assert second_ir.body == first_ir.body


@pytest.mark.parametrize("function", CORPUS, ids=[f.__name__ for f in CORPUS])
def test_empty_pipeline_returns_the_same_object(function: object) -> None:
    before = frontend.build_function(frontend.read_function_source(_plain(function)))
    after, log = pipeline.run_passes(before, ())
    assert after is before and log == []
