# A helper inlined behind a check at each call (code the compiler cannot see may run before
# it: `scale * t` on a `scale` of any type) gets a copy of its loop without the checks, behind
# a test of the locals the loop reads (`n` an int: `range` takes it) and a recheck of the
# globals, `g` with them (`assumptions_hold()`; lessons do not spell the checks of globals).
# In the copy `range` is the builtin itself, so `k` counts in ints there.
def g(x):
    return x * x + 1.0


g_2 = g


def f(t, scale, n):
    t = scale * t
    for k in range(n):
        if g is g_2:
            g_x = t + k
            t = g_x * g_x + 1.0
        else:
            t = g(t + k)
    return t
# --- after speculate_clean_loops ---
def f(t, scale, n):
    t = scale * t
    if type(n) is int and type(t) is float:
        for k in range_2(n):
            g_x = t + k
            t = g_x * g_x + 1.0
    else:
        for k in range(n):
            if g is g_2:
                g_x = t + k
                t = g_x * g_x + 1.0
            else:
                t = g(t + k)
    return t
