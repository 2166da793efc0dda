# MUST NOT CHANGE: the loop variable is read after the loop (its last value would have to be
# set), and the loop variable is used as a value, not only as an index.
def f(out: "float64[n]", a: "float64[n]"):
    for i in range(len(a)):
        out[i] = a[i] + 1.0
    for j in range(len(a)):
        out[j] = j * 0.5
    return i
# --- after vectorize_loops ---
def f(out: 'float64[n]', a: 'float64[n]'):
    for i in range(len(a)):
        out[i] = a[i] + 1.0
    for j in range(len(a)):
        out[j] = j * 0.5
    return i
