"""explain's line diffs (`tools.textdiff`): exactly difflib's, found without difflib's cost on
long texts whose lines repeat (a generated function's hundred `else:` lines)."""

from __future__ import annotations

import difflib
import time

import hypothesis
import pytest
from hypothesis import strategies as st

from symcompile.tools import textdiff

# lines mostly unique, some repeated all over (`else:`), so runs and popular lines both occur
LINES = st.one_of(st.sampled_from(["else:", "x = None", "if c:", "pass"]),
                  st.integers(0, 40).map(lambda n: f"v{n} = {n}"))


def _edited(draw: st.DrawFn, lines: list[str]) -> list[str]:
    edited = list(lines)
    for _ in range(draw(st.integers(0, 6))):
        where = draw(st.integers(0, len(edited)))
        cut = draw(st.integers(0, 3))
        if draw(st.booleans()) and edited:  # a copy of a stretch elsewhere: runs that repeat
            edited[where:where] = edited[where:where + draw(st.integers(1, 8))]
        else:
            edited[where:where + cut] = draw(st.lists(LINES, max_size=3))
    return edited


@st.composite
def text_pairs(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    old = draw(st.lists(LINES, max_size=80))
    return old, _edited(draw, old)


def _difflib(old: list[str], new: list[str]) -> difflib.SequenceMatcher[str]:
    return difflib.SequenceMatcher(None, old, new, autojunk=False)


@pytest.mark.slow  # randomized: 4 x 150 hypothesis examples
@pytest.mark.parametrize("popular", [0, 1, 2, textdiff.POPULAR])
@hypothesis.settings(max_examples=150, deadline=None)
@hypothesis.given(texts=text_pairs(), ranges=st.lists(st.tuples(*[st.floats(0, 1)] * 4),
                                                         max_size=4))
def test_always_explainable_diffs_are_difflibs_own(
        popular: int, texts: tuple[list[str], list[str]],
        ranges: list[tuple[float, float, float, float]]) -> None:
    """The same hunks as difflib, and the same longest block in any ranges (however few lines
    count as popular, so both the runs and difflib's own search answer)."""
    old, new = texts
    ours, theirs = textdiff.Matcher(old, new, popular), _difflib(old, new)
    assert list(ours.get_grouped_opcodes(2)) == list(theirs.get_grouped_opcodes(2))
    ours, theirs = textdiff.Matcher(old, new, popular), _difflib(old, new)
    for x, y, u, v in ranges:
        alo, blo = int(x * len(old)), int(u * len(new))
        ahi, bhi = alo + int(y * (len(old) - alo)), blo + int(v * (len(new) - blo))
        assert ours.find_longest_match(alo, ahi, blo, bhi) == \
            theirs.find_longest_match(alo, ahi, blo, bhi)


def _generated(statements: int, changed: int) -> list[str]:
    """The shape of an inlined call chain's code: the same few lines between unique ones."""
    lines = []
    for i in range(statements):
        value = "x + s" if i % 7 == changed else "s + x"
        lines += ["if add is add_2:", f"    r_{i} = {value}", "else:", f"    r_{i} = add(s, x)",
                  "s = r - 1", "r = None"]
    return lines


def test_always_explainable_diff_of_a_long_function_is_quick() -> None:
    """3,000 lines, 143 hunks, the same four lines 500 times each: difflib took 5-13 s (its
    search pairs every `else:` with every other, again at each of its splits)."""
    old, new = _generated(500, 0), _generated(500, 3)
    started = time.perf_counter()
    hunks = textdiff.grouped_opcodes(old, new, 2)
    assert time.perf_counter() - started < 1.0
    assert len(hunks) == 143
    small_old, small_new = _generated(60, 0), _generated(60, 3)
    assert textdiff.grouped_opcodes(small_old, small_new, 2) == \
        list(_difflib(small_old, small_new).get_grouped_opcodes(2))
