"""explain: what the compiler did to a function, pass by pass, written out to be read.

The teaching view of the pipeline, built from what `pipeline.run_passes` records.
`explain(f, *args)` describes the version those arguments select:

- the original source, and the IR the front end built from it;
- every pass run that changed something: its node counts before and after, its time, a
  unified diff of the generated source, and the rules it applied (`notes`);
- the final source, with the checks the compiled code makes on entry;
- what was kept as written and why, and what the passes left alone and why.

`str()` is the text view, `repr()` one line; `_repr_html_()` (Jupyter) the HTML report as a
fragment, `html_page()` and `to_html(path)` as one self-contained page (see `report.py`);
`dag()` the final expression DAG in Graphviz DOT, `dag_pictures()` as SVG (see `dag.py`);
`dag(step=...)` and `step_pictures(step)` the DAG before and after one pass run, the nodes it
changed marked (see `dag_steps.py`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import ir
from ..backend import codegen
from ..ir.names import size
from ..ir.rewrite import statement_expressions, walk_expr, walk_statements
from ..passes import notes
from ..passes.notes import Note
from ..passes.pipeline import PassRun, collector_paused
from ..runtime import api
from . import dag, dag_steps, textdiff
from .report import render_fragment, render_html


@dataclass(frozen=True)
class Step:
    """One pass run that changed the function."""

    name: str
    round: int
    nodes_before: int
    nodes_after: int
    seconds: float
    diff: str
    notes: tuple[Note, ...]
    lifted: tuple[Note, ...] = ()  # refusals of the pass's previous run that this run overcame
    before: ir.Function | None = field(default=None, compare=False)  # the IR it changed
    after: ir.Function | None = field(default=None, compare=False)

    @property
    def title(self) -> str:
        return f"{self.name} (round {self.round})"

    def change(self) -> dag_steps.Change:
        """The DAG before and after this run, the nodes it changed marked."""
        if self.before is None or self.after is None:
            return dag_steps.Change(dag.Graph(), dag.Graph())
        return dag_steps.step_graphs(self.before, self.after)


@dataclass(frozen=True, repr=False)
class Explanation:
    """Everything `explain` found out; see the module docstring."""

    name: str
    original: str
    ir_text: str
    steps: tuple[Step, ...]
    final: str
    commented: str  # the final code, each statement with where it came from
    kept: tuple[str, ...]
    missed: tuple[str, ...]
    final_ir: ir.Function | None

    def dag(self, step: int | str | None = None) -> str:
        """The final expression DAG, in Graphviz DOT text; with `step` (see `step_of`) the DAG
        before and after that pass run, side by side, the nodes it changed marked."""
        if step is not None:
            return dag_steps.to_dot(self.step_of(step).change(), self.name)
        if self.final_ir is None:
            return 'digraph "dag" {\n}\n'
        return dag.to_dot(dag.build_graph(self.final_ir), self.name)

    def dag_svg(self) -> str:
        """The final expression DAG as SVG pictures: one, or for a big function the overview
        of its statement groups and a picture per group (see `dag_pictures`)."""
        return "\n".join(svg for _, svg in self.dag_pictures())

    def dag_pictures(self) -> list[tuple[str, str]]:
        """(title, SVG) for each picture of the final expression DAG (see `dag.pictures`)."""
        if self.final_ir is None:
            return [("", dag.to_svg(dag.Graph()))]
        return [(title, dag.to_svg(graph)) for title, graph in dag.pictures(self.final_ir)]

    def step_of(self, step: int | str) -> Step:
        """A pass run that changed the function: by its index in `steps`, by its title
        (`"fold_constants (round 3)"`) or by its pass's name (its first run that changed it)."""
        if isinstance(step, int):
            return self.steps[step]
        found = [s for s in self.steps if step in (s.title, s.name)]
        if not found:
            runs = ", ".join(s.title for s in self.steps) or "none"
            raise ValueError(f"no pass run named {step!r} changed {self.name} (those that did: "
                             f"{runs})")
        return found[0]

    def step_pictures(self, step: int | str) -> list[tuple[str, str]]:
        """(title, SVG) of the DAG before and after a pass run (see `step_of`)."""
        found = self.step_of(step)
        change = found.change()
        return [(f"before {found.title}", dag.to_svg(change.before)),
                (f"after {found.title}", dag.to_svg(change.after))]

    def __str__(self) -> str:
        parts = [_section(f"{self.name}: the original"), self.original.rstrip("\n"),
                 _section("the IR the front end built"), self.ir_text.rstrip("\n")]
        for step in self.steps:
            title = (f"{step.name} (round {step.round}): {step.nodes_before} → "
                     f"{step.nodes_after} nodes, {step.seconds * 1000:.2f} ms")
            parts += [_section(title)]
            parts += [f"  {rule}" for rule in notes.counted(step.notes, codegen.expression_text)]
            parts += [f"  (left alone in round {step.round - 1}: {note.text(codegen.expression_text)})"
                      for note in step.lifted]
            parts += [step.diff.rstrip("\n")]
        parts += [_section("the generated source"), self.final.rstrip("\n")]
        parts += [_section("where each line came from"), self.commented.rstrip("\n")]
        parts += [_section("kept as written")] + (list(self.kept) or ["nothing"])
        parts += [_section("left alone")] + (list(self.missed) or ["nothing"])
        return "\n".join(parts) + "\n"

    def __repr__(self) -> str:
        passes = ", ".join(dict.fromkeys(step.name for step in self.steps)) or "none"
        return (f"<Explanation of {self.name}: {len(self.steps)} pass runs changed it "
                f"({passes}); {len(self.final.splitlines())} lines generated; "
                f"{len(self.kept)} kept as written, {len(self.missed)} left alone; "
                "print() it for the whole story>")

    def _repr_html_(self) -> str:
        """The report as a fragment for a notebook cell (its style scoped to it)."""
        return render_fragment(self)

    def html_page(self) -> str:
        """The report as one self-contained HTML page."""
        return render_html(self)

    def to_html(self, path: str | Path) -> None:
        """Write the explanation as one self-contained HTML file."""
        Path(path).write_text(self.html_page(), encoding="utf-8")


def _section(title: str) -> str:
    return f"\n=== {title} ==="


def _kept_as_written(function: ir.Function) -> list[str]:
    """`line 7: with open(p) as f: ... kept as written: <reason>` for each opaque part."""
    kept: list[str] = []
    for stmt in walk_statements(function.body):
        if isinstance(stmt, ir.Opaque):
            text = ast.unparse(stmt.node).splitlines()[0]
            kept.append(f"line {stmt.loc.line}: {text} kept as written: {stmt.reason}")
        for expr in statement_expressions(stmt):
            for node in walk_expr(expr):
                if isinstance(node, ir.OpaqueExpr):
                    kept.append(f"line {stmt.loc.line}: {node.text} kept as written: {node.reason}")
    return kept


def _range(start: int, stop: int) -> str:
    """A hunk's line range as unified diffs write it (`3`, `3,4`, `2,0`)."""
    length = stop - start
    return f"{start + 1}" if length == 1 else f"{start + (1 if length else 0)},{length}"


def _source_lines(rendered: codegen.Rendering) -> tuple[list[str], list[int]]:
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


Renderings = dict[int, tuple[ir.Function, codegen.Rendering]]


def _rendering_of(function: ir.Function, rendered: Renderings) -> codegen.Rendering:
    """`function` rendered once per explanation: a pass run's IR after is the next changing
    run's IR before, the last one's the final IR (`rendered` keeps them by identity, alive)."""
    if id(function) not in rendered:
        rendered[id(function)] = (function, codegen.rendering(function))
    return rendered[id(function)][1]


def _size_of(function: ir.Function, sizes: dict[int, int]) -> int:
    """`size(function)`, counted once per explanation, as `_rendering_of` renders (`sizes` by
    the IR's id, the IR alive in the log)."""
    if id(function) not in sizes:
        sizes[id(function)] = size(function)
    return sizes[id(function)]


def _labelled_diff(run: PassRun, rendered: Renderings) -> str:
    """A unified diff of the source before and after the pass run, each hunk labelled with the
    rules the pass applied at the user's lines the changed statements come from."""
    old, old_origins = _source_lines(_rendering_of(run.before, rendered))
    new, new_origins = _source_lines(_rendering_of(run.after, rendered))
    parts = ["--- before\n", "+++ after\n"]
    at_line: dict[int, list[int]] = {}  # the notes at each line, by their place in `run.notes`
    for index, note in enumerate(run.notes):
        at_line.setdefault(note.line, []).append(index)
    for group in textdiff.grouped_opcodes(old, new, 2):
        touched = {origin for tag, i1, i2, j1, j2 in group if tag != "equal"
                   for origin in (*old_origins[i1:i2], *new_origins[j1:j2])}
        said = [run.notes[index] for index in sorted(index for line in touched
                                                     for index in at_line.get(line, ()))]
        label = "  " + "; ".join(notes.counted(said, codegen.expression_text)) if said else ""
        (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
        parts.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@{label}\n")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                parts += [" " + line for line in old[a1:a2]]
            else:
                parts += ["-" + line for line in old[a1:a2]] + ["+" + line for line in new[b1:b2]]
    return "".join(parts)


def _refusals(run: PassRun) -> tuple[Note, ...]:
    return tuple(note for note in run.notes if note.kind == "missed")


def _left_alone(log: list[PassRun]) -> tuple[Note, ...]:
    """The refusals that stand: those of each pass's last run, which saw the settled function
    (a refusal of an earlier round that a later round overcame, inlining the call after
    another pass bound the callee, is history, not something left alone)."""
    last = {run.name: run for run in log}
    return tuple(note for run in log if last[run.name] is run for note in _refusals(run))


def _lifted(log: list[PassRun]) -> dict[int, tuple[Note, ...]]:
    """For each run (by its index in `log`): the refusals of the same pass's previous run that
    it no longer makes, where it applied the same rule at the same line."""
    previous: dict[str, PassRun] = {}
    lifted: dict[int, tuple[Note, ...]] = {}
    for index, run in enumerate(log):
        before = previous.get(run.name)
        previous[run.name] = run
        if before is None:
            continue
        done = {(note.rule, note.line) for note in run.notes if note.kind == "changed"}
        still = set(_refusals(run))
        lifted[index] = tuple(dict.fromkeys(
            note for note in _refusals(before) if note not in still and (note.rule, note.line) in done))
    return lifted


def explain(func: Any, *args: Any, **kwargs: Any) -> Explanation:
    """What the compiler did to `func` (a function, `@symbolic` or not) for these arguments
    (the cyclic garbage collector paused throughout, as in a compilation: the log of IR
    versions and their renderings stay alive, and collections would walk them again and
    again)."""
    compiled = func if api.is_symbolic(func) else api.symbolic(func)
    with collector_paused():
        return _explanation(compiled, api.version_for(compiled, *args, **kwargs))


def _explanation(compiled: Any, version: api.Version) -> Explanation:
    before = version.before if version.log else version.ir  # no pass ran: as it is relied on
    steps = []
    rendered: Renderings = {}
    lifted = _lifted(version.log)
    sizes: dict[int, int] = {}
    for index, run in enumerate(version.log):
        if run.changed:
            steps.append(Step(run.name, run.round, _size_of(run.before, sizes),
                              _size_of(run.after, sizes), run.seconds,
                              _labelled_diff(run, rendered), run.notes, lifted.get(index, ()),
                              run.before, run.after))
    missed = dict.fromkeys(note.text(codegen.expression_text)
                           for note in _left_alone(version.log))
    commented = _rendering_of(version.ir, rendered).commented(notes.comments_for(
        version.ir, version.notes, version.written.lines)) \
        if version.ir is not None else version.source
    return Explanation(
        name=compiled.__qualname__,
        original=version.written.text,
        ir_text=ir.format_function(before) if before is not None else "",
        steps=tuple(steps),
        final=version.source,
        commented=commented,
        kept=tuple(_kept_as_written(before)) if before is not None else (version.note,),
        missed=tuple(missed),
        final_ir=version.ir,
    )
