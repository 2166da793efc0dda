# MUST NOT CHANGE: a value read twice, a value read in a loop test (evaluated on every turn),
# and a value read behind a short circuit.
def f(x, y, n):
    t = x + 1
    u = t * t
    s = x * 2
    while s < n:
        n -= 1
    v = y + 1
    w = x > 0 and v
    return u, w, w
# --- after forward_single_uses ---
def f(x, y, n):
    t = x + 1
    u = t * t
    s = x * 2
    while s < n:
        n -= 1
    v = y + 1
    w = x > 0 and v
    return u, w, w
