# NumPy's own promotion (NEP 50) decides where a result fits: a Python float beside a float32
# array gives float32, so `* 0.5` and `+ 1` are computed into the array `x - 1.0` made (a
# 2-D array: C-contiguous, as the version checks on entry).
def f(x: "float32[n, m]"):
    return (x - 1.0) * 0.5 + 1
# --- after eliminate_temporaries ---
def f(x: 'float32[n, m]'):
    t = x - 1.0
    t *= 0.5
    t += 1
    return t
