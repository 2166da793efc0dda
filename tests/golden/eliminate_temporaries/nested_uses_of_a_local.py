# A local read several times in one expression is written over only by the operation that
# uses it last, which is the outermost one here: Horner's rule reads `k` first for the
# outermost `*` and uses it last. Loading `k` is not using its array. Writing `k * 4.0` into
# k would change the k that the outer operations multiply by.
def f(x: "float64[n]"):
    k = x + 1.0
    return k * (2.0 + k * (3.0 + k * 4.0))
# --- after eliminate_temporaries ---
def f(x: 'float64[n]'):
    k = x + 1.0
    t_2 = k * 4.0
    add(3.0, t_2, out=t_2)
    multiply(k, t_2, out=t_2)
    add(2.0, t_2, out=t_2)
    k *= t_2
    return k
