# With the whole pipeline (np.where bound by hoist_globals): a local holding an array the
# function made is freed (`del d`) after the statement that uses it last, as the original
# frees a temporary; the memory is free for the arrays made next. A comparison reads an array
# without keeping it, so `d` stays private. Locals alive at `return` need no `del`.
import numpy as np


def f(x: "float64[n]"):
    d = x * 2.0
    m = np.where(d > 0, d, 0.0)
    return m * m + m
# --- after pipeline ---
def f(x: 'float64[n]'):
    d = x * float64_2_0
    m = where(d > 0, d, 0.0)
    del d
    t_4 = m * m
    t_4 += m
    return t_4
