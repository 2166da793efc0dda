"""Notes: every pass says what it changed and what it left alone, at the user's line.

`pipeline.run_passes` records the notes of each pass run (`PassRun.notes`). The first group
compiles a few functions and looks for the notes a student would expect, in the pass run that
made them, at the right line. The second group checks over the whole corpus and every golden
file that notes and changes agree: a pass run that returned its input unchanged says it changed
nothing, and one that changed something says what.
"""

from __future__ import annotations

import functools
import inspect
import math
import types
from typing import Any, NamedTuple

import numpy as np
import pytest

from symcompile import ir
from symcompile.backend import codegen
from symcompile.passes import pipeline
from symcompile.passes.notes import Note
from tests import golden
from tests.corpus import CORPUS_BY_NAME

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


class Said(NamedTuple):
    """A note as explain shows it: its kind, its sentence and its line."""

    kind: str
    sentence: str
    line: int


def shown(note: Note) -> Said:
    return Said(note.kind, note.sentence(codegen.expression_text), note.line)


def said(log: list[pipeline.PassRun]) -> list[tuple[str, Said]]:
    """Every note of a pipeline log as shown, with the name of the pass that made it."""
    return [(run.name, shown(note)) for run in log for note in run.notes]


def notes_of(function: types.FunctionType, **options: Any) -> list[tuple[str, Said]]:
    _, _, log = pipeline.optimize(function, **options)
    return said(log)


def line_of(function: types.FunctionType, text: str) -> int:
    """The line of the user's file holding `text` in `function`'s source."""
    lines, first = inspect.getsourcelines(function)
    return first + next(index for index, line in enumerate(lines) if text in line)


def golden_function(case_id: str) -> tuple[types.FunctionType, golden.GoldenCase]:
    """The function a golden case compiles, from its `before` half run as a module."""
    case = golden.read_case(golden.GOLDEN_DIR / f"{case_id}.py")
    namespace: dict[str, object] = {"__name__": f"notes_{case.path.stem}"}
    exec(compile(case.before, str(case.path), "exec", dont_inherit=True), namespace)
    function = namespace[golden.target_name(case)]
    assert isinstance(function, types.FunctionType)
    return function, case


def golden_line(case: golden.GoldenCase, text: str) -> int:
    return next(number for number, line in enumerate(case.before.splitlines(), 1) if text in line)


# ---------------------------------------------------------------------------
# the textbook's fancy_func
# ---------------------------------------------------------------------------


def test_fancy_func_says_each_add_is_inlined_and_each_temporary_forwarded() -> None:
    function, case = golden_function("pipeline/fancy_func")
    notes = notes_of(function)
    # for arguments of any type, `a + b` may run their `__add__`, which could rebind `add`
    checked = "inline add behind a check of add at the call (code the compiler cannot see " \
        "may run before it)"
    for temporary, call, rule in (("e", "add(a, b)", "inline add"), ("f", "add(c, d)", checked),
                                  ("g", "add(e, f)", checked)):
        line = golden_line(case, f"{temporary} = {call}")
        assert ("inline_calls", Said("changed", rule, line)) in notes
    assert ("forward_single_uses", Said("changed", "forward g = e + f if add is add else add(e, f)",
                                        golden_line(case, "g = add(e, f)"))) in notes
    assert not [note for _, note in notes if note.kind == "missed"]


def test_fancy_main_says_what_was_folded_into_ten() -> None:
    function, case = golden_function("pipeline/fancy_main")
    notes = notes_of(function)
    line = golden_line(case, "return fancy_func(1, 2, 3, 4)")
    assert ("inline_calls", Said("changed", "inline fancy_func", line)) in notes
    assert ("inline_calls", Said("changed", "inline add", line)) in notes
    folds = [note for name, note in notes if name == "fold_constants"]
    assert folds == [Said("changed", rule, line)
                     for rule in ("fold 1 + 2 → 3", "fold 3 + 4 → 7", "fold 3 + 7 → 10")]
    assert ("propagate", Said("changed", "propagate fancy_func_a → 1", line)) in notes
    assert ("eliminate_dead_code", Said("changed", "drop dead fancy_func_a = 1", line)) in notes


# ---------------------------------------------------------------------------
# one function for each kind of note
# ---------------------------------------------------------------------------


def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def uses_fact(n):
    return fact(n) + 1


def divides_by_zero(x):
    return x + 1 / 0


def short_loop(x):
    s = 1.0
    for i in range(3):
        s = s * x + i
    return s


def long_loop(x):
    s = 0.0
    for i in range(12):
        s = s + x
    return s


def float_algebra(x):
    return 1.0 * x + (x - 0.0) / 1.0


def circle(r):
    return math.pi * r * r + np.sin(r)


def flagged(x):
    if False:
        x = x + 1
    return x
    print(x)


def newton_step(x, a):
    return x - (1.0 * x * x * x - a) / (3 * (1.0 * x * x))


def scaled(xs, dt, m):
    out = []
    for x in xs:
        out.append(x + dt * m + dt / m)
    return out


def squares(values):
    out = []
    for v in values:
        out.append(1.0 * v * v)
    return out


def unused_values(x, y):
    z = 3
    w = x / y
    return x


FLOATS = {"x": float, "a": float, "dt": float, "m": float}

# (function, pass, kind, rule, text on the line the note is at)
EXPECTED = [
    (uses_fact, "inline_calls", "missed", "not inlined fact: recursive", "return fact(n) + 1"),
    (divides_by_zero, "fold_constants", "missed", "not folded 1 / 0: would raise ZeroDivisionError",
     "return x + 1 / 0"),
    (short_loop, "unroll_loops", "changed", "unroll for i in range(3)", "for i in range(3)"),
    (long_loop, "unroll_loops", "missed", "not unrolled for i in range(12): 12 turns (at most 8)",
     "for i in range(12)"),
    (short_loop, "propagate", "changed", "propagate s → 1.0", "s = s * x + i"),
    (short_loop, "eliminate_dead_code", "changed", "drop dead i = 0", "for i in range(3)"),
    (circle, "fold_constants", "changed", "fold math.pi → 3.141592653589793", "return math.pi"),
    (circle, "hoist_globals", "changed", "bind np.sin at compile time", "return math.pi"),
    (flagged, "propagate", "changed", "drop branch if False", "if False"),
    (flagged, "propagate", "changed", "drop code after return", "print(x)"),
    (newton_step, "simplify_algebra", "changed", "simplify 3 * x → 3.0 * x", "return x -"),
    (newton_step, "eliminate_common_subexpressions", "changed", "share x * x as t", "return x -"),
    (scaled, "hoist_loop_invariants", "changed", "hoist dt * m out of the loop", "for x in xs"),
    (scaled, "hoist_loop_invariants", "missed", "not hoisted dt / m: may raise", "for x in xs"),
    (squares, "speculate_loop_types", "changed", "split the loop on type(v) is float",
     "for v in values"),
    (unused_values, "eliminate_dead_code", "changed", "drop dead z = 3", "z = 3"),
    (unused_values, "eliminate_dead_code", "missed",
     "not dropped w = x / y: the value may raise or run code", "w = x / y"),
]


@pytest.mark.parametrize("function, pass_name, kind, rule, text", EXPECTED,
                         ids=[f"{case[0].__name__}-{case[3]}" for case in EXPECTED])
def test_the_pass_says_it_at_the_line(function: types.FunctionType, pass_name: str, kind: str,
                                      rule: str, text: str) -> None:
    types_known = {name: kind for name, kind in FLOATS.items()
                   if name in inspect.signature(function).parameters}
    notes = notes_of(function, argument_types=types_known)
    assert (pass_name, Said(kind, rule, line_of(function, text))) in notes, notes


def test_float_algebra_names_each_rule_that_fired_and_none_without_types() -> None:
    line = line_of(float_algebra, "return")
    notes = notes_of(float_algebra, argument_types={"x": float})
    assert [note for name, note in notes if name == "simplify_algebra"] == [
        Said("changed", f"simplify {rule}", line)
        for rule in ("x * 1.0 → x", "x - 0.0 → x", "x / 1.0 → x")]
    assert not [note for name, note in notes_of(float_algebra) if name == "simplify_algebra"]


def test_a_trial_simplification_by_speculate_loop_types_says_nothing() -> None:
    notes = notes_of(squares)
    first_speculation = next(index for index, (name, _) in enumerate(notes)
                             if name == "speculate_loop_types")
    assert not [note for name, note in notes[:first_speculation] if name == "simplify_algebra"]


# ---------------------------------------------------------------------------
# over the corpus and the golden files: notes and changes agree
# ---------------------------------------------------------------------------


@functools.cache
def compiled(source: str) -> tuple[types.FunctionType, list[pipeline.PassRun]]:
    """A corpus entry (`corpus/name`) or the function of a golden case (`golden/group/name`),
    and its pass runs (for a golden case, those of its stage, with its argument types)."""
    kind, _, name = source.partition("/")
    if kind == "corpus":
        function = CORPUS_BY_NAME[name]
        return function, pipeline.optimize(function)[2]
    function, case = golden_function(name)
    _, _, log = pipeline.optimize(function, golden.passes_for(case.stage),
                                  argument_types=golden.argument_types(function),
                                  fastmath=case.stage.endswith(golden.FASTMATH))
    return function, log


SOURCES = [f"corpus/{name}" for name in CORPUS_BY_NAME] + \
    [f"golden/{case.id}" for case in golden.all_cases()]


@pytest.mark.parametrize("source", SOURCES)
def test_a_pass_run_that_changed_nothing_says_it_changed_nothing(source: str) -> None:
    for run in compiled(source)[1]:
        if not run.changed:
            assert not [note for note in run.notes if note.kind == "changed"], (run.name, run.round)


@pytest.mark.parametrize("source", SOURCES)
def test_a_pass_run_that_changed_something_says_what(source: str) -> None:
    for run in compiled(source)[1]:
        if run.changed:
            assert [note for note in run.notes if note.kind == "changed"], (run.name, run.round)


@pytest.mark.parametrize("source", SOURCES)
def test_every_note_is_at_a_line_of_the_function_and_short(source: str) -> None:
    function, log = compiled(source)
    lines, first = inspect.getsourcelines(function)
    for note in (note for run in log for note in run.notes):
        assert first <= note.line < first + len(lines), note
        assert len(note.sentence(codegen.expression_text)) <= 120, note


def test_every_pass_says_something_somewhere() -> None:
    changed = {run.name for source in SOURCES for run in compiled(source)[1]
               if any(note.kind == "changed" for note in run.notes)}
    assert changed == {run_pass.__name__ for run_pass in pipeline.PASSES}


# ---------------------------------------------------------------------------
# codegen.expression_text
# ---------------------------------------------------------------------------


def test_expression_text_is_python_with_bound_objects_named() -> None:
    call = ir.Call(ir.Const(np.sin), (ir.Op("mul", (ir.Name("x"), ir.Const(2.0))),))
    assert codegen.expression_text(call) == "sin(x * 2.0)"
    assert codegen.expression_text(ir.Const(np.linalg)) == "numpy.linalg"
    assert codegen.expression_text(ir.Const(float("nan"))) == "nan"
    assert codegen.expression_text(ir.Op("neg", (ir.Const(1),))) == "-1"


def test_expression_text_cuts_long_expressions() -> None:
    total: ir.Expr = ir.Name("x")
    for index in range(20):
        total = ir.Op("add", (total, ir.Name(f"y{index}")))
    text = codegen.expression_text(total)
    assert len(text) == 40 and text.endswith("…") and text.startswith("x + y0 + y1")
