"""Kind "numpy": the random NumPy programs of `tests/test_numpy_fuzz.py` (its `hunt` entry).

A case is the fuzzer's program for the seed (its source is what minimization shrinks); it runs
through that file's `check_program` with the calls it plans (from the seed), so a failure is
its AssertionError. The campaign's seeds start past the 480 the test suite checks.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests import test_numpy_fuzz as numpy_fuzz
from tests.fuzz.core import INTERNAL, Case, Finding, Outcome, Phase

# the test suite checks the seeds below this one
FIRST_SEED = numpy_fuzz.CHUNKS * numpy_fuzz.PER_CHUNK


def generate(seed: int) -> Case:
    program = numpy_fuzz.generate(FIRST_SEED + seed)
    extra = {f.name: getattr(program, f.name) for f in dataclasses.fields(program)
             if f.name != "source"}
    return Case("numpy", seed, program.source, [("call", "(), {}")], extra=extra)


def check(case: Case, directory: Path, phase: Phase) -> Outcome:
    program = numpy_fuzz.Program(source=case.source, **case.extra)
    calls = numpy_fuzz.plan_calls(program)
    phase("compiled")  # the original's calls are quick: a hang is the compiler's
    try:
        numpy_fuzz.check_program(program, directory, calls)
    except AssertionError as exc:
        text = str(exc)
        what = text.split("--- what went wrong ---", 1)[-1].strip()
        category = "internal_error" if INTERNAL in what else "difference"
        return Outcome(calls=len(calls), finding=Finding(category, what + "\n\n" + text))
    finally:
        phase("harness")
    return Outcome(calls=len(calls))
