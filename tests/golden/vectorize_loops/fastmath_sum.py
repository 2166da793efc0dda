# With fastmath=True, a loop whose whole body adds elements into one float (`s += a[i] * b[i]`)
# becomes one reordered sum: `np.dot` (BLAS) for a product of two float64 elements, `np.sum`
# otherwise (an unsafe rule: the order of additions, and so the rounding, differs). The result
# keeps the loop's type (a float plus np.float64 terms is a np.float64), and the reordered sum
# is taken only where no order of additions can overflow (`reordered_dot` checks `|s| +
# sqrt(dot(a, a) * dot(b, b)) <= 2**1020`, Cauchy-Schwarz, and that the error state ignores
# underflow; else None and the loop runs).
def dot(a: "float64[n]", b: "float64[n]"):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s
# --- after vectorize_loops with fastmath ---
def dot(a: 'float64[n]', b: 'float64[n]'):
    s = 0.0
    vectorized = False
    if range is range_2 and len is len_2 and 128 <= len(a):
        for fp_errors in floating_point_errors_recorded():
            s_new = reordered_dot(s, a[0:len(a)], b[0:len(a)], 1)
        if not fp_errors and s_new is not None:
            s = s_new
            vectorized = True
    if not vectorized:
        for i in range(len(a)):
            s += a[i] * b[i]
    return s
