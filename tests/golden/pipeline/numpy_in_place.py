# The whole pipeline on NumPy code: hoist_globals binds np.exp and np.maximum (ufuncs), then
# eliminate_temporaries computes into the arrays the function makes itself, with out=. The
# annotations stand for float32 arrays of one shape; `bias` is a Python float (NEP 50: the
# results stay float32).
import numpy as np


def f(x: "float32[n, m]", w: "float32[n, m]", bias: float):
    y = np.exp(-0.5 * x * x) * w
    return np.maximum(y + bias, 0)
# --- after pipeline ---
def f(x: 'float32[n, m]', w: 'float32[n, m]', bias: float):
    t = -0.5 * x
    t *= x
    exp(t, out=t)
    t *= w
    t += bias
    maximum(t, 0, out=t)
    return t
