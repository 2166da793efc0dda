"""The documentation site: it builds without warnings, the pass pages are up to date, and the
code on the pages (README.md's too) runs and prints what the pages say it prints.

tests/doc_pages.py says how a page marks its runnable code and runs it; here it runs against
the source tree, and tests/test_docs_installed.py runs it again from an installed copy.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from symcompile.passes import pipeline
from tests import gen_pass_pages
from tests.doc_pages import (OUTPUT, RUN, Block, CommandFailed, code_blocks, inline_commands,
                              normalized, run_page)

__all__ = ["Block", "DOCS", "code_blocks", "normalized", "run_page"]  # tests import them here

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
# pages whose every python block must run, so none of their examples can drift from the code
FULLY_RUN_PAGES = ("tutorial.md", "write-a-pass.md")


def pages_with_code() -> list[Path]:
    """README.md and the docs pages with runnable code."""
    pages = {DOCS / name for name in FULLY_RUN_PAGES}
    pages |= {path for path in DOCS.rglob("*.md") if RUN in path.read_text(encoding="utf-8")}
    return [README, *sorted(pages)]


@pytest.mark.parametrize("path", pages_with_code(), ids=lambda path: path.name)
def test_page_code_prints_what_the_page_shows(path: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the files a page writes land there, never in the checkout
    monkeypatch.syspath_prepend(str(tmp_path))  # and import from there, as in a Python session
    results = run_page(path)
    assert results, f"{path.name} has no runnable blocks"
    for block, expected, actual in results:
        assert actual == expected, (
            f"{path.relative_to(ROOT)}, the block at line {block.line} printed\n{actual}\n"
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


def test_a_page_writes_its_files_and_runs_its_commands(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    page = tmp_path / "page.md"
    page.write_text("<!-- file: one.py -->\n```python\ndef one():\n    return 1 + 0\n```\n\n"
                    f"{RUN}\n```console\n$ symcompile optimize one.py\n```\n\n"
                    f"{OUTPUT}\n```text\ndef one():\n    return 1\n```\n")
    [(_, expected, actual)] = run_page(page)
    assert expected == actual == "def one():\n    return 1"
    page.write_text(f"{RUN}\n```console\n$ symcompile optimize missing.py\n```\n")
    with pytest.raises(CommandFailed, match=r"`symcompile optimize missing.py` exited 2"):
        run_page(page)


def test_commands_written_in_the_text_are_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Run `symcompile demo`, or `python -m symcompile\n  --help`; `sc.explain(f)`"
                    " is not one.\n\n```\npip install . && python -m symcompile demo\n```\n\n"
                    f"{RUN}\n```console\n$ symcompile --version\n```\n")
    assert inline_commands(page) == ["symcompile demo", "python -m symcompile --help",
                                     "python -m symcompile demo"]


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


@pytest.mark.slow  # builds the whole site
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


@pytest.mark.slow  # builds the whole site
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
