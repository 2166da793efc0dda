# A scalar accumulator per element (`acc = 0.0`, summed over `k`, then stored): it becomes an
# array of accumulators, started from the same value, each summed over `k` in the loop's
# order. Its element type follows the loop's: `0.0 + a[i, k] * b[k, j]` is a float64 (a
# float32 with float32 arrays), and so is the array.
def distances(out: "float64[n, m]", p: "float64[n, d]", q: "float64[m, d]"):
    for i in range(p.shape[0]):
        for j in range(q.shape[0]):
            s = 0.0
            for d in range(p.shape[1]):
                t = p[i, d] - q[j, d]
                s += t * t
            out[i, j] = s
# --- after vectorize_loops ---
def distances(out: 'float64[n, m]', p: 'float64[n, d]', q: 'float64[m, d]'):
    vectorized = False
    if range is range_2 and 32 <= p.shape[0] * q.shape[0] * p.shape[1
        ] and 8 <= p.shape[0] * q.shape[0] and 0 < p.shape[0] and 0 < q.shape[0
        ] and 0 < p.shape[1] and p.shape[1] - 1 < q.shape[1] and p.shape[0
        ] - 1 < out.shape[0] and q.shape[0] - 1 < out.shape[1
        ] and not may_share_memory(out, p) and not may_share_memory(out, q):
        for fp_errors in floating_point_errors_recorded():
            s_2 = 0.0
            for d in range(p.shape[1]):
                t_2 = p[0:p.shape[0], d][:, None] - q[0:q.shape[0], d]
                s_2 = s_2 + t_2 * t_2
            out_new = s_2
        if not fp_errors:
            out[0:p.shape[0], 0:q.shape[0]] = out_new
            vectorized = True
    if not vectorized:
        for i in range(p.shape[0]):
            for j in range(q.shape[0]):
                s = 0.0
                for d in range(p.shape[1]):
                    t = p[i, d] - q[j, d]
                    s += t * t
                out[i, j] = s
