# MUST NOT CHANGE: a reduction along an axis is an array, not a scalar (`np.sum(e, axis=0)`
# is not typed, so nothing after it is computed in place), and an array passed to a function
# that is no reduction is never written over (`keep(v)`, inlined, stores it in a list).
import numpy as np

kept = []


def keep(a):
    kept.append(a)
    return 2.0


def f(z: "float64[n, m]", w: "float64[n]"):
    e = np.exp(z)
    s = e / np.sum(e, axis=0)
    v = np.exp(w)
    return s, v / keep(v)
# --- after pipeline ---
def f(z: 'float64[n, m]', w: 'float64[n]'):
    e = exp(z)
    s = e / sum(e, axis=0)
    v = exp(w)
    kept.append(v)
    return s, v / float64_2_0
