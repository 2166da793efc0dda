"""Notebooks (issue 14 #4): a short repr, an HTML fragment whose style is scoped to its
wrapper, and `%load_ext symcompile` with `%%symbolic` and `%symcompile`, driven through
IPython's own test shell (skipped, saying why, where IPython is not installed)."""

from __future__ import annotations

import re
import sys

import pytest

from symcompile.tools.explain import explain
from symcompile.tools.report import WRAPPER
from tests.test_explain import fancy_func


def test_repr_is_one_short_line() -> None:
    text = repr(explain(fancy_func, 1, 2, 3, 4))
    assert "\n" not in text and len(text) < 300
    assert text.startswith("<Explanation of fancy_func: 4 pass runs changed it (inline_calls, ")
    assert text.endswith("print() it for the whole story>")


def test_html_for_a_notebook_is_a_fragment_styled_only_inside_its_wrapper() -> None:
    fragment = explain(fancy_func, 1, 2, 3, 4)._repr_html_()
    assert fragment.startswith(f'<div class="{WRAPPER}"><style>') and fragment.endswith("</div>")
    assert "<!DOCTYPE" not in fragment and "<html" not in fragment and "<body" not in fragment
    style = re.search(r"<style>(.*?)</style>", fragment, re.S).group(1)
    selectors = [rule.split("{")[0].strip() for rule in style.strip().splitlines()]
    assert selectors and all(selector.startswith(f".{WRAPPER}") for selector in selectors)
    assert "<svg" in fragment and "inline_calls" in fragment


@pytest.fixture(scope="module")
def shell():
    # IPython raises the recursion limit (to 3000) for the whole process when it is imported:
    # later tests rely on Python's own, so it is put back, with the hooks IPython replaces
    saved = sys.getrecursionlimit(), sys.displayhook, sys.excepthook
    pytest.importorskip("IPython", reason="the notebook magics need IPython "
                        "(pip install symcompile[notebook])")
    from IPython.testing.globalipapp import start_ipython

    ip = start_ipython()
    ip.run_line_magic("load_ext", "symcompile")
    yield ip
    sys.setrecursionlimit(saved[0])
    sys.displayhook, sys.excepthook = saved[1:]


CELL = """\
def add(a, b):
    return a + b

def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g
"""


def test_cell_magic_compiles_the_cells_functions_and_shows_their_source(shell, capsys) -> None:
    shell.run_cell_magic("symbolic", "", CELL)
    out = capsys.readouterr().out
    assert "def fancy_func(a, b, c, d):" in out and "e = a + b" in out
    assert "def add(a, b):\n    return a + b\n" in out
    compiled = shell.user_ns["fancy_func"]
    assert compiled._symcompile is not None and compiled(1, 2, 3, 4) == 10


def test_line_magic_explains_and_shows_a_call(shell, capsys) -> None:
    shell.run_cell(CELL)
    explanation = shell.run_line_magic("symcompile", "explain fancy_func(1, 2, c=3, d=4)")
    assert explanation.name == "fancy_func" and "inline_calls" in str(explanation)
    shell.run_line_magic("symcompile", "show add(1.5, b=2.5)")
    assert "return a + b" in capsys.readouterr().out


@pytest.mark.parametrize("line, message", [
    ("draw f(1)", "usage: %symcompile explain f(1, 2)"),
    ("explain fancy_func", "'fancy_func' is not a call"),
    ("explain fancy_func(1,", "is not a call"),
])
def test_line_magic_says_how_to_use_it(shell, line: str, message: str) -> None:
    from IPython.core.error import UsageError

    shell.run_cell(CELL)
    with pytest.raises(UsageError, match=re.escape(message)):
        shell.run_line_magic("symcompile", line)


def test_cell_magic_says_how_to_see_a_function_with_static_arguments(shell, capsys) -> None:
    shell.run_cell_magic("symbolic", "", "import symcompile\n\n"
                         "@symcompile.symbolic(static_argnames=('n',))\n"
                         "def power(x, n):\n    return x ** n\n")
    assert capsys.readouterr().out == ("# power specializes on n: %symcompile show power(...) "
                                       "shows the version some arguments select\n")
    shell.run_line_magic("symcompile", "show power(2.0, 3)")
    shown = capsys.readouterr().out
    assert shown.startswith("def power(x, n):") and "n is not n_2" in shown
