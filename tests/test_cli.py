"""The command line, run as a user would: through subprocess, checking output and exit codes."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "symcompile", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "fancy.py"
    path.write_text(textwrap.dedent("""\
        def add(a, b):
            return a + b

        def fancy_func(a, b, c, d):
            e = add(a, b)
            return add(e, add(c, d))

        class Net:
            def forward(self, x):
                return x * 2

        import symcompile

        @symcompile.symbolic(static_argnames=("n",))
        def power(x, n):
            return x ** n
    """))
    return path


def test_demo_shows_the_textbook_program_its_source_and_timings():
    result = run("demo", "--quick")
    assert result.returncode == 0, result.stderr
    assert "fancy_func(1, 2, 3, 4): imperative 10, compiled 10" in result.stdout
    assert "def fancy_func(a, b, c, d):" in result.stdout
    assert "s per 1000 calls" in result.stdout


def test_show_prints_the_generated_source(program: Path):
    result = run("show", f"{program}::fancy_func")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("def fancy_func(a, b, c, d):\n")
    method = run("show", f"{program}::Net.forward")
    assert method.returncode == 0, method.stderr
    assert method.stdout == "def forward(self, x):\n    return x * 2\n"


@pytest.mark.parametrize("command", [[], ["demo"], ["show"], ["bench"]])
def test_help_for_every_command(command: list[str]):
    result = run(*command, "--help")
    assert result.returncode == 0
    assert "usage: symcompile" in result.stdout


def _one_line_error(result: subprocess.CompletedProcess[str], code: int) -> str:
    assert result.returncode == code
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("symcompile: error: ")
    return lines[0]


def test_missing_file(tmp_path: Path):
    line = _one_line_error(run("show", f"{tmp_path}/nope.py::f"), 2)
    assert "nope.py: no such file" in line


def test_missing_function(program: Path):
    line = _one_line_error(run("show", f"{program}::nope"), 2)
    assert "no function named 'nope'" in line


def test_target_without_function_part(program: Path):
    line = _one_line_error(run("show", str(program)), 2)
    assert "expected FILE::FUNCTION" in line


def test_function_with_static_arguments(program: Path):
    line = _one_line_error(run("show", f"{program}::power"), 2)
    assert "power specializes on n" in line


def test_syntax_error_names_file_and_line(tmp_path: Path):
    path = tmp_path / "broken.py"
    path.write_text("def f(x):\n    return x +\n")
    line = _one_line_error(run("show", f"{path}::f"), 2)
    assert f"{path}:2: syntax error" in line


def test_file_that_raises_when_run(tmp_path: Path):
    path = tmp_path / "raises.py"
    path.write_text("def f(x):\n    return x\nraise RuntimeError('no')\n")
    line = _one_line_error(run("show", f"{path}::f"), 1)
    assert "running the file failed: RuntimeError: no" in line


def test_usage_errors_exit_with_code_2():
    result = run("no-such-command")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr
