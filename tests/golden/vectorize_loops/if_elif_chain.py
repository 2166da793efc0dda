# An if/elif chain on elements becomes masks, one for each branch's path: `mask` where the
# first test holds, `mask_3 = ~mask & mask_2` where it does not and the elif's does. The elif's
# test reads `out[i]` before any write of the iteration that could change it (the first branch
# writes only where `mask`, the elif's test matters only where not), so its slice reads the
# values before the writes too; `np.copyto(..., where=)` writes each branch's elements.
def clip(out: "float64[n]", lo: float, hi: float):
    for i in range(len(out)):
        if out[i] > hi:
            out[i] = hi
        elif out[i] < lo:
            out[i] = lo
# --- after vectorize_loops ---
def clip(out: 'float64[n]', lo: float, hi: float):
    vectorized = False
    if range is range_2 and len is len_2 and 32 <= len(out):
        mask = out[0:len(out)] > hi
        out_new = hi
        mask_2 = out[0:len(out)] < lo
        mask_3 = ~mask & mask_2
        out_new_2 = lo
        copyto(out[0:len(out)], out_new, where=mask)
        copyto(out[0:len(out)], out_new_2, where=mask_3)
        vectorized = True
    if not vectorized:
        for i in range(len(out)):
            if out[i] > hi:
                out[i] = hi
            elif out[i] < lo:
                out[i] = lo
