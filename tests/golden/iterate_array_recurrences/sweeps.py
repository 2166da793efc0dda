# The Thomas algorithm's sweeps: each turn computes on items of arrays it only reads (from
# their `.tolist()`, Python floats) and on the item it stored the turn before (`c[i - 1]`,
# kept in `c_item`, read from the array before the first turn). `m` divides, so it is tested
# where it is assigned (finite and not 0: a float raises ZeroDivisionError where a NumPy scalar
# warns); the arrays stored into are all finite at the end. Where a test fails, the arrays are
# put back as they were and the loop as written runs. The first loop's `t_3` etc. are lists
# of floats; `n` is tested an int, every index in range, the range not empty.
import numpy as np


def f(lower, diag, upper, rhs, n):
    c = np.zeros(n)
    d = np.zeros(n)
    for i in range(1, n):
        m = diag[i] - lower[i] * c[i - 1]
        c[i] = upper[i] / m
        d[i] = (rhs[i] - lower[i] * d[i - 1]) / m
    x = np.zeros(n)
    x[n - 1] = d[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = d[i] - c[i] * x[i + 1]
    return x
# --- after iterate_array_recurrences ---
def f(lower, diag, upper, rhs, n):
    c = np.zeros(n)
    d = np.zeros(n)
    t = (type(diag) is ndarray and len(diag) >= 64 and diag.dtype is
        float64dtype and diag.ndim == 1 and type(lower) is ndarray and 
        lower.dtype is float64dtype and lower.ndim == 1 and type(upper) is
        ndarray and upper.dtype is float64dtype and upper.ndim == 1 and 
        type(rhs) is ndarray and rhs.dtype is float64dtype and rhs.ndim == 
        1 and type(c) is ndarray and c.dtype is float64dtype and c.ndim == 
        1 and type(d) is ndarray and d.dtype is float64dtype and d.ndim == 
        1 and c.flags.writeable and d.flags.writeable and not
        may_share_memory(c, d) and not may_share_memory(c, diag) and not
        may_share_memory(c, lower) and not may_share_memory(c, upper) and 
        not may_share_memory(c, rhs) and not may_share_memory(d, diag) and 
        not may_share_memory(d, lower) and not may_share_memory(d, upper) and
        not may_share_memory(d, rhs) and range is range_2 and type(n) is
        int and 1 < n and n - 1 < len(diag) and n - 1 < len(lower) and n - 
        1 < len(upper) and n - 1 < len(rhs) and n - 1 < len(c) and n - 1 <
        len(d) and geterr()['under'] == 'ignore')
    if t:
        c_before = c.copy()
        d_before = d.copy()
        t_3 = diag.tolist()
        t_4 = lower.tolist()
        t_5 = upper.tolist()
        t_6 = rhs.tolist()
        c_item = float(c[0])
        d_item = float(d[0])
        t_2 = False
        for i in range(1, n):
            m = t_3[i] - t_4[i] * c_item
            if m - m != 0.0 or m == 0.0:
                t_2 = True
                break
            c_item = t_5[i] / m
            c[i] = c_item
            d_item = (t_6[i] - t_4[i] * d_item) / m
            d[i] = d_item
        t = not t_2 and isfinite(c).all() and isfinite(d).all()
        if not t:
            copyto(c, c_before)
            copyto(d, d_before)
    if not t:
        for i in range(1, n):
            m = diag[i] - lower[i] * c[i - 1]
            c[i] = upper[i] / m
            d[i] = (rhs[i] - lower[i] * d[i - 1]) / m
    x = np.zeros(n)
    x[n - 1] = d[n - 1]
    t_7 = (type(d) is ndarray and len(d) >= 64 and d.dtype is float64dtype and
        d.ndim == 1 and type(c) is ndarray and c.dtype is float64dtype and 
        c.ndim == 1 and type(x) is ndarray and x.dtype is float64dtype and 
        x.ndim == 1 and x.flags.writeable and not may_share_memory(x, d) and
        not may_share_memory(x, c) and range is range_2 and type(n) is int and
        n - 2 > -1 and n - 2 < len(d) and n - 2 < len(c) and n - 1 < len(x) and
        geterr()['under'] == 'ignore')
    if t_7:
        x_before = x.copy()
        t_9 = d.tolist()
        t_10 = c.tolist()
        x_item = float(x[n - 1])
        for i in range(n - 2, -1, -1):
            x_item = t_9[i] - t_10[i] * x_item
            x[i] = x_item
        t_7 = isfinite(x).all()
        if not t_7:
            copyto(x, x_before)
    if not t_7:
        for i in range(n - 2, -1, -1):
            x[i] = d[i] - c[i] * x[i + 1]
    return x
