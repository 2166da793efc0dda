# With fastmath=True, `math.exp` (and `math.log`, `math.tanh`, `math.atan2`, `**`, NumPy's own
# ufuncs of an element...) of float64 elements becomes the NumPy ufunc of the slices: NumPy's
# SIMD loops may round differently from libm in the last bit (an unsafe rule). Exceptions stay
# the loop's: the arrays are computed under `floating_point_errors_checked`, which records
# overflow, division by zero and invalid whatever the error state says, and any sends the call
# to the loop, where `math.exp(1000.0)` raises OverflowError as it does. (`exp` is checked on
# entry to be `math.exp` still.)
from math import exp


def sigmoid(out: "float64[n]", x: "float64[n]"):
    for i in range(len(x)):
        out[i] = 1.0 / (1.0 + exp(-x[i]))
# --- after vectorize_loops with fastmath ---
def sigmoid(out: 'float64[n]', x: 'float64[n]'):
    vectorized = False
    if range is range_2 and len is len_2 and exp is exp_2 and 32 <= len(x
        ) and not may_share_memory(out, x):
        for fp_errors in floating_point_errors_checked():
            out_new = 1.0 / (1.0 + exp_3(-x[0:len(x)]))
        if not fp_errors:
            out[0:len(x)] = out_new
            vectorized = True
    if not vectorized:
        for i in range(len(x)):
            out[i] = 1.0 / (1.0 + exp(-x[i]))
