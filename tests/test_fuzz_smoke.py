"""Smoke test of the fuzz campaign (`tests/fuzz`): a few cases of every kind, so its code cannot
rot between campaigns. It checks the campaign's machinery, not the compiler: a finding the
compiler deserves is fine here, an exception from the campaign's own code is not.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from symcompile.errors import SymbolicError
from symcompile.runtime.oracle import observe
from tests.fuzz import KINDS
from tests.fuzz.__main__ import parse
from tests.fuzz.core import (
    INTERNAL,
    Case,
    Finding,
    generate,
    judge,
    reproduction,
    run_case,
)
from tests.fuzz.minimize import shrink
from tests.fuzz.runner import Worker

CASES_PER_KIND = 2
# the random programs of tests/program_generator.py are the slowest to run
CASES = {kind: 1 if kind == "programs" else CASES_PER_KIND for kind in KINDS}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_generates_and_runs(kind: str, tmp_path: Path) -> None:
    calls = 0
    for seed in range(CASES[kind]):
        case = generate(kind, seed)
        assert case == generate(kind, seed), "a seed must always give the same case"
        compile(case.source, "<case>", "exec")
        outcome = run_case(case, tmp_path)
        calls += outcome.calls
        finding = outcome.finding
        assert finding is None or "tests/fuzz/" not in finding.detail, finding.detail
        if finding is not None:
            text = reproduction(case, finding)
            compile(text, "<reproduction>", "exec")
    assert calls >= CASES[kind]


def _raises(message: str) -> None:
    raise SymbolicError(message)


def test_judge_tells_the_categories_apart() -> None:
    assert judge(observe(lambda: 1), observe(lambda: 1)) is None
    found = judge(observe(lambda: 1), observe(lambda: 1.0))
    assert isinstance(found, Finding) and found.category == "difference"
    message = judge(observe(lambda: [][0]), observe(lambda: [][1:][0]))
    assert message is None  # same type, same message
    internal = judge(observe(lambda: 1), observe(lambda: _raises(f"cannot compile: {INTERNAL}: KeyError")))
    assert isinstance(internal, Finding) and internal.category == "internal_error"
    changed = observe(lambda: _raises("its file 'm.py' was changed since the function was defined"))
    assert judge(observe(lambda: 1), changed, accept_changed_file=True) == "accepted"
    refused = judge(observe(lambda: 1), changed)
    assert isinstance(refused, Finding) and refused.category == "refusal"


def test_shrink_drops_what_does_not_matter() -> None:
    source = "A = 1\n\n\ndef main(x):\n    a = x + 1\n    if a:\n        b = (a + 2) * 3\n    return BOOM(x)\n"
    case = Case("syntax", 0, source, [("call", "(1,), {}"), ("exec", "A = 2")])
    small, _ = shrink(case, lambda c: "BOOM" in c.source, 10.0)
    assert small.source.strip() == "def main(x):\n    return BOOM(0)"
    assert small.steps == [("call", "(1,), {}")]


@pytest.mark.slow  # waits out a hanging worker's timeout
def test_worker_counts_a_hang_and_skips_a_slow_original(tmp_path: Path) -> None:
    """Compiled code past the timeout is a hang (with the stacks); a slow original is skipped."""
    worker = Worker(tmp_path, slack=1.0)
    try:
        hang = Case("syntax", 0, "def main(x):\n    while ENTRY is not main:\n        pass\n"
                    "    return x\n", [("call", "(1,), {}")], timeout=0.5)
        result = worker.run(("run", hang))
        assert result.outcome.finding is not None and result.outcome.finding.category == "hang"
        assert "main" in result.outcome.finding.detail
        slow = dataclasses.replace(hang, source="def main(x):\n    while True:\n        pass\n")
        assert worker.run(("run", slow)).skipped
        fine = dataclasses.replace(hang, source="def main(x):\n    return x + 1\n")
        result = worker.run(("run", fine))
        assert result.outcome.finding is None and result.outcome.calls == 1
    finally:
        worker.stop()


def test_command_line_help_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as shown:
        parse(["--help"])
    assert shown.value.code == 0
    text = capsys.readouterr().out
    assert "--minutes" in text and "--kinds" in text and "hostile" in text
    with pytest.raises(SystemExit) as wrong:
        parse(["--kinds", "nope"])
    assert wrong.value.code == 2 and "unknown kinds" in capsys.readouterr().err
    assert parse(["--minutes", "2", "--kinds", "edits,bignum", "--seed", "3"]).kinds == ["edits", "bignum"]
