# MUST NOT CHANGE: a and b may have different shapes (they were of different shapes when the
# version was compiled), so `a * 2 + b` may be larger than `a * 2`: it is not computed into it.
def f(a: "float64[n]", b: "float64[m, n]"):
    return a * 2 + b
# --- after eliminate_temporaries ---
def f(a: "float64[n]", b: "float64[m, n]"):
    return a * 2 + b
