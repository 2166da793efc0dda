# MUST NOT CHANGE: `np.exp` of an element runs NumPy's scalar loop, of an array its SIMD loop,
# which rounds differently for some doubles (and `math.exp` runs libm). Vectorized only under
# fastmath (`fastmath_element_map.py`).
import numpy as np


def f(out: "float64[n]", a: "float64[n]"):
    for i in range(len(a)):
        out[i] = np.exp(a[i])
# --- after vectorize_loops ---
def f(out: 'float64[n]', a: 'float64[n]'):
    for i in range(len(a)):
        out[i] = np.exp(a[i])
