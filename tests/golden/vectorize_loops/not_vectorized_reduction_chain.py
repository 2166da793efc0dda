# MUST NOT CHANGE: each row's sum starts from the row before's (`c[i - 1]`, a loop-carried
# dependence over `i`), and the inner loop alone accumulates into the one element `c[i]`:
# nothing to vectorize, and a sum reordered (`np.sum`) could round differently.
def chain(c: "float64[n]", a: "float64[n, m]"):
    for i in range(1, a.shape[0]):
        for k in range(a.shape[1]):
            c[i] += c[i - 1] * a[i, k]
# --- after vectorize_loops ---
def chain(c: 'float64[n]', a: 'float64[n, m]'):
    for i in range(1, a.shape[0]):
        for k in range(a.shape[1]):
            c[i] += c[i - 1] * a[i, k]
