# The whole pipeline on NumPy code: hoist_globals binds np.exp and np.maximum (ufuncs), then
# eliminate_temporaries computes into the arrays the function makes itself. `exp` writes over
# its operand (`exp(t, out=t)`: its SIMD and plain loops may differ in the last bit, but NumPy
# takes an output that is exactly the input as not overlapping it and runs the loop it runs for
# a new array); `maximum` is exact and writes in place with out=. use_cheaper_numpy_calls converts
# the numbers to float32 once (`float32_minus_0_5` is np.float32(-0.5)). The annotations
# stand for float32 arrays of one shape; `bias` is a Python float (NEP 50: results stay float32).
import numpy as np


def f(x: "float32[n, m]", w: "float32[n, m]", bias: float):
    y = np.exp(-0.5 * x * x) * w
    return np.maximum(y + bias, 0)
# --- after pipeline ---
def f(x: 'float32[n, m]', w: 'float32[n, m]', bias: float):
    t = float32_minus_0_5 * x
    t *= x
    exp(t, out=t)
    t *= w
    t += bias
    maximum(t, float32_0_0, out=t)
    return t
