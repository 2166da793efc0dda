"""Every pass's docstring example runs: the code shown after the pass is what it produces."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from symcompile.passes import pipeline
from tests import golden


def example_of(run_pass: pipeline.Pass) -> str:
    doc = sys.modules[run_pass.__module__].__doc__ or ""
    _, marker, rest = doc.partition("Example::\n")
    assert marker, f"{run_pass.__module__} has no 'Example::' block in its docstring"
    return textwrap.dedent(rest)


@pytest.mark.parametrize("run_pass", pipeline.PASSES, ids=[p.__name__ for p in pipeline.PASSES])
def test_docstring_example(run_pass: pipeline.Pass, tmp_path: Path) -> None:
    path = tmp_path / f"{run_pass.__name__}_example.py"
    path.write_text(example_of(run_pass))
    case = golden.read_case(path)
    assert case.stage == run_pass.__name__
    produced = golden.produce(case)
    assert golden.same_code(case.after, produced), f"expected\n{case.after}\ngot\n{produced}"
