# A call of a `math` function on floats the loop never changes gives the same bits every turn.
# One that never raises on a float (`atan2`, `fabs`, `hypot`...) moves out like `+`. One that
# raises outside a range (`cos(inf)`, `sqrt(-1.0)`: ValueError; `exp(710.0)`: OverflowError)
# moves behind a test of that range, and the loop as written stays for the other values, so
# that it raises when and where the original does (here, for an `xs` that is empty, never).
# A constant argument inside the range needs no test.
import math


def f(xs, theta: float, y: float, dt: float):
    out = []
    for x in xs:
        out.append(x * math.cos(theta) + math.atan2(y, dt) + math.sqrt(2.0) * math.exp(dt))
    return out
# --- after hoist_loop_invariants ---
def f(xs, theta: float, y: float, dt: float):
    out = []
    t = math.atan2(y, dt)
    if (-1.7976931348623157e+308 <= theta <= 1.7976931348623157e+308 and dt <=
        709.0):
        t_2 = math.cos(theta)
        t_3 = math.sqrt(2.0) * math.exp(dt)
        for x in xs:
            out.append(x * t_2 + t + t_3)
    else:
        t_4 = math.sqrt(2.0)
        for x in xs:
            out.append(x * math.cos(theta) + t + t_4 * math.exp(dt))
    return out
