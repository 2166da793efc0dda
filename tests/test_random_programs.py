"""Random programs: symcompile must compile every generated module's `main` faithfully.

`tests/program_generator.py` writes small numeric modules (helpers, globals, loops, prints,
NaN / -0.0 / inf / huge-int constants, NumPy in some).  For each one:

* the default pipeline, and every pass of `symcompile.passes.pipeline.PASSES` on its own, must give a
  `main` observably identical to the original (`symcompile/runtime/oracle.py`) on several argument tuples,
  and compiling must not fail;
* optimizing is idempotent: compiling the optimized `main` again (in a module with the same
  helpers and globals) gives the same source text, and that text run as plain Python behaves
  like the original.

Loops over NumPy arrays (`tests/array_loop_generator.py`, for vectorize_loops) run as the fuzz
kind "loops" does: each call on fresh arguments per side (views keep their overlap), compared by
value bits, exception, warnings and every root array; 16 programs in the quick tier, 400 more
behind the `slow` marker.

About 650 programs in all (300 + 100 with NumPy through the default pipeline, 100 through each
pass alone, 150 for idempotence), each called on three fixed and two or three drawn argument
tuples; the file runs in about 30 seconds. At the end, regression tests keep the minimal
programs of the miscompilations these tests found.

Hypothesis runs derandomized without an example database, so every run checks the same
programs.  A failure message shows the generated module and the compiled source; paste the
module into a file to reproduce.  Warnings the programs issue (NumPy's RuntimeWarning for
`np.sin(inf)`...) are recorded by the oracle, which runs both functions under
`warnings.catch_warnings`, so pytest's `filterwarnings = error` never sees them.
"""

from __future__ import annotations

import ast
import itertools
import math
import re
import sys
import textwrap
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import symcompile
from symcompile.passes import pipeline, vectorize_build
from symcompile.runtime.oracle import assert_equivalent, observe
from tests import array_loop_generator as array_loops
from tests.fuzz import core as fuzz_core
from tests.program_generator import Program, main_arguments, programs
from tests.source_module import import_source

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


def _settings(examples: int) -> settings:
    # no explain phase: it reruns every shrunk example under coverage, slowly, and says
    # nothing the failure message does not
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=_HEALTH,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink])


# calls every program gets, before the ones hypothesis draws
FIXED_CALLS: tuple[tuple[Any, Any, int], ...] = (
    (1.5, -2, 3),
    (-0.0, math.nan, 1),
    (2 ** 70, 0.1, 2),
)
CALLS = st.lists(main_arguments(), min_size=2, max_size=3)

_module_numbers = itertools.count()


@pytest.fixture(scope="module")
def load_module(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], types.ModuleType]:
    """`load_module(source)` writes the source to a file and imports it (so `inspect.getsource`
    works), like conftest's `make_module`, but usable across hypothesis examples."""
    directory = tmp_path_factory.mktemp("random_programs")
    names: list[str] = []

    def load(source: str) -> types.ModuleType:
        path = directory / f"symcompile_random_program_{next(_module_numbers)}.py"
        names.append(path.stem)
        return import_source(source, path)

    yield load
    for name in names:
        sys.modules.pop(name, None)


# ---------------------------------------------------------------------------
# reporting
# ---------------------------------------------------------------------------


def _indent(text: str) -> str:
    return textwrap.indent(text.rstrip("\n"), "    ")


def failure(what: str, program: Program | str, compiled_source: str | None, detail: str,
            rewritten: str | None = None) -> AssertionError:
    """An AssertionError showing the generated module and the compiled `main` (and, for the
    idempotence test, the module rewritten with the compiled `main`)."""
    source = program.source if isinstance(program, Program) else program
    parts = [what, "--- generated module ---", _indent(source)]
    if compiled_source is not None:
        parts += ["--- compiled main ---", _indent(compiled_source)]
    if rewritten is not None:
        parts += ["--- the module with the compiled main in place of main ---", _indent(rewritten)]
    parts += ["--- what went wrong ---", _indent(detail)]
    return AssertionError("\n".join(parts))


def _pipeline_name(passes: Sequence[pipeline.Pass] | None) -> str:
    return "the default pipeline" if passes is None else "passes=[" + ", ".join(
        p.__name__ for p in passes) + "]"


def compile_main(module: types.ModuleType, program: Program | str,
                 passes: Sequence[pipeline.Pass] | None = None, guards: bool = True,
                 ) -> tuple[Callable[..., Any], str]:
    """`symcompile.symbolic(module.main)` compiled now; (compiled function, its source)."""
    compiled = symcompile.symbolic(module.main, passes=passes, guards=guards)
    try:
        source = str(compiled.source)
    except Exception as exc:
        raise failure(f"compiling main with {_pipeline_name(passes)} failed", program, None,
                      f"{type(exc).__name__}: {exc}") from exc
    return compiled, source


def check_calls(original: Callable[..., Any], compiled: Callable[..., Any],
                calls: Sequence[tuple[Any, ...]], program: Program | str, compiled_source: str,
                what: str, rewritten: str | None = None) -> None:
    for args in calls:
        try:
            assert_equivalent(original, compiled, args)
        except AssertionError as exc:
            raise failure(what, program, compiled_source, str(exc), rewritten) from None


def check_program(load_module: Callable[[str], types.ModuleType], program: Program,
                  calls: Sequence[tuple[Any, ...]],
                  passes: Sequence[pipeline.Pass] | None = None) -> None:
    module = load_module(program.source)
    compiled, source = compile_main(module, program, passes)
    check_calls(module.main, compiled, [*FIXED_CALLS, *calls], program, source,
                f"main compiled with {_pipeline_name(passes)} is not equivalent to the original")


# ---------------------------------------------------------------------------
# the random tests
# ---------------------------------------------------------------------------


@_settings(300)
@given(program=programs(), calls=CALLS)
@pytest.mark.slow
def test_default_pipeline(load_module, program: Program, calls) -> None:
    check_program(load_module, program, calls)


@_settings(100)
@given(program=programs(numpy=True), calls=CALLS)
@pytest.mark.slow
def test_default_pipeline_with_numpy(load_module, program: Program, calls) -> None:
    check_program(load_module, program, calls)


@_settings(100)
@given(program=programs(), calls=CALLS)
@pytest.mark.slow
def test_each_pass_alone(load_module, program: Program, calls) -> None:
    for run_pass in pipeline.PASSES:
        check_program(load_module, program, calls, passes=[run_pass])


def check_idempotent(load_module: Callable[[str], types.ModuleType], program: Program,
                     calls: Sequence[tuple[Any, ...]]) -> None:
    """Compile `main`, put the result back in the module in place of `main`, compile that
    again: the second source must be the first, and the first must run like the original."""
    module = load_module(program.source)
    first, first_source = compile_main(module, program, guards=False)
    text, bindings = rewritten_module(program, module, first, first_source)
    again = load_module(text)
    # the same objects as the original module's globals (`NAN = float('nan')` made a NaN of
    # its own in each module; the compiler binds each NaN object under a name of its own)
    vars(again).update({name: value for name, value in vars(module).items()
                        if not name.startswith("__") and not callable(value)
                        and not isinstance(value, types.ModuleType)})
    vars(again).update(bindings)
    check_calls(module.main, again.main, [*FIXED_CALLS, *calls], program, first_source,
                "the compiled source, run as plain Python, is not equivalent to the original main",
                text)
    _, second_source = compile_main(again, text, guards=False)
    if second_source != first_source:
        raise failure("optimizing the optimized main again changed it", program, first_source,
                      f"second compilation:\n{_indent(second_source)}", text)


def rewritten_module(program: Program, module: types.ModuleType, compiled: Callable[..., Any],
                     source: str) -> tuple[str, dict[str, object]]:
    """The module's text with `source` (the compiled `main`) in place of `main`, and the
    globals it needs besides.

    The compiled code names objects without a literal spelling, bound in cells of its own
    (`nan`, a NumPy function looked up when compiling). A NumPy or math function is written
    back as the attribute it came from (`sum` -> `np.sum`), which compiles to it again; any
    other object becomes a global of the same name."""
    # the version for ints and the one for any types (`source`'s, whose loops may be split on
    # the types of values of unknown type: `type(n) is float_2`)
    cells: dict[str, types.CellType] = {}
    for args in ((0, 0, 0), (None, None, None)):
        generated = symcompile.compiled_function(compiled, *args)
        cells.update(zip(generated.__code__.co_freevars, generated.__closure__ or ()))
    bindings = {name: cell.cell_contents for name, cell in cells.items() if _filled(cell)}
    modules = {name: value for name, value in vars(module).items()
               if isinstance(value, types.ModuleType)}
    spelled: dict[str, ast.expr] = {}
    for name, value in list(bindings.items()):
        for module_name, owner in modules.items():
            attribute = next((a for a, v in vars(owner).items() if v is value), None)
            if attribute is not None and getattr(value, "__name__", None) == re.sub(r"_\d+$", "", name):
                spelled[name] = ast.Attribute(ast.Name(module_name, ast.Load()), attribute, ast.Load())
                del bindings[name]
                break

    class Spell(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return spelled.get(node.id, node) if isinstance(node.ctx, ast.Load) else node

    if spelled:
        source = ast.unparse(Spell().visit(ast.parse(source))) + "\n"
    clashes = set(bindings) & set(vars(module))
    assert not clashes, f"generated code binds names the module already has: {clashes}"
    return program.with_main(source), bindings


def _filled(cell: types.CellType) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:
        return False
    return True


@_settings(150)
@given(program=programs(), calls=CALLS)
@pytest.mark.slow
def test_idempotent(load_module, program: Program, calls) -> None:
    check_idempotent(load_module, program, calls)


# ---------------------------------------------------------------------------
# loops over NumPy arrays (tests/array_loop_generator.py, for vectorize_loops)
# ---------------------------------------------------------------------------

QUICK_LOOP_SEEDS = 16
LOOP_CHUNKS, LOOP_PER_CHUNK = 8, 50  # 400 programs in the slow tier


def check_array_loops(seeds: range, directory: Path) -> int:
    """Every generated array-loop program of `seeds` (the fuzz kind "loops": half with the
    array code run from one iteration on) gives what the original gives on fresh arguments,
    views and aliasing kept; the number of calls compared."""
    calls = 0
    for seed in seeds:
        case = fuzz_core.generate("loops", seed)
        outcome = fuzz_core.run_case(case, directory)
        assert outcome.finding is None, (
            f"seed {seed}: {outcome.finding.category}\n{outcome.finding.detail}\n\n{case.source}\n"
            f"{case.steps[outcome.finding.step][1] if outcome.finding.step >= 0 else ''}")
        calls += outcome.calls
    return calls


@pytest.mark.slow  # randomized programs
def test_never_wrong_array_loops_quick(tmp_path: Path) -> None:
    assert check_array_loops(range(QUICK_LOOP_SEEDS), tmp_path) >= 4 * QUICK_LOOP_SEEDS


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(LOOP_CHUNKS))
def test_never_wrong_array_loops(chunk: int, tmp_path: Path) -> None:
    start = QUICK_LOOP_SEEDS + chunk * LOOP_PER_CHUNK
    check_array_loops(range(start, start + LOOP_PER_CHUNK), tmp_path)


@pytest.mark.slow  # randomized programs
def test_array_loop_programs_are_vectorized_often(load_module, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated loops exercise the pass: every family appears, many calls run array
    code, and some calls raise (an index out of range) or pass views of one buffer."""
    monkeypatch.setattr(vectorize_build, "MIN_ITERATIONS", 1)
    monkeypatch.setattr(vectorize_build, "MIN_ELEMENTS_PER_TURN", 1)
    families: set[str] = set()
    vectorized = raised = shared = total = 0
    for seed in range(40):
        program = array_loops.generate(seed)
        families.add(program.family)
        main = load_module(program.source).main
        for call in program.calls[:2]:
            total += 1
            args, _ = array_loops.arguments(call)
            vectorized += "vectorized = True" in symcompile.source(symcompile.symbolic(main), *args)
            raised += array_loops.observe_fresh(main, call)[0][0] == "raise"
            arrays = [a for a in args if isinstance(a, np.ndarray)]
            shared += any(np.shares_memory(x, y) for x, y in itertools.combinations(arrays, 2))
    assert families >= {"map_1d", "in_place_1d", "sum_1d", "stencil_2d", "matmul", "accumulator",
                        "list_matmul", "list_map"}  # (and list_stencil, past these seeds)
    assert vectorized >= total // 6 and raised >= 3 and shared >= 3, (vectorized, raised, shared, total)


# ---------------------------------------------------------------------------
# the generator itself
# ---------------------------------------------------------------------------


@pytest.mark.slow  # randomized programs
@_settings(100)
@given(program=programs())
def test_generated_programs_are_valid_and_readable(program: Program) -> None:
    source = program.source
    compile(source, "<generated>", "exec")
    assert "def main(x, y, n):" in source
    for helper in program.helpers:
        assert helper.source.startswith(f"def {helper.name}(")
    for line in source.splitlines():
        assert len(line) < 200, line


@pytest.mark.slow  # randomized programs
def test_generated_programs_run_and_often_return(load_module) -> None:
    """The programs run (a runaway one would hang this test), and enough of them return
    normally, rather than raising at once, for the comparison of values to mean something."""
    outcomes: dict[str, int] = {}

    @_settings(60)
    @given(program=programs(), args=main_arguments())
    def run(program: Program, args) -> None:
        module = load_module(program.source)
        observation = observe(module.main, args)
        key = observation.outcome if observation.outcome != "raise" else observation.exc_type.__name__
        outcomes[key] = outcomes.get(key, 0) + 1

    run()
    total = sum(outcomes.values())
    assert outcomes.get("return", 0) >= total // 4, outcomes


# ---------------------------------------------------------------------------
# regressions: miscompilations the random programs (and reading the passes they pointed at)
# found, shrunk by hand to a minimal program each. An open one (last field True) is marked
# xfail(strict=True): fixing it makes the test pass, and pytest then asks for the flag to go.
# ---------------------------------------------------------------------------


REGRESSIONS: list[tuple[str, str, tuple[Any, ...], str, bool]] = [
    (
        "dead_branch_binding_makes_local_global",
        """
        SCALE = 3

        def main(x):
            if False:
                SCALE = 1
            return x * SCALE
        """,
        (1.0,),
        ("propagate drops the dead branch holding the only binding of SCALE, so SCALE stops "
         "being a local: the original raises UnboundLocalError, the compiled code reads the "
         "global and returns 3.0"),
        False,
    ),
    (
        "unreachable_binding_makes_local_global",
        """
        def main(x):
            if x:
                return v
            return 0
            v = 1
        """,
        (1,),
        ("propagate drops the unreachable `v = 1`, the only binding of v: UnboundLocalError "
         "becomes NameError"),
        False,
    ),
    (
        "empty_loop_binding_makes_local_global",
        """
        i = 10

        def main(x):
            for i in range(0):
                pass
            return x + i
        """,
        (1,),
        ("unroll_loops replaces a loop of zero turns by nothing, and with it the only binding "
         "of i: the original raises UnboundLocalError, the compiled code returns 11"),
        False,
    ),
    (
        "inlined_local_survives_loop_turns",
        """
        def h(a):
            if a > 0:
                t = a
            return t

        def main(x, n):
            s = 0
            for i in range(n):
                s = s + h(x - i)
            return s
        """,
        (1, 2),
        ("inline_calls renames h's local t to h_t, a local of main that keeps its value from "
         "one turn of the loop to the next: the second call of h raises UnboundLocalError in "
         "the original, but reads the first call's t when inlined (returns 2)"),
        False,
    ),
    (
        "forwarded_value_into_augmented_assignment",
        """
        def main(x, flag):
            if flag:
                v = 1
            t = x + 1
            v += t
            return v
        """,
        ("s", False),
        ("forward_single_uses moves `x + 1` into `v += x + 1`, which reads v before evaluating "
         "it: TypeError (from x + 1) becomes UnboundLocalError (from v)"),
        False,
    ),
    (
        "unrolled_break_inside_try",
        """
        def main(x):
            for i in range(3):
                try:
                    if i == x:
                        break
                except ValueError:
                    pass
            return i
        """,
        (1,),
        ("unroll_loops does not see a `break` (or `continue`) inside an opaque try statement "
         "and unrolls the loop: the generated code has `break` outside a loop, an internal error"),
        False,
    ),
    (
        "forwarded_value_read_after_continue",
        """
        def main(x, n):
            v = 0
            for i in range(n):
                print(v)
                v = x + i
                w = v * 2
                if i > 0:
                    continue
                v = 0
            return v
        """,
        (10, 3),
        ("overwritten_before_read passes over an `if` holding `continue` (or `break`): "
         "forward_single_uses moves `x + i` into `w = ...` and drops `v = x + i`, whose value "
         "the next turn prints and main returns (12 becomes 0)"),
        False,
    ),
    (
        "dead_store_read_after_break",
        """
        def main(x, n):
            v = 0
            for i in range(n):
                v = x
                if i == 1:
                    break
                v = 0
            return v
        """,
        (10, 3),
        ("overwritten_before_read passes over an `if` holding `break`: eliminate_dead_code "
         "drops `v = x` as a dead store, but the loop breaks out with it (10 becomes 0)"),
        False,
    ),
    (
        "dead_store_read_after_break_inside_try",
        """
        def main(x, n):
            v = 0
            for i in range(n):
                v = x
                try:
                    if i == 1:
                        break
                except ValueError:
                    pass
                v = 0
            return v
        """,
        (10, 3),
        ("overwritten_before_read does not look inside opaque statements for `break` or "
         "`continue`: eliminate_dead_code drops `v = x`, but the loop breaks out of the try "
         "with it (10 becomes 0)"),
        False,
    ),
    (
        "unrolled_copies_share_statement_objects",
        """
        def main(x, y, n):
            v1 = n
            for i in (1, 2):
                v1 = 1
                v2 = n
            return v1
        """,
        (10, 3, 2),
        ("unroll_loops repeats the body's very statement objects, and the liveness analysis "
         "kept one answer per object: the first copy's `v1 = 1` (dead, the second overwrites "
         "it) decided for the second, which the return reads; eliminate_dead_code dropped "
         "both (UnboundLocalError instead of 1)"),
        False,
    ),
]


@pytest.mark.parametrize(
    "source, args",
    [pytest.param(source, args, id=name,
                  marks=[pytest.mark.xfail(strict=True, reason=reason)] if open_ else [])
     for name, source, args, reason, open_ in REGRESSIONS],
)
def test_regression(make_module, source: str, args: tuple[Any, ...]) -> None:
    module = make_module(source)
    program = textwrap.dedent(source).strip() + "\n"
    compiled, compiled_source = compile_main(module, program)
    check_calls(module.main, compiled, [args], program, compiled_source,
                "main compiled with the default pipeline is not equivalent to the original")


IDEMPOTENCE_REGRESSIONS: list[tuple[str, str, str, bool]] = [
    (
        "copy_of_a_local_whose_assignments_went",
        """
        def h(a):
            print(a)
            return a

        def main(x, y, n):
            if False:
                v = 1
            return h(h(v))
        """,
        ("the inner call is inlined a round after propagate dropped `v = 1`; v is then no "
         "local of the IR any more, so propagate leaves the copy `h_a_2 = v` in place. The "
         "output keeps v local (`if False: v = None`), and compiling it again propagates the "
         "copy: print(h_a_2) becomes print(v)"),
        False,
    ),
    (
        "loop_split_for_floats_is_not_split_again",
        """
        def main(x, y, n):
            out = []
            for a in y:
                out.append(1.0 * a * x)
            return out
        """,
        ("speculate_loop_types recognised its own `if type(a) is float:` only with the "
         "builtins bound as objects; in the compiled source they are names (`type_2`), so a "
         "second compilation split the loop again"),
        False,
    ),
    (
        "unrolled_copies_are_objects_of_their_own",
        """
        def main(x, y, n):
            for i in range(n):
                for j in (1, 2):
                    print(n)
                    x = n
            return x
        """,
        ("unroll_loops put the body's very statement objects in each copy, so the liveness "
         "analysis saw the first `x = n` as live (the second, one object with it, is); "
         "compiled again, with objects of their own, the first was dead and went"),
        False,
    ),
]


@pytest.mark.parametrize(
    "source",
    [pytest.param(source, id=name,
                  marks=[pytest.mark.xfail(strict=True, reason=reason)] if open_ else [])
     for name, source, reason, open_ in IDEMPOTENCE_REGRESSIONS],
)
def test_idempotence_regression(load_module, source: str) -> None:
    text = textwrap.dedent(source).strip() + "\n"
    start = text.index("def main")
    program = Program(text[:start], (), text[start:], False)
    check_idempotent(load_module, program, [(1.0, 2.0, 1)])
