"""The pass pipeline: the ordered list of passes and the loop that runs them to a fixed point.

Sits between the front end and code generation. Each round runs every pass in order, verifying
the IR after each one; a round in which every pass returned its input object unchanged ends the
loop. Every pass run is recorded (`PassRun`) so `explain` can show what each pass did.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence

from . import ir
from .verify import IRError, verify

Pass = Callable[[ir.Function], ir.Function]

# The default pipeline, in order, with the reason for each position. Empty for now: the core
# compiles every function faithfully (front end → IR → code generation) with no rewriting.
PASSES: tuple[Pass, ...] = ()

# A pipeline that has not settled after this many rounds has a pass that keeps changing things.
MAX_ROUNDS = 20


@dataclass(frozen=True)
class PassRun:
    """One run of one pass: the IR before and after (the same object if nothing changed)."""

    name: str
    round: int
    before: ir.Function
    after: ir.Function
    seconds: float

    @property
    def changed(self) -> bool:
        return self.after is not self.before


def run_passes(function: ir.Function, passes: Sequence[Pass] = PASSES) -> tuple[ir.Function, list[PassRun]]:
    """Run `passes` over `function` until none changes anything; return the result and the log."""
    log: list[PassRun] = []
    verify(function)
    for round_number in range(1, MAX_ROUNDS + 1):
        start_of_round = function
        for run_pass in passes:
            started = time.perf_counter()
            result = verify(run_pass(function))
            log.append(PassRun(run_pass.__name__, round_number, function, result,
                               time.perf_counter() - started))
            function = result
        if function is start_of_round:
            return function, log
    raise IRError(f"passes did not reach a fixed point in {MAX_ROUNDS} rounds")
