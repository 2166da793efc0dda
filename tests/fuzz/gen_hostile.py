"""Kind "hostile": arguments whose dunders misbehave.

The module defines `Hostile(v, mode)`: `mode` names the misbehaviours of one object, drawn from
`MODES`: `__eq__` returning an array, `__hash__` raising, `__getattr__` calling the function
being compared again (the module global ``ENTRY``, see `core`), `__del__` printing,
`__bool__` raising; and dunders that rebind the module's globals (`G`, `SCALE`, the helper
`helper`) before they answer: `__bool__`, `__index__`, `__len__`, `__add__`/`__radd__`,
`__mul__`, `__getitem__`, `__iter__`, `__float__`, `__lt__` (issue 16). `main(h, x)` is a
random sequence of statements that use `h` through those dunders, with reads of the globals
and calls of the helper between them, so code that kept a global's value across a dunder would
be caught. Sometimes `h` is a static argument (the compiler itself then hashes and compares
it). Calls pass Hostile objects of several modes, and plain numbers.
"""

from __future__ import annotations

import random

from tests.fuzz.core import Case

PRELUDE = '''\
import numpy as np

G = 1
SCALE = 2.0
DEPTH = 0


def helper(v):
    return v * SCALE


def other_helper(v):
    return v - SCALE


def rebind(how):
    global G, SCALE, helper
    if how == 0:
        G = G + 1
    elif how == 1:
        SCALE = -SCALE
    else:
        helper = other_helper if helper is not other_helper else globals()["helper"]


class Hostile:
    def __init__(self, v, mode=""):
        self.v = v
        self.mode = mode

    def __deepcopy__(self, memo):
        return Hostile(self.v, self.mode)

    def __repr__(self):
        return f"Hostile({self.v!r}, {self.mode!r})"

    def _hook(self, name, how=0):
        if name in self.mode:
            rebind(how)

    def __eq__(self, other):
        if isinstance(other, Hostile):
            return self.v == other.v and self.mode == other.mode
        if "eq_array" in self.mode:
            return np.array([True, False])
        return self.v == other

    def __hash__(self):
        if "hash_raise" in self.mode:
            raise TypeError("unhashable Hostile")
        return hash(self.v)

    def __getattr__(self, name):
        if name.startswith("__") or "getattr_reenter" not in self.mode:
            raise AttributeError(name)
        global DEPTH
        if DEPTH >= 2:
            return 0
        DEPTH += 1
        try:
            return ENTRY(Hostile(self.v, ""), 1)
        finally:
            DEPTH -= 1

    def __del__(self):
        if "del_print" in self.mode:
            print("del", self.v)

    def __bool__(self):
        if "bool_raise" in self.mode:
            raise ValueError("no truth value")
        self._hook("bool_rebind", 0)
        return bool(self.v)

    def __index__(self):
        self._hook("index_rebind", 0)
        return int(self.v) % 3

    def __len__(self):
        self._hook("len_rebind", 1)
        return 3

    def __add__(self, other):
        self._hook("add_rebind", 0)
        return self.v + other

    def __radd__(self, other):
        self._hook("add_rebind", 2)
        return other + self.v

    def __mul__(self, other):
        self._hook("mul_rebind", 1)
        return self.v * other

    def __getitem__(self, index):
        self._hook("getitem_rebind", 2)
        return self.v + index

    def __iter__(self):
        self._hook("iter_rebind", 0)
        return iter([self.v, 1])

    def __float__(self):
        self._hook("float_rebind", 1)
        return float(self.v)

    def __lt__(self, other):
        self._hook("lt_rebind", 0)
        return self.v < other

'''

# ("del_print" is left to objects made inside `main`: copies of arguments die at other times)
MODES = ("eq_array", "hash_raise", "getattr_reenter", "bool_raise", "bool_rebind",
         "index_rebind", "len_rebind", "add_rebind", "mul_rebind", "getitem_rebind",
         "iter_rebind", "float_rebind", "lt_rebind")

USES = (
    "if h:\n    t = t + 1",
    "t = t + (h + x)",
    "t = t + (x + h)",
    "t = t + h * 2",
    "t = t + len(h) * SCALE",
    "for e in h:\n    t = t + e + G",
    "t = t + h[1] + G",
    "t = t + [1, 2, 3][h]",
    "try:\n    t = t + hash(h) % 7\nexcept TypeError:\n    t = -t",
    "try:\n    t = t + {h: 1}[h]\nexcept TypeError:\n    t = t - 1",
    "try:\n    if h == x:\n        t = t * 3\nexcept ValueError:\n    t = t + 0.5",
    "t = t + h.anything",
    "t = t + float(h)",
    "if h < x:\n    t = t - G",
    "t = t + (1 if h else 2) + G",
    "w = Hostile(x, 'del_print')\ndel w\nt = t + G",
    "t = t + abs(h.v) if isinstance(h, Hostile) else t",
    "t = max(t, h) if not isinstance(h, Hostile) else t",
    "print('t', t)",
    "p, q = h\nt = t + p + G",
    "t = t + len([0, 1, 2, 3][:h])",
    "t = t + (h in [1, 2.5, 0])",
    "t = t + sorted([h, 0.5])[0] if isinstance(h, Hostile) else t",
)
READS = ("t = t + G", "t = t * SCALE", "t = helper(t)", "t = t + G * SCALE", "t = t - helper(G)")


def _main(r: random.Random) -> str:
    lines = ["t = x * SCALE + G"]
    for _ in range(r.randint(2, 7)):
        lines.append(r.choice(USES))
        if r.random() < 0.7:
            lines.append(r.choice(READS))
    lines.append(r.choice(READS))
    body = "\n".join("    " + line for text in lines for line in text.splitlines())
    return f"def main(h, x):\n{body}\n    return t\n"


def _argument(r: random.Random) -> str:
    if r.random() < 0.15:
        return r.choice(("1", "2.5", "-0.0", "True"))
    mode = " ".join(r.sample(MODES, r.randint(1, 4)))
    return f"Hostile({r.choice(('1', '2.5', '0', '-3', 'True'))}, {mode!r})"


def generate(seed: int) -> Case:
    r = random.Random(f"hostile:{seed}")
    steps = []
    for _ in range(r.randint(2, 5)):
        steps.append(("call", f"({_argument(r)}, {r.choice(('1', '2.5', '-0.0'))}), {{}}"))
        if r.random() < 0.2:
            steps.append(("exec", r.choice(("G = 1", "SCALE = 2.0", "rebind(2)"))))
    options = {"static_argnames": ("h",)} if r.random() < 0.2 else {}
    return Case("hostile", seed, PRELUDE + "\n" + _main(r), steps, options)
