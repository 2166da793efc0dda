"""Kind "sequences": one `@symbolic` function called many times while the world changes.

The module has globals (`G`, `H`, `FLAG`), helpers (`h1`, `h2` and alternatives to rebind them
to) and `main(x, y, s=1, mode='a')`, whose body reads all of them, branches and loops on `s`
and `mode`, and calls the helpers. `main` is compiled with `static_argnames` drawn from (),
("s",), ("mode",) and ("s", "mode"). The script interleaves, at random:

* calls with arguments of many types (int, float, bool, complex, NumPy scalars and arrays,
  str), `s` and `mode` passed by position or keyword, or left to their defaults; static values
  that are equal but differ (1, 1.0, True; 0.0 and -0.0; NaN; equal strings that are other
  objects; None; tuples);
* rebinding a global to a value of the same or another type (or the very same value again),
  deleting one and binding it again;
* rebinding a helper to another function or a lambda, and back.

Each call is compared with the original's under the same sequence (`core`).
"""

from __future__ import annotations

import random

from tests.fuzz.core import Case

PRELUDE = '''\
import numpy as np

G = 2
H = 0.5
FLAG = True


def h1(v):
    return v * G + 1


def h1_alt(v):
    return v - G


def h2(v, k):
    return v * k + H


def h2_alt(v, k):
    return v if k else -v

'''

LINES = (
    "t = h1(x) + H",
    "t = h2(t, s) if FLAG else t",
    "if mode == 'a':\n    t = t * 2\nelif mode is None:\n    t = -t\nelse:\n    t = t + G",
    "for i in range(s if type(s) is int and s < 5 else 2):\n    t = t + h2(y, i)",
    "if s:\n    t = t - s\nelse:\n    t = t + 1",
    "t = t * G if G else t",
    "u = (t, s, mode)",
    "t = h1(h1(t))",
    "if isinstance(s, float):\n    t = t / (s or 1)",
    "t = t + (G ** 2 if FLAG else H)",
    "if mode in ('a', 'b'):\n    t = h2(t, len(mode))",
    "while t != t and s:\n    break",
    "print('main', type(t).__name__, s, mode)",
    "if type(s) in (tuple, list):\n    s[-1].append(1) if type(s[-1]) is list else s.append(2)",
)

ARGUMENTS = ("1", "2.5", "-0.0", "True", "3j", "np.float64(1.5)", "np.int64(3)",
             "np.array([1.0, -2.0])", "np.array([1, 2])", "'x'", "2 ** 70", "float('nan')",
             "np.float32(0.5)")
STATIC_S = ("0", "1", "2", "3", "True", "1.0", "0.0", "-0.0", "float('nan')", "None", "(1, 2)",
            "2 ** 65", "np.int64(2)", "(1, [2])", "[1]")
MODES = ("'a'", "'b'", "None", "''.join(['a'])", "'ab'[:1]", "1", "'c'")
GLOBAL_VALUES = {
    "G": ("2", "3", "2.0", "-0.0", "True", "np.float64(2)", "2 ** 70", "globals().get('G', 1)",
          "np.array([1, 2])"),
    "H": ("0.5", "-0.5", "1", "float('nan')", "globals().get('H', 0.5)", "0.0"),
    "FLAG": ("True", "False", "0", "1", "globals().get('FLAG', True)", "[]"),
}
HELPER_BINDINGS = ("h1 = h1_alt", "h1 = lambda v: v + 2", "h2 = h2_alt", "h1, h2 = h2_alt, h1",
                   "h2 = lambda v, k: v", "h1 = h1")


def _main(r: random.Random) -> str:
    lines = ["t = h1(x) + H"] + r.sample(LINES[1:], r.randint(2, 6))
    body = "\n".join("    " + line for text in lines for line in text.splitlines())
    return f"def main(x, y, s=1, mode='a'):\n{body}\n    return t\n"


def _call(r: random.Random) -> str:
    args = [r.choice(ARGUMENTS), r.choice(ARGUMENTS)]
    kwargs = {}
    for name, pool in (("s", STATIC_S), ("mode", MODES)):
        where = r.randrange(4)
        if where == 0:
            args.append(r.choice(pool))
        elif where in (1, 2):
            kwargs[name] = r.choice(pool)
        else:
            break  # left to its default (mode too, when s is)
    items = ", ".join(f"{k!r}: {v}" for k, v in kwargs.items())
    return f"({', '.join(args)},), {{{items}}}"


def _step(r: random.Random) -> tuple[str, str]:
    choice = r.random()
    if choice < 0.6:
        return ("call", _call(r))
    if choice < 0.8:
        name = r.choice(sorted(GLOBAL_VALUES))
        return ("exec", f"{name} = {r.choice(GLOBAL_VALUES[name])}")
    if choice < 0.85:
        name = r.choice(sorted(GLOBAL_VALUES))
        if r.random() < 0.3:
            return ("exec", f"globals().pop({name!r}, None)")
        return ("exec", f"if {name!r} in globals():\n    del {name}\n"
                        f"{name} = {r.choice(GLOBAL_VALUES[name][:3])}")
    return ("exec", r.choice(HELPER_BINDINGS))


def generate(seed: int) -> Case:
    r = random.Random(f"sequences:{seed}")
    static = r.choice(((), ("s",), ("mode",), ("s", "mode"), ("s",)))
    steps = [("call", _call(r))] + [_step(r) for _ in range(r.randint(6, 18))]
    steps.append(("call", _call(r)))
    options = {"static_argnames": static} if static else {}
    return Case("sequences", seed, PRELUDE + "\n" + _main(r), steps, options)
