"""The command line, run as a user would: through subprocess, checking output and exit codes."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import symcompile
from symcompile.runtime import compiler
from symcompile.tools import cli
from tests.test_optimize_source import SEED, SEED_OPTIMIZED


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

        class K:
            def __init__(self, factor):
                self.factor = factor

            def scale(self, x):
                return x * self.factor

        k = K(3.0)

        def norm(x, p=2):
            return (x ** p).sum()

        class Double:
            def __call__(self, x):
                return x * 2

        double = Double()
        len = len
    """))
    return path


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_demo_shows_the_textbook_program_its_source_and_timings():
    result = run("demo", "--quick")
    assert result.returncode == 0, result.stderr
    assert "fancy_func(1, 2, 3, 4): imperative 10, compiled 10" in result.stdout
    assert "def fancy_func(a, b, c, d):" in result.stdout
    assert "s per 1000 calls" in result.stdout
    assert "\nprint(10)\n" in result.stdout  # the seed's program, optimized
    assert "symcompile explain symcompile.examples.fancy::fancy_func" in result.stdout
    mlp = result.stdout[result.stdout.index("an MLP as a Sequential of Dense layers"):]
    assert "t = dot(x, W)" in mlp and "for layer in" not in mlp.split("is:")[1]  # flat
    assert "same result as net(x), bit for bit: True" in mlp
    assert "before: " in mlp and "after:  " in mlp and "0.4733" in mlp  # the textbook's form


def test_show_prints_the_generated_source(program: Path):
    result = run("show", f"{program}::fancy_func")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("def fancy_func(a, b, c, d):\n")
    method = run("show", f"{program}::Net.forward")
    assert method.returncode == 0, method.stderr
    assert method.stdout == "def forward(self, x):\n    return x * 2\n"


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
@pytest.mark.parametrize("command", [[], ["demo"], ["show"], ["optimize"], ["bench"]])
def test_help_for_every_command(command: list[str]):
    result = run(*command, "--help")
    assert result.returncode == 0
    assert "usage: symcompile" in result.stdout


def _one_line_error(result: subprocess.CompletedProcess[str], code: int) -> str:
    """The error line (after the line saying the file's top level runs, if it ran)."""
    assert result.returncode == code
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.strip().splitlines()
             if not line.startswith("symcompile: running ")]
    assert len(lines) == 1
    assert lines[0].startswith("symcompile: error: ")
    return lines[0]


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_missing_file(tmp_path: Path):
    line = _one_line_error(run("show", f"{tmp_path}/nope.py::f"), 2)
    assert "nope.py: no such file" in line


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_missing_function(program: Path):
    line = _one_line_error(run("show", f"{program}::nope"), 2)
    assert "no function named 'nope'" in line


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_target_without_function_part(program: Path):
    line = _one_line_error(run("show", str(program)), 2)
    assert "expected FILE::FUNCTION" in line


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_function_with_static_arguments(program: Path):
    line = _one_line_error(run("show", f"{program}::power"), 2)
    assert "power specializes on n" in line


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_syntax_error_names_file_and_line(tmp_path: Path):
    path = tmp_path / "broken.py"
    path.write_text("def f(x):\n    return x +\n")
    line = _one_line_error(run("show", f"{path}::f"), 2)
    assert f"{path}:2: syntax error" in line


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_file_that_raises_when_run(tmp_path: Path):
    path = tmp_path / "raises.py"
    path.write_text("def f(x):\n    return x\nraise RuntimeError('no')\n")
    line = _one_line_error(run("show", f"{path}::f"), 1)
    assert "running the file failed: RuntimeError: no" in line


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_usage_errors_exit_with_code_2():
    result = run("no-such-command")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


# ------------------------------------------------------------------ optimize FILE [-o OUT]


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    path = tmp_path / "seed.py"
    path.write_text(SEED)
    return path


def test_optimize_prints_the_optimized_file(seed: Path):
    result = run("optimize", str(seed))
    assert result.returncode == 0, result.stderr
    assert result.stdout == SEED_OPTIMIZED
    assert result.stderr == ""
    assert seed.read_text() == SEED


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_optimize_does_not_run_the_file(tmp_path: Path):
    marker = tmp_path / "ran"
    path = tmp_path / "effects.py"
    path.write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit(5)\n")
    result = run("optimize", str(path))
    assert result.returncode == 0, result.stderr
    assert "raise SystemExit(5)" in result.stdout
    assert not marker.exists()


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_optimize_writes_to_the_output_file(seed: Path, tmp_path: Path):
    out = tmp_path / "out.py"
    result = run("optimize", str(seed), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert out.read_text() == SEED_OPTIMIZED
    assert seed.read_text() == SEED


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_optimize_replaces_its_input_only_when_told(seed: Path, tmp_path: Path):
    seed.chmod(0o640)
    result = run("optimize", str(seed), "--output", str(seed))
    assert result.returncode == 0, result.stderr
    assert seed.read_text() == SEED_OPTIMIZED
    assert seed.stat().st_mode & 0o777 == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == ["seed.py"]


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_optimize_a_file_with_a_syntax_error(tmp_path: Path):
    path = tmp_path / "broken.py"
    path.write_text("def f(x):\n    return x +\n")
    line = _one_line_error(run("optimize", str(path)), 2)
    assert line == f"symcompile: error: {path}:2:15: syntax error: invalid syntax"


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_optimize_a_missing_file(tmp_path: Path):
    line = _one_line_error(run("optimize", str(tmp_path / "nope.py")), 2)
    assert "nope.py: no such file" in line


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_optimize_into_a_missing_directory(seed: Path, tmp_path: Path):
    line = _one_line_error(run("optimize", str(seed), "-o", str(tmp_path / "no" / "out.py")), 2)
    assert "cannot write" in line


def test_optimize_keeps_the_old_output_when_writing_fails(seed: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]):
    def failing_replace(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli.os, "replace", failing_replace)
    assert cli.main(["optimize", str(seed), "-o", str(seed)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert seed.read_text() == SEED
    assert sorted(path.name for path in tmp_path.iterdir()) == ["seed.py"]


def test_optimize_fails_with_code_1_when_optimizing_fails(seed: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]):
    def broken(function: object, passes: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(compiler.pipeline, "run_passes", broken)
    assert cli.main(["optimize", str(seed)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("symcompile: error: internal error in symcompile")


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_explain_shows_each_pass_with_its_rules_and_writes_html(program: Path, tmp_path: Path):
    report = tmp_path / "report.html"
    result = run("explain", f"{program}::fancy_func", "--args", "1, 2, 3, 4", "--html", str(report))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "=== inline_calls (round 1): " in out and "  inline add (line " in out
    assert out.index("inline_calls") < out.index("the generated source")
    assert "if add is add_2:" in out and "return e + (c + d)" in out  # checked after a + b
    page = report.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "inline_calls" in page


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
@pytest.mark.parametrize("arguments, message", [
    (("--args", "1, (2"), "--args '1, (2': not a Python argument list ('(' was never closed)"),
    (("--args", "1), print(2"), "--args '1), print(2': not a Python argument list"),
    (("--args", "1, 2, 3, zz"), "--args '1, 2, 3, zz': NameError: name 'zz' is not defined"),
    (("--args", "1, 2"), "--args: missing a required argument: 'c'"),
])
def test_explain_bad_arguments_is_a_usage_error(program: Path, arguments, message):
    result = run("explain", f"{program}::fancy_func", *arguments)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_explain_missing_function_and_file(program: Path):
    missing_function = run("explain", f"{program}::nope")
    assert missing_function.returncode == 2 and "no function named 'nope'" in missing_function.stderr
    missing_file = run("explain", "no/such/file.py::f")
    assert missing_file.returncode == 2 and "no such file" in missing_file.stderr


# ------------------------------------------------------------------ issue 14: a CLI user's rough edges


def test_version():
    result = run("--version")
    assert result.returncode == 0
    try:
        installed = importlib.metadata.version("symcompile")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout never installed
        assert result.stdout == "symcompile (not installed: run from a source checkout)\n"
        return
    assert result.stdout == f"symcompile {installed}\n"
    assert installed == symcompile.__version__


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
@pytest.mark.parametrize("command", [[], ["show"], ["explain"], ["optimize"]])
def test_help_documents_the_exit_codes(command: list[str]):
    out = run(*command, "--help").stdout
    assert "exit codes:" in out
    assert "  0  success" in out and "  1  your code or the compiler failed" in out
    assert "  2  what was typed is wrong" in out


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_args_are_python_expressions_with_numpy_and_keywords(program: Path):
    result = run("show", f"{program}::double", "--args", "x=np.ones(3)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("return x * 2")
    positional, keywords = cli._call_arguments("x=np.ones(3)", {})
    assert positional == () and isinstance(keywords["x"], np.ndarray) and keywords["x"].size == 3
    keyword = run("show", f"{program}::power", "--args", "2.0, n=5")
    assert keyword.returncode == 0, keyword.stderr
    assert "n is not n_2" in keyword.stdout and "5" in keyword.stdout
    assert cli._call_arguments("np.ones(3), p=3", {})[1] == {"p": 3}
    shown = run("show", f"{program}::norm", "--args", "numpy.arange(2.0), p=math.floor(2.5)")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("def norm(x, p=2):")


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_args_see_the_files_globals_and_explain_a_method(program: Path):
    result = run("explain", f"{program}::K.scale", "--args", "k, 2.0")
    assert result.returncode == 0, result.stderr
    assert "=== K.scale: the original ===" in result.stdout
    assert "return x * self.factor" in result.stdout


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_show_a_callable_object_with_its_arguments(program: Path):
    result = run("show", f"{program}::double", "--args", "2.5")
    assert result.returncode == 0, result.stderr
    # (a version for floats would say `x * 2.0`; its type check would cost more than it saves)
    assert result.stdout.rstrip().endswith("return x * 2")
    without = _one_line_error(run("show", f"{program}::double"), 2)
    assert "double is a callable object: give a call's arguments with --args" in without


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_like_errors_exit_alike(program: Path):
    """A class, a missing name, a non-function: all what was typed, all 2."""
    cls = _one_line_error(run("show", f"{program}::K"), 2)
    assert "'K' is a class: name one of its methods (K.scale) or an instance" in cls
    assert "no function named 'nope'" in _one_line_error(run("show", f"{program}::nope"), 2)
    assert "'k.factor' is not a function" in _one_line_error(run("show", f"{program}::k.factor"), 2)
    assert "'len' is built into Python" in _one_line_error(run("show", f"{program}::len"), 2)


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_messages_speak_to_a_command_line_user(program: Path):
    line = _one_line_error(run("show", f"{program}::power"), 2)
    assert line == ("symcompile: error: power specializes on n: give a call's arguments with "
                    "--args to see the version they select")
    shown = run("show", f"{program}::power", "--args", "2.0, 3")
    assert shown.returncode == 0, shown.stderr
    assert "x * x * x" in shown.stdout or "x ** 3" in shown.stdout


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_show_and_explain_say_the_files_top_level_runs(program: Path):
    for command in (["show", f"{program}::fancy_func"],
                    ["explain", f"{program}::fancy_func", "--args", "1, 2, 3, 4"]):
        result = run(*command)
        assert result.returncode == 0, result.stderr
        assert result.stderr.startswith(f"symcompile: running {program} (its top-level code runs")


@pytest.mark.slow  # a subprocess per command (quick tier: version, show, optimize)
def test_an_installed_example_by_its_module_name(tmp_path: Path):
    """README's command works from any directory once symcompile is installed."""
    result = subprocess.run([sys.executable, "-m", "symcompile", "explain",
                             "symcompile.examples.fancy::fancy_func", "--args", "1, 2, 3, 4"],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(Path(symcompile.__file__).parents[1])})
    assert result.returncode == 0, result.stderr
    assert "=== fancy_func: the original ===" in result.stdout
    assert result.stderr == ""  # importing a module: no top-level code of the user's to announce
    missing = _one_line_error(run("show", "no_such_module::f"), 2)
    assert missing == "symcompile: error: no_such_module: no such file or module"


def test_a_slow_compile_says_so_on_stderr(program: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]):
    def slow_explain(function: object, *args: object, **kwargs: object) -> str:
        time.sleep(0.5)
        return "explained\n"

    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.1)
    monkeypatch.setattr(cli, "explain", slow_explain)
    assert cli.main(["explain", f"{program}::fancy_func", "--args", "1, 2, 3, 4"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "explained\n"
    progress = captured.err.splitlines()[1:]
    assert progress[0] == "symcompile: compiling and explaining fancy_func..."
    assert re.fullmatch(r"symcompile: compiling and explaining fancy_func: done in 0\.\d s",
                        progress[1])
