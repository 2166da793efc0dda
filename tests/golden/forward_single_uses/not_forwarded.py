# MUST NOT CHANGE: a value read twice, a value read in a loop test (evaluated on every turn),
# a value read behind a short circuit, and a parameter reassigned.
def f(x, y, n):
    t = x + 1
    u = t * t
    s = x * 2
    while s < n:
        n -= 1
    v = y + 1
    w = x > 0 and v
    x = y * 3
    return u, w, x
# --- after forward_single_uses ---
def f(x, y, n):
    t = x + 1
    u = t * t
    s = x * 2
    while s < n:
        n -= 1
    v = y + 1
    w = x > 0 and v
    x = y * 3
    return u, w, x
