"""Kind "loops": functions whose loops index NumPy arrays (`tests/array_loop_generator.py`),
for the `vectorize_loops` pass.

A case is the generator's module for the seed and one ``("call", TEXT)`` step per argument
set, TEXT binding ``ARGS`` and ``ROOTS`` (run afresh for each side, so views keep their
layout and overlap). Each call compiles the entry afresh for its argument types and is
compared twice (compiling, then the cached version) by `array_loop_generator.compare`: the
value by bits, the exception and its message, the warnings in order and every root array's
bits after the call. Half the seeds (``extra["small"]``) run the pass's array code from one
iteration on (its never-slower thresholds set to 1 for the case), so the small shapes test the
array code too, not only the loop it falls back to.
"""

from __future__ import annotations

import types
from pathlib import Path

import symcompile
from symcompile.analysis import cost
from symcompile.passes import vectorize_build
from tests.array_loop_generator import compare
from tests.array_loop_generator import generate as generate_program
from tests.fuzz.core import INTERNAL, Case, Finding, Outcome, Phase, load


def generate(seed: int) -> Case:
    program = generate_program(seed)
    steps = [("call", text) for text in program.calls]
    return Case("loops", seed, program.source, steps, extra={"small": seed % 2 == 0})


def _fresh(original: types.FunctionType) -> types.FunctionType:
    return types.FunctionType(original.__code__, original.__globals__, original.__name__,
                              original.__defaults__)


def _run(case: Case, directory: Path, phase: Phase) -> Outcome:
    outcome = Outcome()
    module, _ = load(case.source, directory)
    original = getattr(module, case.entry)
    for index, (_, text) in enumerate(case.steps):
        phase("compiled")
        compiled = symcompile.symbolic(_fresh(original))
        for _ in range(2):
            found = compare(original, compiled, text)
            outcome.calls += 1
            if found:
                category = "internal_error" if INTERNAL in found else "difference"
                outcome.finding = Finding(category, found, index)
                return outcome
        phase("harness")
    return outcome


# what the cost model weighs converting lists by (set to 0 with the thresholds: small seeds
# convert lists of any size)
_LIST_COSTS = ("LIST_CONVERSION", "LIST_ROW", "LIST_ELEMENT_IN", "LIST_ELEMENT_OUT")


def check(case: Case, directory: Path, phase: Phase) -> Outcome:
    saved = vectorize_build.MIN_ITERATIONS, vectorize_build.MIN_ELEMENTS_PER_TURN
    costs = {name: getattr(cost, name) for name in _LIST_COSTS}
    if case.extra.get("small"):
        vectorize_build.MIN_ITERATIONS = vectorize_build.MIN_ELEMENTS_PER_TURN = 1
        for name in _LIST_COSTS:
            setattr(cost, name, 0.0)
    try:
        return _run(case, directory, phase)
    finally:
        vectorize_build.MIN_ITERATIONS, vectorize_build.MIN_ELEMENTS_PER_TURN = saved
        for name, value in costs.items():
            setattr(cost, name, value)
