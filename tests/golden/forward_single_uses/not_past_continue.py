# MUST NOT CHANGE: `t - x` is read once by the `if` test and `t` is assigned again after it,
# but the `continue` leaves the `if` for the next turn, where that value of `t` is read (and
# finally returned). Forwarding it into the test would lose it on that path.
def f(x):
    t = x * 1
    for i in range(2):
        t = t - x
        if t < 10:
            continue
        t = x * 3
    return t
# --- after forward_single_uses ---
def f(x):
    t = x * 1
    for i in range(2):
        t = t - x
        if t < 10:
            continue
        t = x * 3
    return t
