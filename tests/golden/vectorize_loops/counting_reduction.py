# A count of the elements where a test holds: an int local (a Python int, exact) increased by
# an int constant under the test, and not otherwise read or written in the loop, is increased
# by the constant times `count_nonzero(mask)`; it may be read after the loop (its final value is
# computed). A chained comparison of elements is the `&` of its comparisons.
def crossings(signal: "float64[n]", level: float):
    count = 0
    for i in range(1, len(signal)):
        if signal[i - 1] < level <= signal[i]:
            count += 2
    return count
# --- after vectorize_loops ---
def crossings(signal: 'float64[n]', level: float):
    count = 0
    vectorized = False
    if range is range_2 and len is len_2 and 32 <= len(signal) - 1:
        mask = (signal[0:len(signal) - 1] < level) & (level <= signal[1:len
            (signal)])
        count = count + 2 * int(count_nonzero(mask))
        vectorized = True
    if not vectorized:
        for i in range(1, len(signal)):
            if signal[i - 1] < level <= signal[i]:
                count += 2
    return count
