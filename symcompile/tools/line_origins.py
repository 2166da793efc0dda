"""Where each line of a rendered def came from, found fast enough for explain, which renders
every pass run that changed a function: the user's line of the statement that starts at it (or,
inside a statement, of the one that started last).

`codegen.Rendering.places` pairs every node of the tree the text was rendered from with its
copy parsed back from the text (`ast.walk` over both), and tokenizes the text for the lines that
end inside a string. Only statements carry a user's line, and only blocks of statements (bodies,
`except` handlers, `match` cases) hold statements, so `Rendering.places` walks just those,
breadth first as `ast.walk` does (a subset of its nodes, closed under "parent of", keeps their
order): the same places in the same order. Only a text that may have a token spanning lines
(`_SPANNING`) is tokenized.
"""

from __future__ import annotations

import ast
import functools
import re
from collections import deque
from collections.abc import Iterator

from .. import ir
from ..backend import codegen

_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)  # what may hold statements

# What a token spanning lines needs: triple quotes, a line ending in a backslash (inside a
# string, which it continues), or an f-string (whose fields may span lines from Python 3.12).
_SPANNING = re.compile(r"'''|\"\"\"|\\\s*$|(?<!\w)(?:[fF][rR]?|[rR][fF])['\"]", re.MULTILINE)


class Rendering(codegen.Rendering):
    """A `codegen.Rendering` whose `places` are found walking only the blocks of statements
    (the same places, in the same order)."""

    @functools.cached_property
    def places(self) -> tuple[tuple[int, int], ...]:
        if _SPANNING.search(self.text):  # a string may span lines: tokenizing tells
            return super().places
        return tuple(_places_in_one_line_tokens(self))


def rendering(function: ir.Function) -> Rendering:
    """`codegen.rendering(function)`, its places found faster."""
    rendered = codegen.rendering(function)
    return Rendering(rendered.node, rendered.text, rendered.parsed)


def _places_in_one_line_tokens(rendered: codegen.Rendering) -> Iterator[tuple[int, int]]:
    """`rendered.places` for a text whose tokens each hold on one line (so no line ends inside
    one)."""
    lines = rendered.text.splitlines()
    pending: deque[tuple[ast.AST, ast.AST]] = deque([(rendered.node, rendered.parsed.body[0])])
    while pending:
        original, copy_ = pending.popleft()
        line = getattr(original, codegen.LINE, 0)
        if line and isinstance(copy_, ast.stmt) \
                and not lines[copy_.lineno - 1].rstrip().endswith("\\"):
            yield copy_.lineno, line
        for name in original._fields:
            children = getattr(original, name, None)
            if isinstance(children, list):
                pending.extend(pair for pair in zip(children, getattr(copy_, name, None) or ())
                               if isinstance(pair[0], _HOLDERS))


def source_lines(rendered: codegen.Rendering) -> tuple[list[str], list[int]]:
    """The generated source's lines, and for each the line of the user's its statement came
    from (a statement spanning lines: its first line's; as `rendered.commented` says)."""
    starts: dict[int, int] = {}
    for number, line in rendered.places:
        starts.setdefault(number, line)
    lines = [line + "\n" for line in rendered.text.splitlines()]
    origins: list[int] = []
    for number in range(1, len(lines) + 1):
        origins.append(starts.get(number, origins[-1] if origins else 0))
    return lines, origins
