# MUST NOT CHANGE: no copy where the loop would still run code the compiler cannot see with its
# locals floats (an item of a list of unknown items, a method of an object), where no check is
# decided (the helper's name is a local, or no longer holds the function inlined), or where the
# loop holds no check at all.
def g(x):
    return x * x + 1.0


g_2 = g


def h(x):
    return x


def f(t, xs, obj, n):
    for k in range(n):
        t = xs[k] * 0.5 + 1.0 if g is g_2 else g(xs[k])
    for k in range(n):
        t = t * 0.5 + 1.0 if g is g_2 else g(t)
        obj.push(t)
    local = g
    for k in range(n):
        t = t * 0.5 + 1.0 if local is g_2 else local(t)
    for k in range(n):
        t = t * 0.5 + 1.0 if h is g_2 else h(t)
    for k in range(n):
        t = t * 0.5 + 1.0
    return t
# --- after speculate_clean_loops ---
def f(t, xs, obj, n):
    for k in range(n):
        t = xs[k] * 0.5 + 1.0 if g is g_2 else g(xs[k])
    for k in range(n):
        t = t * 0.5 + 1.0 if g is g_2 else g(t)
        obj.push(t)
    local = g
    for k in range(n):
        t = t * 0.5 + 1.0 if local is g_2 else local(t)
    for k in range(n):
        t = t * 0.5 + 1.0 if h is g_2 else h(t)
    for k in range(n):
        t = t * 0.5 + 1.0
    return t
