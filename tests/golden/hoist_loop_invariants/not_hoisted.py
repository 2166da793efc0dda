# MUST NOT CHANGE: an operation that may raise (`/` by zero, `**` overflowing, mixed int and
# float arithmetic with a huge int, anything on values of unknown type) stays in the loop, where
# it raises only if and when the original does; so does one whose operand the loop assigns
# (`s * dt`), and a call.
def f(xs, n: int, dt: float, m: float, s: float, w):
    out = []
    for x in xs:
        out.append(x + dt / m + dt ** m + n * dt + w * 2 + abs(dt) + s * dt)
        s = x * 1.5
    return out
# --- after hoist_loop_invariants ---
def f(xs, n: int, dt: float, m: float, s: float, w):
    out = []
    for x in xs:
        out.append(x + dt / m + dt ** m + n * dt + w * 2 + abs(dt) + s * dt)
        s = x * 1.5
    return out
