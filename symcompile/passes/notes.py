"""Notes: what each pass did, and what it left alone and why, for the explain view.

A note is data: the rule's key (`"inline"`, `"fold"`, `"drop dead"`: what summaries count), a
sentence template with `{}` for each subject, the subjects (IR expressions, or names and
numbers) and the user's line. A pass calls `changed("share", "share {} as {}", expr, name,
loc=loc)` when it rewrites something and `missed("inline", "not inlined {}: recursive", name,
loc=loc)` when it sees an opportunity it must not take. The views format notes where they show
them (`Note.text`, given the code generator's printer), so a pass never prints IR and a compile
nobody explains formats nothing. `pipeline.run_passes` records the notes of each pass run
(`PassRun.notes`); outside a recording, the calls do nothing, so passes never depend on anyone
listening.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import Callable, Literal, Sequence, Union

from .. import ir
from ..ir.rewrite import walk_statements

NoteKind = Literal["changed", "missed"]
Subject = Union[ir.Expr, str, int]
ShowExpr = Callable[[ir.Expr], str]


@dataclass(frozen=True)
class Note:
    """One thing a pass did (`changed`) or did not do (`missed`), at a line of the user's file
    (0 where it has none)."""

    kind: NoteKind
    rule: str
    template: str
    subjects: tuple[Subject, ...] = ()
    line: int = 0

    def sentence(self, show: ShowExpr) -> str:
        """The note as a sentence, its IR subjects printed by `show`: `share a * b as t`."""
        return self.template.format(*(subject if isinstance(subject, (str, int))
                                      else show(subject) for subject in self.subjects))

    def text(self, show: ShowExpr) -> str:
        """The sentence with its line: `share a * b as t (line 4)`."""
        sentence = self.sentence(show)
        return f"{sentence} (line {self.line})" if self.line else sentence


_recording: contextvars.ContextVar[list[Note] | None] = contextvars.ContextVar(
    "symcompile_notes", default=None)


class recording:
    """Collect the notes passes make inside the block (`with recording() as said:`). (A class,
    not a generator: the pipeline enters one per pass run.)"""

    def __init__(self) -> None:
        self.collected: list[Note] = []
        self._token: contextvars.Token[list[Note] | None] | None = None

    def __enter__(self) -> list[Note]:
        self._token = _recording.set(self.collected)
        return self.collected

    def __exit__(self, *exception: object) -> None:
        if self._token is not None:
            _recording.reset(self._token)


def _add(kind: NoteKind, rule: str, template: str, subjects: tuple[Subject, ...],
         loc: ir.Loc | None) -> None:
    collected = _recording.get()
    if collected is not None:
        collected.append(Note(kind, rule, template, subjects, loc.line if loc is not None else 0))


def changed(rule: str, template: str, *subjects: Subject, loc: ir.Loc | None = None) -> None:
    """Record a rewrite of rule `rule`: `changed("fold", "fold {} → {}", expr, result)`."""
    _add("changed", rule, template, subjects, loc)


def missed(rule: str, template: str, *subjects: Subject, loc: ir.Loc | None = None) -> None:
    """Record an opportunity for `rule` left alone, and why:
    `missed("inline", "not inlined {}: recursive", name)`."""
    _add("missed", rule, template, subjects, loc)


def summary(said: list[Note]) -> str:
    """The rewrites in `said`, short: `inline fancy_func, add ×3; fold ×3; drop dead ×2`.
    Inlining names its callees (its notes' first subject); other rules are counted."""
    groups: dict[str, dict[str, int]] = {}
    for note in said:
        if note.kind == "changed":
            item = str(note.subjects[0]) if note.rule == "inline" and note.subjects else ""
            counts = groups.setdefault(note.rule, {})
            counts[item] = counts.get(item, 0) + 1
    parts = []
    for rule, counts in groups.items():
        items = [f"{item} ×{count}" if count > 1 else item for item, count in counts.items()]
        total = sum(counts.values())
        parts.append(f"{rule} {', '.join(items)}" if any(counts) else
                     f"{rule} ×{total}" if total > 1 else rule)
    return "; ".join(parts)


def counted(said: Sequence[Note], show: ShowExpr) -> list[str]:
    """`inline add (line 3) ×2` for repeated rewrites, in first-seen order."""
    counts: dict[str, int] = {}
    for note in said:
        if note.kind == "changed":
            text = note.text(show)
            counts[text] = counts.get(text, 0) + 1
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
