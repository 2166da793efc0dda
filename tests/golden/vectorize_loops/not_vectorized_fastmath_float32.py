# MUST NOT CHANGE, even with fastmath: `math.exp` returns a float, computed in double. Of a
# float32 element, `np.exp` would compute in float32; beside float32 elements (`math.exp(a[i]) *
# b[i]`), the float times a float32 is a float32 (NEP 50) where the arrays would give float64.
from math import exp


def f(out: "float64[n]", a: "float64[n]", b: "float32[n]"):
    for i in range(len(a)):
        out[i] = exp(a[i]) * b[i]
# --- after vectorize_loops with fastmath ---
def f(out: 'float64[n]', a: 'float64[n]', b: 'float32[n]'):
    for i in range(len(a)):
        out[i] = exp(a[i]) * b[i]
