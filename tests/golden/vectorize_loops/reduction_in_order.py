# A matrix product accumulating into `c[i, j]`: no written index moves with `k`, so `k` stays
# a Python loop and `i`, `j` become array axes. Each element of `c` still receives its
# additions one `k` at a time, in the loop's order, so the sums round exactly as in the loop
# (the accumulated array is replaced, never changed in place, and stored only if no
# floating-point error was recorded). `k` may be the outer, middle or inner loop.
def matmul(c: "float64[n, m]", a: "float64[n, p]", b: "float64[p, m]"):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]
# --- after vectorize_loops ---
def matmul(c: 'float64[n, m]', a: 'float64[n, p]', b: 'float64[p, m]'):
    vectorized = False
    if range is range_2 and 32 <= a.shape[0] * b.shape[1] * a.shape[1
        ] and 8 <= a.shape[0] * b.shape[1] and 0 < a.shape[0] and 0 < b.shape[1
        ] and 0 < a.shape[1] and a.shape[0] - 1 < c.shape[0] and b.shape[1
        ] - 1 < c.shape[1] and a.shape[1] - 1 < b.shape[0
        ] and not may_share_memory(c, a) and not may_share_memory(c, b):
        for fp_errors in floating_point_errors_recorded():
            c_new = c[0:a.shape[0], 0:b.shape[1]]
            for k in range(a.shape[1]):
                c_new = c_new + a[0:a.shape[0], k][:, None] * b[k, 0:b.shape[1]
                    ]
        if not fp_errors:
            c[0:a.shape[0], 0:b.shape[1]] = c_new
            vectorized = True
    if not vectorized:
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                for k in range(a.shape[1]):
                    c[i, j] += a[i, k] * b[k, j]
