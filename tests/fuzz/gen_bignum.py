"""Kind "bignum": big-number constants the compiler might fold (issue 16).

`main(x, n)` holds a few statements with huge ints (`10 ** 400`, `2 ** 4000`), `pow` with
three arguments (huge exponents, a modulus of 1, negative exponents), `round` with big
negative digits, big shifts, `int`/`float`/`str` conversions that overflow or pass CPython's
4300-digit limit, `math.factorial`/`isqrt`, formatting, and expressions that
would take forever or all memory if computed (`10 ** 10 ** 8`, `1 << 10 ** 10`) in branches
never taken (`if False:`, `if n < 0:`, `x and ...`). Compiling must stay quick (a hang is a
finding; `Case.timeout` is short) and every result equal.
"""

from __future__ import annotations

import random

from tests.fuzz.core import Case

PRELUDE = "import math\n\nBIG = 10 ** 400\nHUGE_EXP = 10 ** 18\n\n\n"

VALUES = ("10 ** 400", "2 ** 4000", "-(3 ** 500)", "BIG", "BIG // 7", "BIG % 97",
          "pow(2, 10 ** 18, 10 ** 9 + 7)", "pow(3, HUGE_EXP, 1)", "pow(7, -1, 10 ** 30 + 1)",
          "pow(x, 10 ** 12, 97) if type(x) is int else 0", "pow(2, 3, -5)", "pow(0, 0, 1)",
          "round(BIG, -300)", "round(x, -10 ** 5)", "round(123.456, -400)", "round(2 ** 70, -21)",
          "1 << 3000", "BIG >> 1000", "(1 << 64) - 1",
          "-1 >> 10 ** 6", "int('9' * 500)", "len(str(2 ** 3000))", "abs(-BIG)",
          "float(2 ** 1023)", "(2 ** 1023) * 2.0", "2 ** -1074", "10 ** -400",
          "divmod(BIG, 10 ** 399)", "BIG * 0", "0 ** BIG", "1 ** BIG", "(-1) ** BIG",
          "x ** 0 * BIG", "(BIG + x) - BIG", "hash(BIG) % 1000", "max(BIG, x)",
          "2.0 ** 1024 if n > 100 else 1.5", "int(1e308) % 1000", "len(str(10 ** 5000))",
          "int('1' * 5000)", "float(10 ** 400)", "10 ** 400 / 3", "(-8) ** (1 / 3)",
          "divmod(BIG, 0)", "BIG ** 0.5", "math.factorial(30) % 1009", "math.isqrt(BIG)",
          "(2 ** 4000).bit_length()", "f'{BIG:e}'", "'%d' % (2 ** 200)", "BIG.to_bytes(200)[0]",
          "(1 << 200) & -(1 << 100)", "~BIG >> 7", "round(-0.5 * 10 ** 300)", "complex(BIG, 1)")
NEVER = ("10 ** 10 ** 8", "math.factorial(10 ** 7)", "str(10 ** 10 ** 6)", "1 << 10 ** 10", "2 ** 2 ** 40", "pow(10, 10 ** 9)",
         "round(BIG, -10 ** 18)", "'x' * 10 ** 12", "(10 ** 10 ** 7) % 3")
GUARDS = ("if False:", "if n < 0:", "if x != x and n > 10:", "while False:", "if 0:")


def _main(r: random.Random) -> str:
    lines = ["t = 0"]
    for _ in range(r.randint(2, 6)):
        choice = r.random()
        if choice < 0.65:
            lines.append(f"t = {r.choice(VALUES)}")
            lines.append(r.choice(("print(len(str(t)))", "acc = acc + [t % 1000003]",
                                   "acc.append(t)")))
        elif choice < 0.9:
            lines.append(f"{r.choice(GUARDS)}\n    t = {r.choice(NEVER)}")
        else:
            lines.append(f"t = x and n < -1 and {r.choice(NEVER)}")
    body = "\n".join("    " + line for text in lines for line in text.splitlines())
    return f"def main(x, n):\n    acc = []\n{body}\n    return t, acc\n"


def generate(seed: int) -> Case:
    r = random.Random(f"bignum:{seed}")
    steps = [("call", f"({r.choice(('3', '2.5', '-7', 'True', '10 ** 30'))}, {r.randint(0, 3)}), {{}}")
             for _ in range(r.randint(1, 3))]
    return Case("bignum", seed, PRELUDE + _main(r), steps, timeout=15.0)
