# A running sum: `s` carried from turn to turn, its running values stored. NumPy's
# `add.accumulate` adds in the loop's order (documented, and checked by bits), so the terms are
# computed as arrays, the seed (`s` before the loop, a float or a float64) put first, and the
# accumulate gives every `s` the loop gives. `s` read after the loop is the last running value.
def cumulative_trapz(out: "float64[n]", y: "float64[n]", dx: float):
    s = 0.0
    for i in range(1, len(y)):
        s += 0.5 * (y[i] + y[i - 1]) * dx
        out[i] = s
    return s
# --- after vectorize_loops ---
def cumulative_trapz(out: 'float64[n]', y: 'float64[n]', dx: float):
    s = 0.0
    vectorized = False
    if range is range_2 and len is len_2 and 32 <= len(y
        ) - 1 and not may_share_memory(out, y):
        for fp_errors in floating_point_errors_recorded():
            s_before_2 = s
            s_terms_2 = 0.5 * (y[1:len(y)] + y[0:len(y) - 1]) * dx
            s_2 = running_sum(s_before_2, s_terms_2, 'add')
            s_last_2 = last_sum(s_before_2, s_terms_2, s_2, 'add')
            out_new = s_2
        if not fp_errors:
            s = s_last_2
            out[1:len(y)] = out_new
            vectorized = True
    if not vectorized:
        for i in range(1, len(y)):
            s += 0.5 * (y[i] + y[i - 1]) * dx
            out[i] = s
    return s
