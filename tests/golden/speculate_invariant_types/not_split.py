# MUST NOT CHANGE: no copy where an operand changes in the loop (`a`), is not a local (`G`:
# a call may rebind it), may be unbound before the loop (`b`), is known not to be a float
# (`n`, an int), or where the operation is not `+ - *` (`/` of floats may raise); nor where
# the loop's turns cannot pay for the test (a loop of one turn: it says so).
G = 2.0


def f(values, n: int, c, flag):
    if flag:
        b = 1.0
    for a in values:
        x = a * c
        a = a + 1.0
    for v in values:
        y = v + G * c
    for v in values:
        y = v + b * 1.0
    for v in values:
        y = v + n * 2
    for v in values:
        y = v + c / 2.0
    for _ in range(1):
        y = y + c * 2.0
    return x, y
# --- after speculate_invariant_types ---
def f(values, n: int, c, flag):
    if flag:
        b = 1.0
    for a in values:
        x = a * c
        a = a + 1.0
    for v in values:
        y = v + G * c
    for v in values:
        y = v + b * 1.0
    for v in values:
        y = v + n * 2
    for v in values:
        y = v + c / 2.0
    for _ in range(1):
        y = y + c * 2.0
    return x, y
