"""Runs every golden before/after file (see tests/golden.py), and tests the golden machinery."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import golden

CASES = golden.all_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_golden_case(case: golden.GoldenCase, update_golden: bool) -> None:
    produced = golden.produce(case)
    if update_golden and not golden.same_code(case.after, produced):
        golden.rewrite(case, produced)
        pytest.skip(f"rewrote {case.path}")
    assert golden.same_code(case.after, produced), (
        f"{case.path}: expected\n{case.after}\ngot\n{produced}")


def test_there_are_golden_cases_for_the_pipeline() -> None:
    assert len([case for case in CASES if case.stage == "pipeline"]) >= 5


def test_a_wrong_expectation_fails_and_update_rewrites_it(tmp_path: Path) -> None:
    path = tmp_path / "case.py"
    path.write_text("def f(x):\n    return x + 1\n# --- after pipeline ---\ndef f(x):\n    return x + 2\n")
    case = golden.read_case(path)
    produced = golden.produce(case)
    assert not golden.same_code(case.after, produced)
    golden.rewrite(case, produced)
    rewritten = golden.read_case(path)
    assert rewritten.before == case.before
    assert golden.same_code(rewritten.after, golden.produce(rewritten))


def test_layout_differences_do_not_matter_but_code_does() -> None:
    assert golden.same_code("def f(x):\n    return (x + 1)\n", "def f(x): return x + 1\n")
    assert not golden.same_code("def f(x):\n    return x + 1.0\n", "def f(x):\n    return x + 1\n")


def test_unknown_stage_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "case.py"
    path.write_text("def f():\n    pass\n# --- after no_such_pass ---\ndef f():\n    pass\n")
    with pytest.raises(ValueError, match="unknown stage"):
        golden.produce(golden.read_case(path))
