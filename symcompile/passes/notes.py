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
from typing import Callable, Iterator, Literal, Sequence

from .. import ir
from ..ir.rewrite import walk_statements

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


def summary(said: list[Note]) -> str:
    """The rewrites in `said`, short: `inline fancy_func, add ×3; fold ×3; drop dead ×2`.
    Inlining keeps the callee's name; other rules are counted by their first word or two."""
    groups: dict[str, dict[str, int]] = {}
    for note in said:
        if note.kind != "changed":
            continue
        verb, _, rest = note.rule.partition(" ")
        if verb == "inline":
            key, item = "inline", rest
        else:
            key, item = (f"{verb} {rest.split(' ')[0]}" if verb == "drop" else verb), ""
        counts = groups.setdefault(key, {})
        counts[item] = counts.get(item, 0) + 1
    parts = []
    for key, counts in groups.items():
        items = [f"{item} ×{count}" if count > 1 else item for item, count in counts.items()]
        parts.append(f"{key} {', '.join(items)}" if any(counts) and key == "inline" else
                     f"{key} ×{sum(counts.values())}" if sum(counts.values()) > 1 else key)
    return "; ".join(parts)


def counted(said: Sequence[Note]) -> list[str]:
    """`inline add (line 3) ×2` for repeated notes, in first-seen order."""
    counts: dict[str, int] = {}
    for note in said:
        if note.kind == "changed":
            counts[str(note)] = counts.get(str(note), 0) + 1
    return [text if count == 1 else f"{text} ×{count}" for text, count in counts.items()]


def provenance(source_lines: Sequence[str], said: list[Note], kept_lines: set[int],
               def_line: int) -> Callable[[int], str]:
    """For a line of the user's source that still has a statement (`kept_lines`; the function
    starts at `def_line`): the comment
    code generation puts on that statement, `line 12: return g (lines 9-12: inline add ×3; ...)`.
    The rewrites of lines whose statements are gone (inlined, forwarded, dropped) count for the
    next line that kept one."""
    by_line: dict[int, list[Note]] = {}
    for note in said:
        by_line.setdefault(note.line, []).append(note)
    kept = sorted(kept_lines)

    def comment(line: int) -> str:
        if not 1 <= line <= len(source_lines):
            return ""
        first = max((other for other in kept if other < line), default=def_line) + 1
        done = summary([note for number in range(first, line + 1) for note in by_line.get(number, [])])
        text = " ".join(source_lines[line - 1].split())
        text = text if len(text) <= 40 else text[:39] + "…"
        where = f"lines {first}-{line}: " if first < line and done else ""
        return f"line {line}: {text}" + (f" ({where}{done})" if done else "")
    return comment


def comments_for(function: ir.Function, said: list[Note],
                 source_lines: Sequence[str]) -> Callable[[int], str]:
    """`provenance` for the statements of `function` (the passes' result)."""
    kept = {stmt.loc.line for stmt in walk_statements(function.body) if stmt.loc.line}
    return provenance(source_lines, said, kept, function.loc.line)
