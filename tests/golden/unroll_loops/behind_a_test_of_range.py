# Where unseen code may have run before it (here `g(x)`, which could rebind `range`), a loop over
# `range` of int constants is unrolled behind `range is range_2`, read where the loop reads
# `range`; the loop as written runs if `range` is no longer the builtin.
def f(g, x, v):
    g(x)
    for k in range(2):
        v[k] = v[k] * x
    return v
# --- after unroll_loops ---
def f(g, x, v):
    g(x)
    if range is range_2:
        k = 0
        v[k] = v[k] * x
        k = 1
        v[k] = v[k] * x
    else:
        for k in range(2):
            v[k] = v[k] * x
    return v
