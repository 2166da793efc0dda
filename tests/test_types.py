"""The package type-checks: `mypy`, run from the repository root with the settings of
pyproject.toml's [tool.mypy] (strict for the IR analyses and the passes), reports no error
(issue 12 #4). CI runs the same command after the tests (.ci/run)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (it comes with the [test] extra: "
                    "pip install -e '.[test]')")
def test_always_explainable_package_type_checks(tmp_path: Path) -> None:
    # a fresh cache: the verdict never rests on an earlier run's files
    result = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_package_ships_its_type_marker() -> None:
    """`symcompile/py.typed` exists and setup.cfg ships it, so users' type checkers read the
    package's annotations."""
    assert (ROOT / "symcompile" / "py.typed").is_file()
    setup = (ROOT / "setup.cfg").read_text(encoding="utf-8")
    assert "[options.package_data]\nsymcompile = py.typed" in setup
