"""The docs work for someone who installed the package (issue 14 #6): every runnable snippet and
every command of symcompile's command line on README.md and the docs pages runs from a
non-editable install, in a temporary working directory, with the source tree out of reach.

The package is built and installed by pip, offline (`--no-index --no-build-isolation`: the
setuptools of the environment builds it; the test extra brings one that can), into a folder of
its own (`--target`), from a copy of the files a release ships so that the build writes nothing
into the checkout. tests/doc_pages.py, copied beside it, runs the pages (each in its own
namespace, as tests/test_docs.py does) and the commands written in their text, all in one
Python process that imports symcompile from that folder first, and reports what ran as JSON.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from tests import doc_pages
from tests.test_docs import ROOT, pages_with_code

pytestmark = pytest.mark.slow

# what a release ships: setup.cfg's packages, and the files the build reads
SHIPPED = ("pyproject.toml", "setup.cfg", "README.md", "symcompile")
# a usage pattern rather than a command: a word such as FILE, TARGET or OUT stands for the reader's
PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b")
# commands written in the docs that are not run here, and why
NOT_RUN = {
    "symcompile explain": "it names the command (followed by `sc.explain(f, *args)`'s twin)",
    "symcompile serve": "it serves until stopped: tests/test_serve.py starts and stops it",
    'symcompile explain mycode.py::norm --args "np.ones(3), p=3"':
        "it names the reader's own file, mycode.py",
}


def setuptools_can_build() -> str:
    """Why the environment's setuptools cannot build a wheel without the network, or ''."""
    try:
        version = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return "setuptools is not installed"
    major, minor = (int(part) for part in version.split(".")[:2])
    if (major, minor) < (70, 1):
        try:
            metadata.version("wheel")
        except metadata.PackageNotFoundError:
            return f"setuptools {version} builds wheels only with the wheel package (70.1 on)"
    return ""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """symcompile, installed by pip from a copy of what a release ships: the install folder."""
    reason = setuptools_can_build()
    if reason:
        pytest.skip(f"{reason}: pip install -e '.[test]' installs one that can")
    source = tmp_path_factory.mktemp("source")
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    target = tmp_path_factory.mktemp("installed")
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
               "--no-index", "--disable-pip-version-check", "--no-input", "--quiet",
               "--target", str(target), str(source)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return target


def isolated_env(tmp_path: Path) -> dict[str, str]:
    """The environment, without a PYTHONPATH that could reach the checkout."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    env["SYMCOMPILE_CACHE_DIR"] = str(tmp_path / "cache")
    return env


def not_run(command: str) -> bool:
    return command in NOT_RUN or bool(PLACEHOLDER.search(command))


@pytest.fixture(scope="module")
def report(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """What the pages' code and commands did when run from the installed copy."""
    runner = tmp_path_factory.mktemp("runner")
    shutil.copy2(Path(doc_pages.__file__), runner / "doc_pages.py")
    work = tmp_path_factory.mktemp("work")
    out = runner / "report.json"
    skipped = sorted({command for page in pages_with_code()
                      for command in doc_pages.inline_commands(page) if not_run(command)})
    command = [sys.executable, str(runner / "doc_pages.py"), str(installed), str(out),
               *map(str, pages_with_code())]
    result = subprocess.run(command, input="\n".join(skipped), capture_output=True, text=True,
                            cwd=work, env=isolated_env(work), timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    loaded: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return loaded


def test_the_pages_run_from_the_installed_copy_not_the_checkout(installed: Path,
                                                              report: dict[str, object]):
    assert Path(str(report["symcompile"])).is_relative_to(installed)
    path = [str(entry) for entry in report["path"]]  # type: ignore[attr-defined]
    reaching = [entry for entry in path if Path(entry).is_relative_to(ROOT)]
    assert reaching == [], "the page runner could import from the checkout"


def test_every_runnable_block_prints_what_the_page_shows(report: dict[str, object]):
    blocks: list[dict[str, object]] = report["blocks"]  # type: ignore[assignment]
    assert {block["page"] for block in blocks} == {page.name for page in pages_with_code()}
    for block in blocks:
        assert block["actual"] == block["expected"], (
            f"{block['page']}, the block at line {block['line']} printed, from an installed "
            f"copy,\n{block['actual']}\nbut the page shows\n{block['expected']}")


def test_every_command_in_the_text_runs(report: dict[str, object]):
    commands: list[dict[str, object]] = report["commands"]  # type: ignore[assignment]
    for command in commands:
        assert command["code"] == 0 and command["out"], (
            f"{command['page']}: `{command['command']}` exited {command['code']} from an "
            f"installed copy\n{command['out']}{command['err']}")
        assert "Traceback" not in str(command["err"])
    ran = {command["command"] for command in commands}
    assert {"symcompile demo", "python -m symcompile --help",
            'symcompile explain symcompile.examples.fancy::fancy_func --args "1, 2, 3, 4"'} <= ran


def test_the_commands_left_out_are_still_in_the_docs():
    written = {command for page in pages_with_code() for command in doc_pages.inline_commands(page)}
    assert set(NOT_RUN) <= written, "NOT_RUN lists a command the docs no longer hold"


def test_the_installed_console_script_runs(installed: Path, tmp_path: Path):
    script = installed / "bin" / "symcompile"
    env = {**isolated_env(tmp_path), "PYTHONPATH": str(installed)}
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=120, check=False)
    assert (result.returncode, result.stdout.strip()) == (0, f"symcompile {version(installed)}")


def version(installed: Path) -> str:
    [dist_info] = installed.glob("symcompile-*.dist-info")
    return metadata.Distribution.at(dist_info).version
