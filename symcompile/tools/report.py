"""The HTML report of an explanation: one self-contained page (no network, no scripts), or the
same as a fragment for a notebook cell (`render_fragment`: its CSS applies only inside its
wrapper, `.symcompile-report`, so it restyles nothing around it).

Renders an `explain.Explanation`: the pipeline as a list of the passes that changed something
(each linking to its diff, with the rules it applied), the original and generated source, the
unified diffs with added and removed lines coloured, the expression DAG drawn as an inline SVG
(`dag.to_svg`), and what was kept as written or left alone.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..backend import codegen
from ..passes import notes

if TYPE_CHECKING:
    from .explain import Explanation

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


def render_html(explanation: Explanation) -> str:
    """The whole page for `explanation`."""
    title = html.escape(f"symcompile: {explanation.name}")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{PAGE_STYLE}</style></head><body>",
        render_fragment(explanation), "</body></html>"]) + "\n"


def render_fragment(explanation: Explanation) -> str:
    """The report as one `<div class="symcompile-report">`, its style scoped to it."""
    title = html.escape(f"symcompile: {explanation.name}")
    steps = explanation.steps
    pipeline = "".join(
        f'<li><a href="#step-{index}">{html.escape(step.name)}</a> (round {step.round}): '
        f"{step.nodes_before} → {step.nodes_after} nodes, {step.seconds * 1000:.2f} ms</li>"
        for index, step in enumerate(steps))
    sections = []
    for index, step in enumerate(steps):
        rules = "; ".join(notes.counted(step.notes, codegen.expression_text))
        sections.append(
            f'<section class="pass" id="step-{index}"><h3>{html.escape(step.name)} '
            f"(round {step.round})</h3>"
            + (f'<p class="rules">rules: {html.escape(rules)}</p>' if rules else "")
            + _diff(step.diff) + "</section>")
    return "\n".join([
        f'<div class="{WRAPPER}"><style>{STYLE}</style>', f"<h1>{title}</h1>",
        "<h2>The original</h2>", _code(explanation.original),
        "<h2>The pipeline</h2>", f'<nav><ol class="pipeline">{pipeline}</ol></nav>'
        if steps else "<p>no pass changed anything</p>",
        *sections,
        "<h2>The generated source</h2>", _code(explanation.final),
        "<h2>The expression DAG</h2>", _dag(explanation),
        "<h2>Kept as written</h2>", _list(explanation.kept),
        "<h2>Left alone</h2>", _list(explanation.missed),
        "<h2>The IR the front end built</h2>", _code(explanation.ir_text),
        "</div>",
    ])
