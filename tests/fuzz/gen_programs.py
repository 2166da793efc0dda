"""Kind "programs": the random numeric modules of `tests/program_generator.py`.

The generator is a hypothesis strategy; here it is drawn from outside a test, with a
`random.Random(seed)` behind the draws (so a seed always gives the same module), and `main(x,
y, n)` is called on the three fixed argument tuples of `tests/test_random_programs.py` and on
three drawn from the generator's argument values.
"""

from __future__ import annotations

import math
import random

from hypothesis.control import BuildContext
from hypothesis.internal.conjecture.data import ConjectureData

from tests.fuzz.core import Case
from tests.program_generator import ARGUMENT_VALUES, programs

FIXED_CALLS = ((1.5, -2, 3), (-0.0, math.nan, 1), (2 ** 70, 0.1, 2))


def _number(r: random.Random) -> object:
    choice = r.random()
    if choice < 0.5:
        return r.choice(ARGUMENT_VALUES)
    if choice < 0.75:
        return r.randint(-50, 50)
    return r.choice((r.uniform(-1e3, 1e3), r.uniform(-1, 1), 10.0 ** r.randint(-300, 300)))


def _text(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def generate(seed: int) -> Case:
    r = random.Random(f"programs:{seed}")
    data = ConjectureData(random=r)
    with BuildContext(data, is_final=True, wrapped_test=None):
        program = data.draw(programs())
    calls = list(FIXED_CALLS) + [(_number(r), _number(r), r.randint(0, 4)) for _ in range(3)]
    steps = [("call", f"({', '.join(_text(v) for v in call)},), {{}}") for call in calls]
    return Case("programs", seed, program.source, steps)
