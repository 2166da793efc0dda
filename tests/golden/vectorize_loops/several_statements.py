# Several statements, and a scalar local computed afresh each turn: the local becomes an
# array, and a later statement reading `x[i]` that an earlier one wrote in the same turn
# reads the computed values. `mask` holds bools: a comparison of float64 elements. The last
# operation reading the local's array computes into it (`out=t_2`): one array fewer alive.
def split(x: "float64[n]", y: "float64[n]", mask: "bool[n]", a: "float64[n]"):
    for i in range(len(a)):
        t = a[i] * 2.0
        x[i] = t + 1.0
        y[i] = x[i] * t
        mask[i] = a[i] > 0.5
# --- after vectorize_loops ---
def split(x: 'float64[n]', y: 'float64[n]', mask: 'bool[n]', a: 'float64[n]'):
    vectorized = False
    if range is range_2 and len is len_2 and 32 <= len(a
        ) and not may_share_memory(mask, a) and not may_share_memory(mask, x
        ) and not may_share_memory(mask, y) and not may_share_memory(x, a
        ) and not may_share_memory(x, y) and not may_share_memory(y, a):
        for fp_errors in floating_point_errors_recorded():
            t_2 = a[0:len(a)] * 2.0
            x_new = t_2 + 1.0
            y_new = multiply(x_new, t_2, out=t_2)
            mask_new = a[0:len(a)] > 0.5
        if not fp_errors:
            x[0:len(a)] = x_new
            y[0:len(a)] = y_new
            mask[0:len(a)] = mask_new
            vectorized = True
    if not vectorized:
        for i in range(len(a)):
            t = a[i] * 2.0
            x[i] = t + 1.0
            y[i] = x[i] * t
            mask[i] = a[i] > 0.5
