# `c[i]` is accumulated over the outer `k` while `c[i + 1]` is read: at the second `k` that
# read sees the first `k`'s update, so `k` cannot move inside (the nest is not a reduction in
# order). For each `k`, the loop over `i` alone is an element map (each `c[i]` reads the
# `c[i + 1]` of before this sweep), vectorized as such.
def shifted(c: "float64[n]", a: "float64[n, m]"):
    for k in range(a.shape[1]):
        for i in range(a.shape[0] - 1):
            c[i] += c[i + 1] * a[i, k]
# --- after vectorize_loops ---
def shifted(c: 'float64[n]', a: 'float64[n, m]'):
    for k in range(a.shape[1]):
        vectorized = False
        if range is range_2 and type(k) is int and 32 <= a.shape[0
            ] - 1 and 0 <= k + a.shape[1] and a.shape[0] - 1 < c.shape[0
            ] and k < a.shape[1] and not may_share_memory(c, a):
            for fp_errors in floating_point_errors_recorded():
                c_new = c[0:a.shape[0] - 1] + c[1:a.shape[0]] * a[0:a.shape
                    [0] - 1, k]
            if not fp_errors:
                c[0:a.shape[0] - 1] = c_new
                vectorized = True
        if not vectorized:
            for i in range(a.shape[0] - 1):
                c[i] += c[i + 1] * a[i, k]
