# A running sum through the array itself: `out[i]` reads `out[i - 1]`, written the turn before
# (a loop-carried dependence slices could not follow), as an accumulation seeded with
# `out[0]`, the one element the loop reads and never writes.
def running(out: "float64[n]", x: "float64[n]"):
    for i in range(1, len(x)):
        out[i] = out[i - 1] + x[i]
# --- after vectorize_loops ---
def running(out: 'float64[n]', x: 'float64[n]'):
    vectorized = False
    if range is range_2 and len is len_2 and 32 <= len(x
        ) - 1 and not may_share_memory(out, x):
        for fp_errors in floating_point_errors_recorded():
            out_first_2 = element_of(out, 0)
            out_run_2 = running_sum(out_first_2, x[1:len(x)], 'add')
            out_new = out_run_2
        if not fp_errors:
            out[1:len(x)] = out_new
            vectorized = True
    if not vectorized:
        for i in range(1, len(x)):
            out[i] = out[i - 1] + x[i]
