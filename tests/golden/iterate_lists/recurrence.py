# A loop over a float64 vector whose body only assigns locals with + - * runs over the
# vector's Python floats (same bits, several times faster than NumPy scalars), for vectors of
# 64 elements or more and NumPy's default underflow setting. Every value computed from an
# element reaches the accumulator `acc`, so one that overflowed (or a NaN) leaves `acc` not
# finite: then `acc` is put back and the loop as written runs again, warning as NumPy does.
# The variables still read after the loop become NumPy scalars again, as in the original.
def f(samples: "float64[n]", decay: float):
    acc = 0.0
    for x in samples:
        acc = acc * decay + x
    return acc
# --- after iterate_lists ---
def f(samples: 'float64[n]', decay: float):
    acc = 0.0
    t = type(samples) is ndarray and len(samples
        ) >= 64 and samples.dtype is float64dtype and samples.ndim == 1 and geterr(
        )['under'] == 'ignore'
    if t:
        t_2 = acc
        for x in samples.tolist():
            acc = acc * decay + x
        t = acc - acc == 0.0
        if t:
            acc = float64(acc)
        else:
            acc = t_2
    if not t:
        for x in samples:
            acc = acc * decay + x
    return acc
