"""The documentation site: it builds without warnings, the pass pages are up to date, and the
code on the pages runs and prints what the pages say it prints.

Runnable code on a page is a fenced `python` block right after a `<!-- run -->` line. The
blocks of one page run in order, in one namespace (as a reader pasting them into one session
would), each registered in `linecache` so `@symbolic` can read its source. A fenced `text` block
right after an `<!-- output -->` line is what the runnable block before it prints; a runnable
block with no such output block must print nothing.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import linecache
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from symcompile.passes import pipeline
from tests import gen_pass_pages

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RUN = "<!-- run -->"
OUTPUT = "<!-- output -->"
# pages whose every python block must run, so none of their examples can drift from the code
FULLY_RUN_PAGES = ("tutorial.md", "write-a-pass.md")
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, first line number (1-based), text and marker line."""

    language: str
    line: int
    text: str
    marker: str


def code_blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, each with the non-blank line just above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        end = next((i for i in range(index + 1, len(lines)) if lines[i].rstrip() == "```"), None)
        if end is None:
            raise ValueError(f"{path}: the code block at line {index + 1} is never closed")
        above = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        blocks.append(Block(opening.group(1), index + 2, "\n".join(lines[index + 1:end]), above))
        index = end + 1
    return blocks


def normalized(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def run_page(path: Path, namespace: dict[str, object] | None = None, marker: str = RUN,
             ) -> list[tuple[Block, str, str]]:
    """Run a page's runnable blocks (those after a `marker` line) in order, in `namespace` (a
    new one by default): (block, expected output, actual output) each."""
    blocks = code_blocks(path)
    namespace = {} if namespace is None else namespace
    namespace.setdefault("__name__", f"docs_{path.stem.replace('-', '_')}")
    results = []
    for position, block in enumerate(blocks):
        if block.marker != marker:
            continue
        following = blocks[position + 1] if position + 1 < len(blocks) else None
        expected = following.text if following and following.marker == OUTPUT else ""
        filename = f"<docs/{path.name} line {block.line}>"
        text = block.text + "\n"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(text, filename, "exec", dont_inherit=True), namespace)
        results.append((block, normalized(expected), normalized(printed.getvalue())))
    return results


def pages_with_code() -> list[Path]:
    pages = {DOCS / name for name in FULLY_RUN_PAGES}
    pages |= {path for path in DOCS.rglob("*.md") if RUN in path.read_text(encoding="utf-8")}
    return sorted(pages)


@pytest.mark.parametrize("path", pages_with_code(), ids=lambda path: path.name)
def test_page_code_prints_what_the_page_shows(path: Path) -> None:
    results = run_page(path)
    assert results, f"{path.name} has no runnable blocks"
    for block, expected, actual in results:
        assert actual == expected, (
            f"docs/{path.name}, the block at line {block.line} printed\n{actual}\n"
            f"but the page shows\n{expected}")


@pytest.mark.parametrize("name", FULLY_RUN_PAGES)
def test_every_python_example_runs(name: str) -> None:
    blocks = code_blocks(DOCS / name)
    not_run = [block.line for block in blocks if block.language == "python" and block.marker != RUN]
    assert not not_run, f"docs/{name}: python blocks at lines {not_run} lack a '{RUN}' line"
    orphans = [block.line for previous, block in zip([None, *blocks], blocks)
               if block.marker == OUTPUT and (previous is None or previous.marker != RUN)]
    assert not orphans, f"docs/{name}: output blocks at lines {orphans} follow no runnable block"


def test_a_wrong_output_on_a_page_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"{RUN}\n```python\nprint(1 + 1)\n```\n\n{OUTPUT}\n```text\n3\n```\n"
                    f"\n{RUN}\n```python\nx = 1\n```\n")
    [(_, expected, actual), (_, quiet_expected, quiet_actual)] = run_page(page)
    assert (expected, actual) == ("3", "2")
    assert quiet_expected == quiet_actual == ""


def test_pass_pages_are_up_to_date() -> None:
    generated = gen_pass_pages.pages()
    stale = [path.relative_to(ROOT).as_posix() for path, text in generated.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    extra = sorted(path.relative_to(ROOT).as_posix()
                   for path in set(gen_pass_pages.PAGES_DIR.glob("*.md")) - set(generated))
    assert not stale and not extra, (
        f"out of date: {stale}, not generated: {extra}; regenerate the pass pages with "
        f"`{gen_pass_pages.COMMAND}` (from the repository root) and commit them")


def test_the_nav_lists_every_pass_page_in_pipeline_order() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = re.findall(r"passes/(\w+)\.md", config)
    assert listed == ["index", *(run_pass.__name__ for run_pass in pipeline.PASSES)], (
        "mkdocs.yml: the Passes section must list passes/index.md and then every pass of "
        "symcompile.passes.pipeline.PASSES, in order")


def test_mkdocs_builds_strictly(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (it is in the test and docs extras: "
                    "pip install -e '.[test]')")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
               str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                            check=False)
    log = result.stdout + result.stderr
    assert result.returncode == 0 and "WARNING" not in log, log
    assert (tmp_path / "site" / "tutorial" / "index.html").exists()


def test_the_site_is_highlighted_with_nothing_loaded_from_the_network(tmp_path: Path) -> None:
    """Code is highlighted when the site is built, styled by a CSS file shipped with it: a
    site read offline is highlighted too (issue 14 #6; the theme's highlight.js came from a
    CDN)."""
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (it is in the test and docs extras)")
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--config-file",
                    str(ROOT / "mkdocs.yml"), "--site-dir", str(site)], cwd=ROOT,
                   capture_output=True, timeout=300, check=True)
    page = (site / "index.html").read_text(encoding="utf-8")
    loaded = re.findall(r'<(?:script|link|img)\b[^>]*(?:src|href)="(https?:)?//[^"]*"', page)
    assert loaded == []
    assert '<link href="css/pygments.css" rel="stylesheet">' in page
    assert '<div class="codehilite"><pre><span></span><code><span class="kn">import</span>' in page
    assert ".codehilite .k " in (site / "css" / "pygments.css").read_text(encoding="utf-8")
