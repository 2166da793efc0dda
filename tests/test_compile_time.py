"""Compile time (issue 12) and compile-time bombs (issue 15): the compiler's own cost stays
near linear in the size of a function, and no function makes it fail or hang.

Bounds are generous (about ten times what this machine measures when busy): a shared, noisy
machine must not make them flaky, while a cost growing with the square of the size would still
blow through them. Every compiled function is checked against the original by the differential
oracle. The shapes come from the compile benchmark (benchmarks/bench_compile.py).
"""

from __future__ import annotations

import ast
import gc
import time
import types
from collections.abc import Callable

import pytest

import symcompile as sc
from benchmarks import bench_compile
from symcompile import ir
from symcompile.analysis import plain_values, value_types
from symcompile.analysis.effects import Effects, analyses_shared
from symcompile.backend import codegen
from symcompile.frontend import build as frontend
from symcompile.ir import names as analysis
from symcompile.ir.rewrite import statement_expressions
from symcompile.passes import pipeline
from symcompile.runtime import api
from symcompile.runtime.oracle import assert_equivalent

Loader = Callable[[str], types.ModuleType]


def _compiled(func: types.FunctionType, *args: object) -> tuple[float, api.Version]:
    """Seconds to compile (and run once) `func` for `args`, and the version compiled; the
    compiled function is checked against the original."""
    compiled = sc.symbolic(func)
    started = time.perf_counter()
    compiled(*args)
    seconds = time.perf_counter() - started
    assert_equivalent(func, compiled, args)
    return seconds, api._version_for(compiled, args, {}, "test")


def _chain(statements: int) -> str:
    return bench_compile.chain_source(statements)


@pytest.mark.slow  # size test: 300-statement functions
@pytest.mark.parametrize("shape", ["chain", "kernel", "loops", "arrays"])
def test_never_stuck_300_statement_function_compiles_in_bounded_time(
        make_module: Loader, shape: str) -> None:
    func = make_module(bench_compile.SHAPES[shape](300)).f
    seconds, version = _compiled(func, *bench_compile._arguments(shape))
    assert version.ir is not None, version.note  # compiled, not run as written
    assert seconds < 30.0


@pytest.mark.slow  # size test: 300-statement functions
def test_never_stuck_chain_grows_about_linearly(make_module: Loader) -> None:
    """The add chain of issue 12: 160 statements took 31 s, 40 statements 0.76 s (a cube);
    four times the statements now cost well under sixteen times the time."""
    small, _ = _compiled(make_module(_chain(80)).f, 1.5, 2)
    large, version = _compiled(make_module(_chain(320)).f, 1.5, 2)
    assert version.ir is not None
    assert large < 16 * max(small, 0.05)


@pytest.mark.slow  # size test: 300-statement functions
def test_never_stuck_comments_and_explain_of_a_long_function(make_module: Loader) -> None:
    """Comments and explain were re-parsing the whole function once per statement."""
    func = make_module(_chain(300)).f
    started = time.perf_counter()
    commented = sc.source(sc.symbolic(func, comments=True), 1.5, 2)
    explained = str(sc.explain(func, 1.5, 2))
    assert time.perf_counter() - started < 60.0
    assert commented.count("  # line ") >= 100
    assert "=== where each line came from ===" in explained


@pytest.mark.slow  # size test: 300-statement functions
def test_never_stuck_expressions_stay_bounded(make_module: Loader) -> None:
    """Forwarding stops short of building one expression out of a whole chain."""
    _, version = _compiled(make_module(_chain(160)).f, 1.5, 2)
    assert version.ir is not None
    biggest = max(analysis.expression_size(expr) for stmt in version.ir.body
                  for expr in statement_expressions(stmt))
    assert biggest <= analysis.MAX_EXPRESSION_SIZE


@pytest.mark.parametrize("body", [
    "return x" + " + 1" * 1000,  # 1,000 deep without a parenthesis
    "return " + "- " * 1000 + "x",  # 1,000 unary operators
    "return " + "(" * 190 + "x" + " + 1)" * 190,  # near Python's 200 parentheses
    "return " + "g(" * 190 + "x" + ")" * 190,  # nested calls of a helper
    "return " + "[" * 190 + "x" + "]" * 190,  # nested displays
], ids=["sum_1000", "unary_1000", "parentheses_190", "calls_190", "lists_190"])
def test_never_stuck_deeply_nested_expression(make_module: Loader, body: str) -> None:
    """Compiled, or run as written when too deep for the compiler: never an internal error,
    never a hang, and the same result either way."""
    module = make_module(f"def g(a):\n    return a + 1\n\n\ndef f(x):\n    {body}\n")
    seconds, version = _compiled(module.f, 3)
    assert seconds < 30.0
    assert version.ir is not None or "as written" in version.note


@pytest.mark.slow
def test_never_stuck_5000_line_function(make_module: Loader) -> None:
    """5,000 lines of straight-line float arithmetic compile within a minute, correctly, and
    the garbage collector paused for it runs again afterwards."""
    lines = ["v0 = x"] + [f"v{i} = v{i - 1} * 0.5 + x - {i % 7}.0" if i % 3 else
                          f"v{i} = v{i - 1} + v{i - 2} * 0.25" for i in range(1, 4999)]
    source = "def f(x):\n" + "".join(f"    {line}\n" for line in lines) + "    return v4998\n"
    seconds, version = _compiled(make_module(source).f, 0.5)
    assert version.ir is not None, version.note
    assert seconds < 60.0
    assert gc.isenabled()


FANCY = """
def add(a, b):
    return a + b


def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g
"""


def test_never_stuck_an_unchanged_function_is_analysed_once_per_compilation(
        make_module: Loader, monkeypatch: pytest.MonkeyPatch) -> None:
    """Most passes return the function they were given; the next pass's analyses of that same
    function (its plain locals, a fixed point, and its types) are found once per compilation
    (fancy_func's compile worked its plain locals out twelve times, for five functions)."""
    found: list[tuple[ir.Function, frozenset[str], object]] = []  # held: ids stay their own
    typed: list[ir.Function] = []
    find, types_before = plain_values.PlainValues._find_plain_locals, value_types._types_before

    def counted_find(self: plain_values.PlainValues, parameters: set[str]) -> object:
        found.append((self.function, frozenset(self.plain_parameters), self.scope()))
        return find(self, parameters)

    def counted_types(function: ir.Function) -> object:
        typed.append(function)
        return types_before(function)

    before, _, _ = pipeline.optimize(make_module(FANCY).fancy_func, passes=[])
    monkeypatch.setattr(plain_values.PlainValues, "_find_plain_locals", counted_find)
    monkeypatch.setattr(value_types, "_types_before", counted_types)
    _, log = pipeline.run_passes(before)
    assert any(run.changed for run in log) and len(log) > 2 * len(typed)
    keys = [(id(function), parameters, scope) for function, parameters, scope in found]
    assert found and len(set(keys)) == len(keys)
    assert typed and len({id(function) for function in typed}) == len(typed)


def test_never_stuck_a_callees_source_is_read_once_per_compilation(
        make_module: Loader, monkeypatch: pytest.MonkeyPatch) -> None:
    """The passes ask for `add`'s source in every round (to judge it, to inline it); it is read
    from its file once per compilation, and again by the next compilation (its file may have
    been edited in between). fancy_func's compile read it three times."""
    read: list[str] = []
    reader = frontend._read_function_source

    def counted(func: types.FunctionType) -> frontend.FunctionSource:
        read.append(func.__name__)
        return reader(func)

    module = make_module(FANCY)
    before, _, _ = pipeline.optimize(module.fancy_func, passes=[])
    monkeypatch.setattr(frontend, "_read_function_source", counted)
    after, log = pipeline.run_passes(before)
    assert read == ["add"] and any(run.changed for run in log)
    assert pipeline.run_passes(before)[0].body == after.body and read == ["add", "add"]
    assert sc.symbolic(module.fancy_func)(1, 2, 3, 4) == 10


def test_same_answers_an_analysis_learning_locals_leaves_the_shared_findings_alone(
        make_module: Loader) -> None:
    """Analyses of one function share what they first found, each with its own copy: locals
    one learns (a pass's new statements) are not known to the next."""
    module = make_module("def f(x):\n    y = 2.0\n    return x + y\n")
    function, _, _ = pipeline.optimize(module.f, passes=[])
    with analyses_shared():
        first, second = Effects(function), Effects(function)  # found, then shared
        for learning in first, second:
            learning.learn([ir.Assign((ir.Name("z"),), ir.Const(1.0), function.loc)])
            learning.rely(frozenset({"y"}))
            assert "z" in learning.plain_locals and "z" in learning.locals
        third = Effects(function)
        types = value_types.types_before(function)
        types[0] = {}
        assert 0 not in value_types.types_before(function)
    assert "z" not in third.plain_locals and "z" not in third.locals
    assert third.plain_locals == {"y": frozenset()} and third.relied == set()


def test_never_stuck_the_collector_pauses_while_passes_run(make_module: Loader) -> None:
    """The cyclic garbage collector is paused while the passes run, for functions of any size
    (its collections walked every version of the IR again and again), and runs again after;
    a program that had turned it off finds it off."""
    from symcompile.frontend import build as frontend
    from symcompile.passes import pipeline

    seen: list[bool] = []

    def recorder(function: ir.Function) -> ir.Function:
        seen.append(gc.isenabled())
        return function

    function = frontend.build_function(frontend.read_function_source(make_module(FANCY).add))
    pipeline.run_passes(function, (recorder,))
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        pipeline.run_passes(function, (recorder,))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_never_stuck_the_collector_stays_paused_through_code_generation_and_loading(
        make_module: Loader, monkeypatch: pytest.MonkeyPatch) -> None:
    """Code generation and the loader parse and compile the result while every version of the
    IR is alive: the collector stays paused until the version is made (a 160-statement chain
    spent a tenth of its compile in collections there), and runs again after."""
    from symcompile.backend import loader

    seen: list[tuple[str, bool]] = []
    render, load = codegen.render_function, loader.load

    def rendering(*args: object, **kwargs: object) -> object:
        seen.append(("render", gc.isenabled()))
        return render(*args, **kwargs)  # type: ignore[arg-type]

    def loading(*args: object, **kwargs: object) -> object:
        seen.append(("load", gc.isenabled()))
        return load(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(codegen, "render_function", rendering)
    monkeypatch.setattr(loader, "load", loading)
    module = make_module(FANCY)
    assert sc.symbolic(module.fancy_func)(1, 2, 3, 4) == 10
    assert seen == [("render", False), ("load", False)] and gc.isenabled()


def test_never_slower_the_generated_text_is_parsed_once(
        make_module: Loader, monkeypatch: pytest.MonkeyPatch) -> None:
    """Code generation parses the text it rendered (to check it is the tree) and hands that
    tree to the loader, which parsed the same text again; with comments too (they change no
    line: the commented text is parsed once, to check the comments changed nothing else)."""
    parse = ast.parse
    texts: list[str] = []

    def parsing(source: object, *args: object, **kwargs: object) -> object:
        if isinstance(source, str):
            texts.append(source)
        return parse(source, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(ast, "parse", parsing)
    module = make_module(FANCY)
    for comments in (False, True):
        compiled = sc.symbolic(module.fancy_func, comments=comments)  # (reads the user's def)
        texts.clear()
        assert compiled(1, 2, 3, 4) == 10
        assert sum(text.startswith("def fancy_func") for text in texts) == 1 + comments


def _recorded(monkeypatch: pytest.MonkeyPatch, module: object, name: str,
              ) -> list[tuple[object, object]]:
    """Calls of `module.name` from now on: each call's first argument and its result."""
    calls: list[tuple[object, object]] = []
    original = getattr(module, name)

    def recording(first: object, *args: object, **kwargs: object) -> object:
        result = original(first, *args, **kwargs)
        calls.append((first, result))
        return result

    monkeypatch.setattr(module, name, recording)
    return calls


def test_always_explainable_in_one_rendering_per_function(
        make_module: Loader, monkeypatch: pytest.MonkeyPatch) -> None:
    """explain renders each IR function once: a pass run's IR after is the next run's IR
    before, and the last one's the final IR, commented from the same rendering (it was rendered
    a second time for the comments, and every rendering was parsed four times)."""
    func = make_module(bench_compile.chain_source(12)).f
    runs = [run for run in api.version_for(sc.symbolic(func), 1.5, 2).log if run.changed]
    shown = {id(function) for run in runs for function in (run.before, run.after)}
    renders = _recorded(monkeypatch, codegen, "function_to_ast")
    parses = _recorded(monkeypatch, ast, "parse")
    sc.source(sc.symbolic(func), 1.5, 2)
    compiling = len(parses)  # the front end's, the check of the rendering, the loader's
    explanation = sc.explain(func, 1.5, 2)
    assert len(explanation.steps) == len(runs) >= 3
    assert len(renders) == 1 + 1 + len(shown)  # the two compiles, and explain's own
    # explain's renderings each parsed once to check them, the comments of the last once more
    assert len(parses) == 2 * compiling + len(shown) + 1


def test_a_compilation_leaves_no_reference_cycle_of_its_own() -> None:
    """What a compilation makes is freed by reference counting when it ends: a cycle (a
    recursive closure over an analysis, say) would keep the analyses alive until the cyclic
    collector runs, and that collection cost up to a fifth of a small function's compile."""
    from symcompile.examples import fancy

    kept = []

    def compile_once() -> None:
        compiled = sc.symbolic(fancy.fancy_func)
        assert compiled(1, 2, 3, 4) == 10
        kept.append(compiled)

    compile_once()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        compile_once()
        gc.collect()
        ours = [type(found).__qualname__ for found in gc.garbage
                if type(found).__module__.startswith("symcompile")
                or getattr(found, "__module__", None) and
                str(getattr(found, "__module__")).startswith("symcompile")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert ours == []


def test_never_stuck_a_pass_is_not_run_again_on_an_object_it_left_unchanged(
        make_module: Loader) -> None:
    """A pass's result depends on the IR alone, so the confirming round runs only the passes
    that have not yet seen the settled function: each pass run sees an object that pass has
    not already returned unchanged."""
    before, _, _ = pipeline.optimize(make_module(FANCY).fancy_func, passes=[])
    after, log = pipeline.run_passes(before)
    left_unchanged: set[tuple[str, int]] = set()
    for run in log:
        assert (run.name, id(run.before)) not in left_unchanged
        if not run.changed:
            left_unchanged.add((run.name, id(run.before)))
    skipped = {run.name for run in log if run.round == 2} ^ {
        p.__name__ for p in pipeline.PASSES if p not in pipeline.RUN_LAST}
    assert {"forward_single_uses", "eliminate_dead_code"} <= skipped
    assert sc.symbolic(make_module(FANCY).fancy_func)(1, 2, 3, 4) == 10


def test_never_stuck_tidying_settles_a_chain_of_inlined_calls_in_two_rounds(
        make_module: Loader) -> None:
    """Inlining leaves `add_b = None` releases between a result and its use; dropping them lets
    forwarding go on. Repeating just forwarding and dead code at the end of a round settles a
    160-statement chain in the first round (it took three, each as costly as the first), with
    the same result as running whole rounds."""
    func = make_module(_chain(40)).f
    before, after, log = pipeline.optimize(func)
    settling = [run for run in log if run.name not in {p.__name__ for p in pipeline.RUN_LAST}]
    assert max(run.round for run in settling) == 2
    assert not any(run.changed for run in settling if run.round == 2)
    whole_rounds = list(pipeline.PASSES)
    whole_rounds.remove(pipeline.forward_single_uses)  # no tidying: the rounds do it all
    whole_rounds.insert(whole_rounds.index(pipeline.eliminate_common_subexpressions),
                        _forward_single_uses)
    _, slow, slow_log = pipeline.optimize(func, whole_rounds)
    assert max(run.round for run in slow_log) > 3
    assert ir.format_function(slow) == ir.format_function(after)
    assert_equivalent(func, sc.symbolic(func), (1.5, 3))


def _forward_single_uses(function: ir.Function) -> ir.Function:
    return pipeline.forward_single_uses(function)
