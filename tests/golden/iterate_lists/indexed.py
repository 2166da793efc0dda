# The indexed form: `a[i]` in `for i in range(len(a)):` reads an element, and `out[i] = s`
# stores a value into an array the function has just made (no other code has seen it). The
# loop runs over `a.tolist()`'s floats where `range` and `len` are the builtins, `out` is a
# float64 ndarray (a float and a float64 scalar store the same bits there) and `s`, of
# unknown type on entry (`a[0]`), is a float or a float64 scalar, made a float. If the loop
# runs again, it stores every item again.
import numpy as np


def f(a: "float64[n]", alpha: float):
    out = np.empty_like(a)
    s = a[0]
    for i in range(len(a)):
        s = alpha * a[i] + s
        out[i] = s
    return out, s
# --- after iterate_lists ---
def f(a: 'float64[n]', alpha: float):
    out = np.empty_like(a)
    s = a[0]
    t = (type(a) is ndarray and len_2(a) >= 64 and a.dtype is float64dtype and
        a.ndim == 1 and range is range_2 and len is len_2 and (type(s) is
        float_2 or type(s) is float64) and type(out) is ndarray and out.
        dtype is float64dtype and geterr()['under'] == 'ignore')
    if t:
        t_2 = s
        s = float_2(s)
        t_3 = a.tolist()
        for i in range(len(a)):
            s = alpha * t_3[i] + s
            out[i] = s
        t = s - s == 0.0
        if t:
            s = float64(s)
        else:
            s = t_2
    if not t:
        for i in range(len(a)):
            s = alpha * a[i] + s
            out[i] = s
    return out, s
