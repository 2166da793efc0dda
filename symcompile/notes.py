"""Notes: what each pass did, and what it left alone and why, for the explain view.

A pass calls `changed("inline add", loc)` when it rewrites something and `missed("not inlined:
recursive", loc)` when it sees an opportunity it must not take. `pipeline.run_passes` records
the notes of each pass run (`PassRun.notes`); outside a recording, the calls do nothing, so
passes never depend on anyone listening.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass
from typing import Iterator, Literal

from . import ir

NoteKind = Literal["changed", "missed"]


@dataclass(frozen=True)
class Note:
    """One thing a pass did (`changed`) or did not do (`missed`), at a line of the user's file
    (0 where it has none)."""

    kind: NoteKind
    rule: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.rule} (line {self.line})" if self.line else self.rule


_recording: contextvars.ContextVar[list[Note] | None] = contextvars.ContextVar(
    "symcompile_notes", default=None)


@contextlib.contextmanager
def recording() -> Iterator[list[Note]]:
    """Collect the notes passes make inside the block."""
    collected: list[Note] = []
    token = _recording.set(collected)
    try:
        yield collected
    finally:
        _recording.reset(token)


def _add(kind: NoteKind, rule: str, loc: ir.Loc | None) -> None:
    collected = _recording.get()
    if collected is not None:
        collected.append(Note(kind, rule, loc.line if loc is not None else 0))


def changed(rule: str, loc: ir.Loc | None = None) -> None:
    """Record a rewrite: `rule` says what, in a few words (`fold 1 + 2 → 3`)."""
    _add("changed", rule, loc)


def missed(reason: str, loc: ir.Loc | None = None) -> None:
    """Record an opportunity left alone, and why (`not inlined: recursive`)."""
    _add("missed", reason, loc)
