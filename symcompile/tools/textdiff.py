"""Line diffs for explain, fast on long generated functions: difflib's own diff, the same
opcodes byte for byte, with its search for the longest common block answered faster.

`difflib.SequenceMatcher` splits the two texts at their longest common block and recurses on
each side; it finds each block with a dynamic programme over every pair of equal lines in the
range. On a long generated function (the same `else:` a hundred times on both sides) those pairs
are most of explain's time, counted again at every level of the recursion. `Matcher` finds
every maximal run of equal lines once (a diagonal of that programme), longest first, leaving out
runs made only of lines repeated all over the new text: a range's longest block is a run cut to
the range, found by scanning the runs until they are shorter than the best one found. Where that
scan would cost more than the programme (a small range, or one no long run crosses) or a run
left out could be as long, difflib's own search answers.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

Opcode = tuple[str, int, int, int, int]


POPULAR = 8  # a line more often than this in the new text anchors no run


class Matcher(difflib.SequenceMatcher[str]):
    """A `SequenceMatcher` without junk (`autojunk=False`) finding the same blocks faster."""

    def __init__(self, a: Sequence[str], b: Sequence[str], popular: int = POPULAR) -> None:
        super().__init__(None, a, b, autojunk=False)
        self._old, self._new, self._popular = a, b, popular
        self._runs: list[tuple[int, int, int]] | None = None
        self._unlisted = 0  # no run left out of `_runs` is longer

    def find_longest_match(self, alo: int = 0, ahi: int | None = None, blo: int = 0,
                           bhi: int | None = None) -> difflib.Match:
        """The longest block `a[i:i+k] == b[j:j+k]` inside the ranges; of those, the one with
        the least `i`, then the least `j` (as difflib's search, which it replaces)."""
        ahi = len(self._old) if ahi is None else ahi
        bhi = len(self._new) if bhi is None else bhi
        found = self._from_runs(alo, ahi, blo, bhi)
        return found if found is not None else super().find_longest_match(alo, ahi, blo, bhi)

    def _from_runs(self, alo: int, ahi: int, blo: int, bhi: int) -> difflib.Match | None:
        """The longest block from the runs; None when a run left out could be as long, or when
        more runs than the ranges have lines would have to be looked at (the dynamic programme
        is then no dearer)."""
        if self._runs is None:
            self._runs, self._unlisted = anchored_runs(self._old, self._new, self._popular)
        best = best_i = best_j = 0
        budget = (ahi - alo) + (bhi - blo)
        for looked, (negative_length, i, j) in enumerate(self._runs):
            if -negative_length < best or (best and -negative_length == best and i > best_i):
                break
            if looked > budget:
                return None
            shift = j - i  # the run's diagonal, cut to the ranges
            start = max(i, alo, blo - shift)
            size = min(i - negative_length, ahi, bhi - shift) - start
            if size > best or (size == best and size and (start, start + shift) < (best_i, best_j)):
                best, best_i, best_j = size, start, start + shift
        return difflib.Match(best_i, best_j, best) if best > self._unlisted else None


def anchored_runs(a: Sequence[str], b: Sequence[str], popular_count: int = POPULAR,
                  ) -> tuple[list[tuple[int, int, int]], int]:
    """Every maximal run of equal lines `a[i:i+k] == b[j:j+k]` (neither end extending) that
    holds a line found at most `popular_count` times in `b`, as `(-k, i, j)`, longest first
    (then by `i`, then `j`); and a length no run left out exceeds (the longest stretch of
    popular lines in `a`). A line repeated all over both texts (an `else:`) would pair with each
    of its copies: such lines only extend runs."""
    where: dict[str, list[int]] = {}
    for j, line in enumerate(b):
        where.setdefault(line, []).append(j)
    popular = {line for line, places in where.items() if len(places) > popular_count}
    runs: list[tuple[int, int, int]] = []
    stretch = longest = 0
    for i, line in enumerate(a):
        stretch = stretch + 1 if line in popular else 0
        longest = max(longest, stretch)
        for j in () if line in popular else where.get(line, ()):
            first = _run_start(a, b, i, j, popular)
            if first is None:
                continue  # found from an anchor further up
            size = first + 1
            while i + size - first < len(a) and j + size - first < len(b) \
                    and a[i + size - first] == b[j + size - first]:
                size += 1
            runs.append((-size, i - first, j - first))
    runs.sort()
    return runs, longest


def _run_start(a: Sequence[str], b: Sequence[str], i: int, j: int, popular: set[str],
               ) -> int | None:
    """How many lines the run through `a[i] == b[j]` starts before them; None when a line
    before them in the run is no popular one (the run is that line's to find)."""
    back = 0
    while i > back and j > back and a[i - back - 1] == b[j - back - 1]:
        if a[i - back - 1] not in popular:
            return None
        back += 1
    return back


def grouped_opcodes(old: Sequence[str], new: Sequence[str], context: int) -> list[list[Opcode]]:
    """The hunks of the unified diff from `old` to `new` with `context` lines around each change
    (`SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(context)`)."""
    return list(Matcher(old, new).get_grouped_opcodes(context))
