# MUST NOT CHANGE: `a + 1` is an int64 array, `(a + 1) / 2` a float64 one: it does not fit into
# the int64 array. A comparison is not an operation the pass computes into (`>` makes bools).
def f(a: "int64[n]"):
    return (a + 1) / 2, (a - 1) > 0
# --- after eliminate_temporaries ---
def f(a: "int64[n]"):
    return (a + 1) / 2, (a - 1) > 0
