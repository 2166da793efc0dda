# MUST NOT CHANGE: `a + 1` is an int64 array, `(a + 1) / 2` a float64 one: it does not fit into
# the int64 array, so it is a new array, as in the original.
def f(a: "int64[n]"):
    return (a + 1) / 2
# --- after eliminate_temporaries ---
def f(a: "int64[n]"):
    return (a + 1) / 2
