# MUST NOT CHANGE: a `math` call stays in the loop when its argument is an int (`cos(n)` of a
# huge int raises OverflowError) or of unknown type (it may run code of its own in
# `__float__`), when the loop assigns it, when its range cannot be tested before the loop
# (a constant outside it: `log(0.0)` must raise only if the loop runs), and when the function
# is not one known never to raise or to raise only outside a range of one float (`pow`, `fmod`,
# `log` with a base, `gamma`).
import math


def f(xs, n: int, w, y: float, dt: float):
    out = []
    for x in xs:
        out.append(math.cos(n) + math.cos(w) + math.cos(y) + math.log(0.0))
        out.append(math.pow(dt, 2.0) + math.fmod(dt, 2.0) + math.log(dt, 2.0) + math.gamma(dt))
        y = x * 0.5
    return out
# --- after hoist_loop_invariants ---
def f(xs, n: int, w, y: float, dt: float):
    out = []
    for x in xs:
        out.append(math.cos(n) + math.cos(w) + math.cos(y) + math.log(0.0))
        out.append(math.pow(dt, 2.0) + math.fmod(dt, 2.0) + math.log(dt, 2.0) + math.gamma(dt))
        y = x * 0.5
    return out
