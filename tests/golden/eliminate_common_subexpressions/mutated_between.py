# MUST NOT CHANGE: between the occurrences something may change an operand array in place:
# an item assignment, an augmented assignment, a call (here `a.sort()`, `np.add(..., out=a)`,
# or a call in the same statement, evaluated between the two).
import numpy as np

def f(a, b):
    u = (a + b) * 2
    a[0] = 1
    v = (a + b) * 2
    w = (a - b) * 2
    a += 1
    z = (a - b) * 2
    p = (a * b) + 1
    a.sort()
    q = (a * b) + 1
    r = (a / b) + np.add(a, 1, out=a) + (a / b)
    return u, v, w, z, p, q, r
# --- after eliminate_common_subexpressions ---
def f(a, b):
    u = (a + b) * 2
    a[0] = 1
    v = (a + b) * 2
    w = (a - b) * 2
    a += 1
    z = (a - b) * 2
    p = (a * b) + 1
    a.sort()
    q = (a * b) + 1
    r = (a / b) + np.add(a, 1, out=a) + (a / b)
    return u, v, w, z, p, q, r
