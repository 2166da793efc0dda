# With fastmath=True, a matrix product's reduced axis (`k` of `c[i, j] += a[i, k] * b[k, j]`,
# the whole body, float64 matrices) becomes one BLAS product, `c + a @ b`, instead of a Python
# loop over `k` adding slices in the loop's order (an unsafe rule: BLAS blocks the sums and
# fuses multiply-adds, so they round differently). `reordered_matmul` takes it only where no
# order can overflow (`max|c| + p * max|a| * max|b| <= 2**1020`: a fused `-1e308 + 1e200 *
# 2e108` is finite where the loop's product overflows) and the error state ignores underflow;
# else it adds in the loop's order, as without fastmath, errors recorded.
def matmul(c: "float64[n, m]", a: "float64[n, p]", b: "float64[p, m]"):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]
# --- after vectorize_loops with fastmath ---
def matmul(c: 'float64[n, m]', a: 'float64[n, p]', b: 'float64[p, m]'):
    vectorized = False
    if range is range_2 and 32 <= a.shape[0] * b.shape[1] * a.shape[1
        ] and 8 <= a.shape[0] * b.shape[1] and 0 < a.shape[0] and 0 < b.shape[1
        ] and 0 < a.shape[1] and a.shape[0] - 1 < c.shape[0] and b.shape[1
        ] - 1 < c.shape[1] and a.shape[1] - 1 < b.shape[0
        ] and not may_share_memory(c, a) and not may_share_memory(c, b):
        for fp_errors in floating_point_errors_recorded():
            c_new = c[0:a.shape[0], 0:b.shape[1]]
            c_new = reordered_matmul(c_new, a[0:a.shape[0], 0:a.shape[1]],
                b[0:a.shape[1], 0:b.shape[1]])
        if not fp_errors:
            c[0:a.shape[0], 0:b.shape[1]] = c_new
            vectorized = True
    if not vectorized:
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                for k in range(a.shape[1]):
                    c[i, j] += a[i, k] * b[k, j]
