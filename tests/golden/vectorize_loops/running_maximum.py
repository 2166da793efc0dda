# Running maxima: the peak so far (`if p > peak: peak = p`, over the elements themselves) and
# the largest drawdown from it, read after the loop. `np.maximum.accumulate` keeps the loop's
# bits where no value is NaN and the zeros have one sign (equal values then have equal bits);
# otherwise `running_extreme` makes the loop's comparisons over the computed values. `worst`
# after the loop, the largest drawdown (only its last value is read: `final_extreme`, an
# `np.max`), is the seed itself (0.0, a Python float) where no drawdown replaced it.
def max_drawdown(prices: "float64[n]"):
    peak = prices[0]
    worst = 0.0
    for p in prices:
        if p > peak:
            peak = p
        dd = (peak - p) / peak
        if dd > worst:
            worst = dd
    return worst
# --- after vectorize_loops ---
def max_drawdown(prices: 'float64[n]'):
    peak = prices[0]
    worst = 0.0
    vectorized = False
    if type(peak) is float64 and 32 <= prices.shape[0]:
        for fp_errors in floating_point_errors_recorded():
            p_2 = prices[0:prices.shape[0]]
            peak_before_2 = peak
            peak_values_2 = p_2
            peak_2 = running_extreme(peak_before_2, peak_values_2, 'gt')
            dd_2 = (peak_2 - p_2) / peak_2
            worst_before_2 = worst
            worst_values_2 = dd_2
            worst_last_2 = final_extreme(worst_before_2, worst_values_2, 'gt')
        if not fp_errors:
            worst = worst_last_2
            vectorized = True
    if not vectorized:
        for p in prices:
            if p > peak:
                peak = p
            dd = (peak - p) / peak
            if dd > worst:
                worst = dd
    return worst
