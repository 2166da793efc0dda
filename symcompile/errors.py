"""User-facing errors.

Every problem symcompile reports to a user is a `SymbolicError`: it says what went wrong, where
(file, line, column, the source line with a caret) and what to do about it (a hint). Internal
failures are wrapped in one too, so no AttributeError or KeyError from the compiler ever reaches
user code.
"""

from __future__ import annotations


class SymbolicError(Exception):
    """A function could not be compiled by symcompile.

    Attributes: `message`, `filename`, `lineno` (1-based), `col` (0-based), `source_line` (the
    offending line of the user's source, or ""), `hint` (what to do, or "").
    """

    def __init__(
        self,
        message: str,
        *,
        filename: str | None = None,
        lineno: int | None = None,
        col: int | None = None,
        source_line: str = "",
        hint: str = "",
    ) -> None:
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.source_line = source_line
        self.hint = hint
        super().__init__(message)

    def __str__(self) -> str:
        lines = [self.message]
        if self.filename is not None:
            where = f'  File "{self.filename}"'
            if self.lineno is not None:
                where += f", line {self.lineno}"
                if self.col is not None:
                    where += f", column {self.col + 1}"
            lines.append(where)
        if self.source_line.strip():
            text = self.source_line.rstrip()
            stripped = text.lstrip()
            lines.append("    " + stripped)
            if self.col is not None:
                caret_at = max(self.col - (len(text) - len(stripped)), 0)
                lines.append("    " + " " * caret_at + "^")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)
