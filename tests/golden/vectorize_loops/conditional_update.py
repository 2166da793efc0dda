# An `if` on elements becomes a mask: both branches' values are computed for every element,
# with floating-point errors only recorded (a division by zero the loop would skip sends the
# call to the loop, which never divides), then written where the mask says: an `if`/`else`
# storing the same element as one `np.where(mask, ...)` of both values (one store), other
# writes with `np.copyto(..., where=mask)`. A statement after the `if` reading what it may
# have written stays a loop.
def clip(out: "float64[n]", a: "float64[n]", level: float):
    for i in range(len(a)):
        if a[i] < level:
            out[i] = level
        else:
            out[i] = a[i] * 2.0
# --- after vectorize_loops ---
def clip(out: 'float64[n]', a: 'float64[n]', level: float):
    vectorized = False
    if range is range_2 and len is len_2 and 32 <= len(a
        ) and not may_share_memory(out, a):
        for fp_errors in floating_point_errors_recorded():
            mask = a[0:len(a)] < level
            out_new = level
            out_new_2 = where(mask, out_new, a[0:len(a)] * 2.0)
        if not fp_errors:
            out[0:len(a)] = out_new_2
            vectorized = True
    if not vectorized:
        for i in range(len(a)):
            if a[i] < level:
                out[i] = level
            else:
                out[i] = a[i] * 2.0
