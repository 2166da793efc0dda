"""The HTML report of an explanation: one self-contained page (no network, no scripts), or the
same as a fragment for a notebook cell (`render_fragment`: its CSS applies only inside its
wrapper, `.symcompile-report`, so it restyles nothing around it).

Renders an `explain.Explanation`: the pipeline as a list of the passes that changed something
(each linking to its diff, with the rules it applied), the original and generated source, the
unified diffs with added and removed lines coloured, under each diff the DAG before and after
that pass side by side with the values it changed marked (`dag_steps.py`), the final
expression DAG drawn as an inline SVG (`dag.to_svg`), and what was kept as written or left
alone.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from ..backend import codegen
from ..passes import notes
from . import dag

if TYPE_CHECKING:
    from .explain import Explanation, Step

WRAPPER = "symcompile-report"
RULES = """
{ font-family: system-ui, sans-serif; max-width: 70em; color: #222; }
pre { background: #f6f8fa; padding: .8em; overflow-x: auto; font-size: 90%; }
.add { background: #e6ffec; display: block; }
.del { background: #ffebe9; display: block; }
.hunk { color: #57606a; display: block; }
.rules { color: #0a3069; }
nav li { margin: .2em 0; }
.dag { border: 1px solid #ddd; background: #fff; }
.dag-picture { overflow-x: auto; }
.dag-pair { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.dag-pair figure { margin: 0; min-width: 0; }
.dag-pair svg { width: 100%; height: auto; box-sizing: border-box; }
.dag-pair figcaption { font-weight: bold; margin: .2em 0; }
.swatch { display: inline-block; width: 1em; height: .8em; border-radius: 2px; vertical-align: middle; }
"""
# every rule scoped to the wrapper: `.symcompile-report pre { ... }`
STYLE = "\n".join(f".{WRAPPER} {rule}" for rule in RULES.strip().splitlines())
PAGE_STYLE = "body { margin: 2em; }"


def _code(text: str) -> str:
    return f"<pre><code>{html.escape(text)}</code></pre>"


def _diff(text: str) -> str:
    lines = []
    for line in text.splitlines():
        kind = "add" if line.startswith("+") and not line.startswith("+++") else \
            "del" if line.startswith("-") and not line.startswith("---") else \
            "hunk" if line.startswith("@@") else ""
        # The newline inside the span: after a block of its own, it would add an empty line.
        escaped = html.escape(line) + "\n"
        lines.append(f'<span class="{kind}">{escaped}</span>' if kind else escaped)
    return "<pre><code>" + "".join(lines) + "</code></pre>"


def _list(items: tuple[str, ...]) -> str:
    if not items:
        return "<p>nothing</p>"
    return "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>"


DAG_KEY = ("Arrows run from a value to each use. Yellow: the inputs; white: values, as the "
           "code that computes them (with the variable they are stored in); blue: statements; "
           "an orange border: a value used more than once; dashed: a value drawn further up.")


# the marks of a pass's before/after pictures, as `layered.MARK_STYLE` draws them
STEP_KEY = (("#dafbe1", "#1a7f37", "solid", "new in this pass"),
            ("#ffebe9", "#cf222e", "dashed", "gone (taken away or rewritten)"),
            ("#f3e8ff", "#8250df", "solid", "equal computations made one shared value"))


def step_key() -> str:
    """What the marks of the before/after pictures mean."""
    swatches = "; ".join(
        f'<span class="swatch" style="background:{fill};border:2px {line} {stroke}"></span> '
        f"{html.escape(text)}" for fill, stroke, line, text in STEP_KEY)
    return ('<p class="key">Under each diff, the DAG before and after the pass: each box one '
            f"value the code computes, arrows running to its uses. {swatches}.</p>")


def step_dag(step: Step) -> str:
    """The DAG before and after a pass run, side by side, open unless the function is too
    big to draw whole (then drawn around the changes, and folded)."""
    change = step.change()
    around = " (drawn around the first changes: the function is too big to draw whole)" \
        if change.cut else ""
    figures = "".join(_figure(side, dag.to_svg(graph))
                      for side, graph in (("before", change.before), ("after", change.after)))
    return (f'<details class="dag-step"{"" if change.cut else " open"}><summary>the DAG before '
            f"and after: {html.escape(change.summary() + around)}</summary>"
            f'<div class="dag-pair">{figures}</div></details>')


SMALLEST = 0.75  # the least a before/after picture is scaled to stand beside the other


def _figure(side: str, svg: str) -> str:
    """One picture of a before/after pair: as wide as drawn at most, scaled down to stand
    beside the other (to `SMALLEST` of its size; narrower, the pair stacks, or it scrolls)."""
    found = re.search(r'<svg [^>]*?width="([\d.]+)(pt)?"', svg)
    width = float(found.group(1)) * (4 / 3 if found.group(2) else 1) if found else 400.0
    least = SMALLEST * width
    svg = svg.replace("<svg ", f'<svg style="min-width:{least:.0f}px" ', 1)
    return (f'<figure class="{side}" style="flex:1 1 {least:.0f}px;max-width:{width:.0f}px">'
            f'<figcaption>{side}</figcaption><div class="dag-picture">{svg}</div></figure>')


def _dag(explanation: Explanation) -> str:
    """The DAG pictures: one, or the overview of the statement groups and each group folded."""
    pictures = explanation.dag_pictures()
    first_title, first = pictures[0]
    parts = [f'<p class="key">{html.escape(DAG_KEY)}</p>']
    if first_title:
        parts.append(f"<p>{html.escape(first_title)}:</p>")
    parts.append(f'<div class="dag-picture">{first}</div>')
    parts += [f'<details><summary>{html.escape(title)}</summary><div class="dag-picture">'
              f"{svg}</div></details>" for title, svg in pictures[1:]]
    return "\n".join(parts)


MAX_RULES = 12  # rules listed under a pass's title; its diff's hunks name each one anyway


def rules_text(step: Step) -> str:
    """The rules a pass run applied, counted (`inline add (line 3) ×2`), the first
    `MAX_RULES` of them."""
    rules = notes.counted(step.notes, codegen.expression_text)
    if len(rules) > MAX_RULES:
        rules[MAX_RULES:] = [f"… and {len(rules) - MAX_RULES} more (each hunk of the diff "
                             "names its own)"]
    return "; ".join(rules)


def render_html(explanation: Explanation) -> str:
    """The whole page for `explanation`."""
    title = html.escape(f"symcompile: {explanation.name}")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{PAGE_STYLE}</style></head><body>",
        render_fragment(explanation), "</body></html>"]) + "\n"


def render_fragment(explanation: Explanation) -> str:
    """The report as one `<div class="symcompile-report">`, its style scoped to it (each
    expression's text written once for all its pictures, `dag.texts_remembered`)."""
    with dag.texts_remembered():
        return _fragment(explanation)


def _fragment(explanation: Explanation) -> str:
    title = html.escape(f"symcompile: {explanation.name}")
    steps = explanation.steps
    pipeline = "".join(
        f'<li><a href="#step-{index}">{html.escape(step.name)}</a> (round {step.round}): '
        f"{step.nodes_before} → {step.nodes_after} nodes, {step.seconds * 1000:.2f} ms</li>"
        for index, step in enumerate(steps))
    sections = []
    for index, step in enumerate(steps):
        rules = rules_text(step)
        sections.append(
            f'<section class="pass" id="step-{index}"><h3>{html.escape(step.name)} '
            f"(round {step.round})</h3>"
            + (f'<p class="rules">rules: {html.escape(rules)}</p>' if rules else "")
            + _diff(step.diff) + step_dag(step) + "</section>")
    return "\n".join([
        f'<div class="{WRAPPER}"><style>{STYLE}</style>', f"<h1>{title}</h1>",
        "<h2>The original</h2>", _code(explanation.original),
        "<h2>The pipeline</h2>", f'<nav><ol class="pipeline">{pipeline}</ol></nav>{step_key()}'
        if steps else "<p>no pass changed anything</p>",
        *sections,
        "<h2>The generated source</h2>", _code(explanation.final),
        "<h2>The expression DAG</h2>", f'<div class="final-dag">{_dag(explanation)}</div>',
        "<h2>Kept as written</h2>", _list(explanation.kept),
        "<h2>Left alone</h2>", _list(explanation.missed),
        "<h2>The IR the front end built</h2>", _code(explanation.ir_text),
        "</div>",
    ])
