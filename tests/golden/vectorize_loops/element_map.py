# A loop computing each element from elements of other arrays becomes slices: the same
# additions and the multiplication for every element, so the same bits (`u[i]` of a float64
# array is a np.float64: the loop already runs NumPy's arithmetic). The check on entry keeps
# every index in range (`u` and `out` have one shape here) and `out` apart from `u`; the
# values are computed with floating-point errors recorded, and written only if none was
# raised: otherwise, and when the check fails, the loop runs as written.
def smooth(out: "float64[n]", u: "float64[n]", n: int):
    for i in range(1, n - 1):
        out[i] = (u[i - 1] + u[i] + u[i + 1]) * (1.0 / 3.0)
# --- after vectorize_loops ---
def smooth(out: 'float64[n]', u: 'float64[n]', n: int):
    vectorized = False
    if range is range_2 and 1 < n - 1 and n - 1 < u.shape[0
        ] and not may_share_memory(out, u):
        for fp_errors in floating_point_errors_recorded():
            out_new = (u[0:n - 2] + u[1:n - 1] + u[2:n]) * (1.0 / 3.0)
        if not fp_errors:
            out[1:n - 1] = out_new
            vectorized = True
    if not vectorized:
        for i in range(1, n - 1):
            out[i] = (u[i - 1] + u[i] + u[i + 1]) * (1.0 / 3.0)
