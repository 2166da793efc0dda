"""Shared pytest setup: the golden-file accept switch and a fixture that imports source text
as a real module (so `inspect.getsource` works on the functions it defines)."""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
import textwrap
import types
from pathlib import Path
from typing import Callable, Iterator

import pytest

from symcompile import ir
from symcompile.passes import pipeline
from tests.source_module import import_source

_module_numbers = itertools.count()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the expected half of golden files with what the compiler produces now "
        "(same as SYMCOMPILE_UPDATE_GOLDEN=1)",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden")) or \
        os.environ.get("SYMCOMPILE_UPDATE_GOLDEN", "0") not in ("", "0")


@pytest.fixture
def make_module(tmp_path: Path) -> Callable[[str], types.ModuleType]:
    """`make_module(source)` writes the (dedented) source to a file and imports it."""

    def make(source: str) -> types.ModuleType:
        path = tmp_path / f"symcompile_test_module_{next(_module_numbers)}.py"
        return import_source(textwrap.dedent(source), path)

    return make


@pytest.fixture
def make_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                 ) -> Iterator[Callable[..., dict[str, types.ModuleType]]]:
    """`make_modules(shapes=source, main=source)` writes modules under those names (which may
    import one another: `from shapes import area`) and imports them in that order; they leave
    `sys.modules` when the test ends."""
    names: list[str] = []

    def make(**sources: str) -> dict[str, types.ModuleType]:
        directory = tmp_path / f"modules_{next(_module_numbers)}"
        directory.mkdir()
        for name, source in sources.items():
            if name in sys.modules:
                raise ValueError(f"a module named {name!r} is already imported")
            (directory / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        monkeypatch.syspath_prepend(str(directory))
        names.extend(sources)
        return {name: importlib.import_module(name) for name in sources}

    yield make
    for name in names:
        sys.modules.pop(name, None)


@pytest.fixture
def compile_counter(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records the name of every function compiled from now on."""
    compiled: list[str] = []
    real = pipeline.run_passes

    def counting(function: ir.Function, passes: object = ()) -> object:
        compiled.append(function.name)
        return real(function, passes)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "run_passes", counting)
    return compiled


@pytest.fixture
def specialize_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """Versions rely on the argument types the passes use, paying or not (no cost model): for
    tests of the type-conditional rules through the runtime."""
    monkeypatch.setattr(pipeline, "WEIGH_SPECIALIZATIONS", False)
