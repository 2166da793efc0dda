"""Kind "edits": the module's file is edited on disk after import (issue 16).

The module has a global `K`, helpers `helper` and `scale` (which `main` calls, so the compiler
may read their source to inline them) and `main(x)`. The script interleaves calls (arguments of
several types, so new versions get compiled), edits of the file (`main`'s constants, the
helpers' constants or bodies, lines added above so that every line number moves, a helper
renamed, `main` gone) and rebinding of `K` (which sends a compiled version back to the
compiler). The functions in memory stay those imported: a compiled call must behave like them,
or refuse with a SymbolicError that says the file changed (`core` accepts that).
"""

from __future__ import annotations

import random

from tests.fuzz.core import Case

TEMPLATE = '''\
{above}K = 3


def helper(v):
    {helper_body}


def scale(v, f={default}):
    return v * f


def main(x):
    {main_body}
'''

HELPER_BODIES = ("return v * {c} + K", "return v - {c}", "return (v + K) * {c}",
                 "if v > {c}:\n        return v\n    return -v", "return scale(v) + {c}")
MAIN_BODIES = ("return helper(x) + {c}", "t = helper(x)\n    return scale(t, {c})",
               "return helper(helper(x)) * {c}", "return x + {c} if x else helper({c})",
               "t = scale(x) + K\n    return helper(t) - {c}")
CONSTANTS = ("1", "2", "0.5", "-1", "10", "7", "2.5")
ABOVE = ("", "# an edit above\n", "import math\n\n\n", "X = 1\nY = 2\n\n\n")


def _source(r: random.Random) -> str:
    return TEMPLATE.format(
        above=r.choice(ABOVE),
        helper_body=r.choice(HELPER_BODIES).format(c=r.choice(CONSTANTS)),
        default=r.choice(CONSTANTS),
        main_body=r.choice(MAIN_BODIES).format(c=r.choice(CONSTANTS)),
    )


def _edited(r: random.Random, current: str) -> str:
    choice = r.random()
    if choice < 0.7:
        return _source(r)
    if choice < 0.8:
        return current.replace("def helper(", "def helper_renamed(")
    if choice < 0.9:
        return current.split("def main(")[0]
    return "# blank lines push everything down\n\n\n" + current


def generate(seed: int) -> Case:
    r = random.Random(f"edits:{seed}")
    source = _source(r)
    current = source
    steps = []
    for _ in range(r.randint(4, 10)):
        choice = r.random()
        if choice < 0.5:
            steps.append(("call", f"({r.choice(('1', '2.5', 'True', '-0.0', '3j', '2 ** 70'))},), {{}}"))
        elif choice < 0.8:
            current = _edited(r, current)
            steps.append(("edit", current))
        else:
            steps.append(("exec", f"K = {r.choice(CONSTANTS)}"))
    steps.append(("call", "(4,), {}"))
    return Case("edits", seed, source, steps)
