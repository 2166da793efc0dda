# MUST NOT CHANGE: a division (`1.0 / 0.0` raises ZeroDivisionError on a float where a NumPy
# scalar warns and gives inf), a branch (a turn may skip the accumulator, so an overflow in
# it would go unseen), a value that reaches no accumulator within its turn (`last`), a
# float32 vector (its arithmetic rounds to float32), and a value of unknown type read in the
# body (`w`) keep their loops over NumPy scalars; so do stores of a product (it may overflow
# unseen) and stores into an array that other code has seen (`log.append(seen)`).
import numpy as np


def f(a: "float64[n]", b: "float32[n]", w, log):
    s = 0.0
    for x in a:
        s = s + 1.0 / x
    t = 0.0
    for x in a:
        if x > 0.5:
            t = t + x
    u = 0.0
    for x in a:
        last = x * 2.0
        u = u + x
    v = 0.0
    for x in b:
        v = v + x
    r = 0.0
    for x in a:
        r = r * w + x
    out = np.zeros(len(a))
    for i in range(len(a)):
        r = r + a[i]
        out[i] = r * 2.0
    seen = np.zeros(len(a))
    log.append(seen)
    for i in range(len(a)):
        v = v + a[i]
        seen[i] = v
    return s, t, u, last, v, r, out
# --- after iterate_lists ---
def f(a: "float64[n]", b: "float32[n]", w, log):
    s = 0.0
    for x in a:
        s = s + 1.0 / x
    t = 0.0
    for x in a:
        if x > 0.5:
            t = t + x
    u = 0.0
    for x in a:
        last = x * 2.0
        u = u + x
    v = 0.0
    for x in b:
        v = v + x
    r = 0.0
    for x in a:
        r = r * w + x
    out = np.zeros(len(a))
    for i in range(len(a)):
        r = r + a[i]
        out[i] = r * 2.0
    seen = np.zeros(len(a))
    log.append(seen)
    for i in range(len(a)):
        v = v + a[i]
        seen[i] = v
    return s, t, u, last, v, r, out
