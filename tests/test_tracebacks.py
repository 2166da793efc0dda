"""Tracebacks through compiled code, on every interpreter CI runs (this one, and Python 3.13
from ~/.pyenv when it is installed): each frame shows a source line — the compiled function's
frame the user's own file, line number and line. A first call (which compiles inside the call)
shows the same frames as a later one: the user's call, the compiled function naming the user's
line, and what it called; no frame of symcompile's call path (`callpath.tidied`). So does a
later call whose check on entry fails (a global rebound, another argument type).

Each interpreter runs `SCRIPT` in a fresh process (a first call, and a call of the installed
version) and prints the two `traceback.format_exc()` texts as JSON.
"""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

import pytest

import symcompile as sc

# subprocesses, servers or a browser: the full suite's tier (`pytest -m "not slow"` skips them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
INTERPRETERS = [sys.executable, *sorted(glob.glob(os.path.expanduser(
    "~/.pyenv/versions/3.13*/bin/python")))[-1:]]

USER_FILE = '''\
import symcompile as sc


def helper(x):
    return 1 / x


@sc.symbolic
def f(a, b):
    c = a + b
    d = helper(c - 3)
    return d * 2


class Helper:
    def inverse(self, x):
        return 1 / x


@sc.symbolic
def g(a, b, helper):
    return helper.inverse(a + b - 3) * 2


def scale(x):
    return 1 / x


def rescale(x):
    return 2 / x


@sc.symbolic
def h(a, b):
    return scale(a - b) * 2


@sc.symbolic
def k(a, b):
    c = a * b
    return helper(c - 3)
'''

SCRIPT = '''\
import json, sys, traceback
import numpy as np
sys.path.insert(0, sys.argv[1])
import user_code

def rebind():
    user_code.scale = user_code.rescale

texts = []
for call in [lambda: user_code.f(1, 2)] * 2 + [lambda: user_code.g(1, 2, user_code.Helper())] * 2 \\
        + [lambda: user_code.h(3, 2), rebind] + [lambda: user_code.h(2, 2)] * 2 \\
        + [lambda: user_code.k(np.ones(3), np.ones(3))] + [lambda: user_code.k(1.0, 3.0)] * 2:
    try:
        call()
    except ZeroDivisionError:
        texts.append(traceback.format_exc())
print(json.dumps(texts))
'''

FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>\S+)$')


def frames(text: str) -> list[tuple[str, int, str, str]]:
    """(file, line, function, the source line shown or '') for each frame of a traceback."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        match = FRAME.match(line)
        if match:
            shown = lines[index + 1] if index + 1 < len(lines) else ""
            source = shown.strip() if shown.startswith("    ") else ""
            found.append((match["file"], int(match["line"]), match["name"], source))
    return found


@pytest.fixture(params=INTERPRETERS, ids=lambda path: Path(path).name)
def tracebacks(request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    (tmp_path / "user_code.py").write_text(USER_FILE, encoding="utf-8")
    (tmp_path / "script.py").write_text(SCRIPT, encoding="utf-8")  # a file: its lines show
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([request.param, str(tmp_path / "script.py"), str(tmp_path)],
                          capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    if request.param != sys.executable and "No module named 'numpy'" in done.stderr:
        pytest.skip(f"{request.param} has no NumPy installed")
    assert done.returncode == 0, done.stderr
    texts: list[str] = json.loads(done.stdout)
    return texts


def test_always_explainable_every_traceback_frame_shows_a_source_line(
        tracebacks: list[str]) -> None:
    for text in tracebacks:
        missing = [frame for frame in frames(text) if not frame[3]]
        assert missing == [], text
        assert "\n    \n" not in text  # no line of spaces: no carets under nothing


def test_always_explainable_the_compiled_frame_names_the_users_line(
        tracebacks: list[str]) -> None:
    first_call, installed = tracebacks[:2]
    for text in (first_call, installed):
        file, line, name, source = frames(text)[-1]
        assert (Path(file).name, line, name, source) == \
            ("user_code.py", 11, "f", "d = helper(c - 3)")
        assert text.rstrip().endswith("ZeroDivisionError: division by zero")


def test_always_explainable_a_first_call_shows_no_frame_of_symcompile(
        tracebacks: list[str]) -> None:
    for first_call, installed in (tracebacks[:2], tracebacks[2:4]):
        assert frames(first_call) == frames(installed)
        assert not [frame for frame in frames(first_call)
                    if "symcompile" in frame[0] or frame[0].startswith("<")]
    f_frames, g_frames = frames(tracebacks[0]), frames(tracebacks[2])
    assert [(Path(file).name, name) for file, _, name, _ in f_frames] == \
        [("script.py", "<module>"), ("script.py", "<lambda>"), ("user_code.py", "f")]
    # what the compiled function called (a method it could not inline) keeps its frame
    assert [(Path(file).name, line, name, source) for file, line, name, source in g_frames[2:]] \
        == [("user_code.py", 22, "g", "return helper.inverse(a + b - 3) * 2"),
            ("user_code.py", 17, "inverse", "return 1 / x")]


def test_always_explainable_a_failed_check_on_entry_shows_no_frame_of_symcompile(
        tracebacks: list[str]) -> None:
    """A later call whose check on entry fails (`return recompile(a, b)` after a global was
    rebound, `return other_types(a, b)` for another argument type) runs another version, and
    its traceback shows the frames of a plain call of that version: not the failed version's
    frame, nor the call path's (`loader.load` tidies those calls)."""
    stale, recompiled, type_miss, other_type = tracebacks[4:]
    assert frames(stale) == frames(recompiled)
    for text, expected in ((stale, (35, "h", "return scale(a - b) * 2")),
                           (type_miss, (41, "k", "return helper(c - 3)")),
                           (other_type, (41, "k", "return helper(c - 3)"))):
        shown = [(Path(file).name, line, name, source) for file, line, name, source in frames(text)]
        assert [frame[0] for frame in shown[:2]] == ["script.py", "script.py"], text
        assert shown[2:] == [("user_code.py", *expected)], text


def _broken_pass(function: object) -> object:
    raise RuntimeError("a broken pass")


def test_always_explainable_an_error_of_the_compiler_keeps_its_frames(
        make_module: Callable[[str], Any]) -> None:
    """Only the call path's own frames before the user's code are left out: an error inside
    the compiling shows where in symcompile it happened."""
    module = make_module("def h(a):\n    return a + 1\n")
    compiled = sc.symbolic(module.h, passes=[_broken_pass])
    with pytest.raises(sc.SymbolicError) as caught:
        compiled(1)
    files = [Path(frame.filename).name for frame in traceback.extract_tb(caught.value.__traceback__)]
    assert files[0] == Path(__file__).name
    assert "cache.py" in files and "callpath.py" in files
