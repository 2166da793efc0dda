# A local carried from turn to turn (`s`, read before the turn assigns it) is tested to be a
# float or a float64 scalar where the loop starts and made a float (its value kept, to put
# back if the copy's tests fail); a name the loop only reads (`dx`) too, into a local of its
# own. `s` is read after the loop, and its values come from array items (NumPy scalars in the
# original), so it is made a float64 scalar again after the copy. `len(y)` bounds the range:
# `len` is tested to be the builtin, `y` an ndarray. `s += v` is `s = s + v` on floats.
import numpy as np


def f(y, dx):
    out = np.zeros(len(y))
    s = 0.0
    for i in range(1, len(y)):
        s += 0.5 * (y[i] + y[i - 1]) * dx
        out[i] = s
    return out, s
# --- after iterate_array_recurrences ---
def f(y, dx):
    out = np.zeros(len(y))
    s = 0.0
    t = (type(y) is ndarray and len_2(y) >= 64 and y.dtype is float64dtype and
        y.ndim == 1 and type(out) is ndarray and out.dtype is float64dtype and
        out.ndim == 1 and out.flags.writeable and not may_share_memory(out,
        y) and len is len_2 and range is range_2 and (type(s) is float or 
        type(s) is float64) and (type(dx) is float or type(dx) is float64) and
        1 < len(y) and len(y) - 1 < len_2(y) and len(y) - 1 < len_2(out) and
        geterr()['under'] == 'ignore')
    if t:
        out_before = out.copy()
        s_before = s
        s = float(s)
        dx_float = float(dx)
        t_3 = y.tolist()
        t_2 = False
        for i in range(1, len(y)):
            s = s + 0.5 * (t_3[i] + t_3[i - 1]) * dx_float
            if s - s != 0.0:
                t_2 = True
                break
            out[i] = s
        t = not t_2 and isfinite(out).all()
        if t:
            s = float64(s)
        else:
            copyto(out, out_before)
            s = s_before
    if not t:
        for i in range(1, len(y)):
            s += 0.5 * (y[i] + y[i - 1]) * dx
            out[i] = s
    return out, s
