"""One compile path (issue 12 #2): `compiler.compile_version` is the only place the front end,
the passes, code generation and the loader are chained, and every user goes through it."""

from __future__ import annotations

import types
from typing import Callable

import pytest

import symcompile as sc
from symcompile import ir
from symcompile.passes import pipeline
from symcompile.passes.fold_constants import fold_constants
from symcompile.runtime import api, cache, compiler
from symcompile.runtime.oracle import assert_equivalent
from tests import golden

MakeModule = Callable[[str], types.ModuleType]

SOURCE = """
import math

SCALE = 2.0

def add(x, y):
    return x + y

def f(a, b):
    return add(a, b) * SCALE + math.sqrt(4.0)

class Scaled:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return x * self.k
"""


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions compiled through `compile_version` from now on."""
    made: list[str] = []
    real = compiler.compile_version

    def recording(source: compiler.Source, options: compiler.Options,
                  loading: compiler.Loading | None = None) -> compiler.Version:
        made.append(source.function.node.name)
        return real(source, options, loading)

    monkeypatch.setattr(compiler, "compile_version", recording)
    return made


def test_one_compile_path_symbolic_goes_through_compile_version(calls: list[str],
                                                                make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    compiled = sc.symbolic(module.f)
    assert compiled(1.0, 2.0) == module.f(1.0, 2.0)
    assert calls == ["f"]


def test_one_compile_path_a_compiled_object_goes_through_compile_version(
        calls: list[str], make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    net = module.Scaled(3.0)
    assert sc.symbolic(net)(2.0) == 6.0
    assert calls == ["__call__"]


def test_one_compile_path_optimize_source_goes_through_compile_version(calls: list[str]) -> None:
    text = "def f(x):\n    return x * (2 + 3)\n\nprint(f(1))\n"
    assert sc.optimize_source(text) == "def f(x):\n    return x * 5\n\n\nprint(5)\n"
    assert calls == ["f", "module_statement"]


def test_one_compile_path_explain_goes_through_compile_version(calls: list[str],
                                                               make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    explanation = sc.explain(module.f, 1.0, 2.0)
    assert calls == ["f"]
    assert explanation.name == "f" and "def f(a, b):" in explanation.original


def test_one_compile_path_check_mode_goes_through_compile_version(calls: list[str]) -> None:
    def wrong(function: ir.Function) -> ir.Function:
        """Returns 0.0 instead of anything: a broken pass, on purpose."""
        body = (ir.Return(ir.Const(0.0), function.loc),)
        return function.with_body(body)

    def plus(x):
        return x + 1.0

    checked = sc.symbolic(plus, check=True, passes=[fold_constants, wrong])
    with pytest.raises(sc.CheckError, match="first pass that changes the result: wrong"):
        checked(1.0)
    assert calls == ["plus"] * 3  # the version checked, then one per prefix of the pipeline


def test_one_compile_path_the_golden_tests_go_through_compile_version(calls: list[str]) -> None:
    case = golden.read_case(next(iter(sorted(golden.GOLDEN_DIR.glob("fold_constants/*.py")))))
    assert golden.same_code(case.after, golden.produce(case))
    assert calls == [golden.target_name(case)]


def test_a_version_holds_what_each_stage_made(make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    version = compiler.compile_version(compiler.Source.of(module.f), compiler.Options())
    assert version.function is None  # no `Loading`: not loaded
    with pytest.raises(TypeError, match="was not loaded"):
        version.loaded()
    assert version.before is not None and version.ir is not None
    assert version.log and version.log[0].before is version.before
    assert version.source == (
        "def f(a, b):\n    return (a + b) * SCALE + 2.0\n")  # no checks on entry without loading
    assert [a.name for a in version.assumptions] == ["add"]
    assert any(note.kind == "changed" for note in version.notes)
    assert version.written.text.startswith("def f(a, b):")


def test_a_loaded_version_checks_its_assumptions_on_entry(make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    stale: list[tuple[object, ...]] = []
    source = compiler.Source.of(module.f)
    loading = compiler.Loading(
        compiler.loader.Scope.of(module.f), module.f.__doc__,
        recompile=lambda *args: stale.append(args) or "stale", type_miss=module.f)
    version = compiler.compile_version(source, compiler.Options(), loading)
    compiled = version.loaded()
    assert_equivalent(module.f, compiled, (1.0, 2.0))
    assert "return recompile(a, b)" in version.source
    module.add = lambda x, y: x - y
    assert compiled(1.0, 2.0) == "stale" and stale == [(1.0, 2.0)]


def test_options_are_frozen_and_say_how_a_version_is_compiled(make_module: MakeModule) -> None:
    options = compiler.Options()
    with pytest.raises(AttributeError):
        options.guards = False  # type: ignore[misc]
    module = make_module(SOURCE)
    source = compiler.Source.of(module.f)
    unread = compiler.compile_version(source, compiler.Options(resolve_globals=False))
    assert unread.assumptions == () and "add(a, b)" in unread.source
    typed = compiler.compile_version(
        source, compiler.Options(passes=(), argument_types={"a": float}, static={"b": 2.0}))
    assert typed.before is not None and typed.before.argument_types == {"a": float}
    assert typed.source.startswith("def f(a, b):\n    b = 2.0\n")


def test_finish_returning_none_keeps_the_function_as_written(make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    version = compiler.compile_version(compiler.Source.of(module.f),
                                       compiler.Options(finish=lambda function: None))
    assert version.ir is None and version.source == version.written.text
    assert version.log  # the passes ran; only the result is not used


def test_objects_are_read_as_the_objects_they_hold(make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    source = compiler.Source(compiler.Source.of(module.f).function, None)  # no globals
    version = compiler.compile_version(source, compiler.Options(objects={"SCALE": 4.0}))
    assert version.source == "def f(a, b):\n    return add(a, b) * 4.0 + math.sqrt(4.0)\n"
    assert version.assumptions == ()


def test_the_cache_owns_the_versions_and_the_face_only_installs(make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    compiled = sc.symbolic(module.f)
    compiled(1.0, 2.0)
    state = compiled._symcompile
    assert isinstance(state, api.SymbolicFunction)
    assert isinstance(state.cache, cache.FunctionCache)
    (version,) = state.cache.versions.values()
    assert compiled.__code__ is version.loaded().__code__  # the installed code, called directly
    assert api.version_for(compiled, 1.0, 2.0) is version
    assert pipeline.PASSES == state.cache.options.passes


# ------------------------------------------------------------ f.versions() (issue 13 #1)


def test_always_explainable_versions_lists_each_cached_version_with_its_entry_conditions(
        make_module: MakeModule) -> None:
    module = make_module("""
        def add(x, y):
            return x + y

        def f(x):
            return add(x, 1.0) * 1.0
    """)
    compiled = sc.symbolic(module.f)
    assert compiled.versions() == []  # nothing compiled before the first call
    assert compiled(2.0) == 3.0
    (typed,) = compiled.versions()
    assert typed.installed and not typed.any_types and typed.static == {}
    assert typed.conditions[0].startswith("global add is <function")
    assert "type(x) is float" in typed.conditions
    assert typed.source == sc.source(compiled, 2.0)
    assert compiled(2) == 3.0  # an int: the version for any types
    typed_again, general = compiled.versions()
    assert typed_again == typed
    assert general.any_types and not general.installed
    assert not any(condition.startswith("type(") for condition in general.conditions)
    assert general.source == sc.source(compiled, 2)


def test_versions_lists_static_values_and_what_is_dropped(make_module: MakeModule) -> None:
    module = make_module("""
        def power(x, n):
            result = 1
            for _ in range(n):
                result = result * x
            return result
    """)
    compiled = sc.symbolic(module.power, static_argnames=("n",))
    assert compiled(2, 3) == 8 and compiled(2, 2) == 4
    listed = compiled.versions()
    assert [version.static for version in listed] == [{"n": 3}, {"n": 2}]
    assert [version.installed for version in listed] == [True, False]
    assert all("n is 3" in v.conditions or "n is 2" in v.conditions for v in listed)
    sc.clear_cache()
    assert compiled.versions() == []


def test_entry_conditions_of_a_compiled_object(make_module: MakeModule) -> None:
    module = make_module(SOURCE)
    compiled = sc.symbolic(module.Scaled(3.0))
    assert compiled(2.0) == 6.0
    (version,) = compiled.versions()
    assert any("as compiled" in condition for condition in version.conditions)
