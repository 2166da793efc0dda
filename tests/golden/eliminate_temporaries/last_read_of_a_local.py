# A local whose array was made by an operation, and is read only as an operand, can take a
# result at its last read: `sqrt_t` is not needed after `d2`'s line, so `vol * sqrt_t` and
# `d1 - ...` are computed into it, and the name is dropped (`del sqrt_t`): d2 holds the
# array. A power is only computed in place on its base (`**=`: NumPy takes the same shortcut
# for `x ** 2` either way).
def f(years: "float64[n]", d1: "float64[n]", vol: float):
    sqrt_t = years ** 0.5
    d2 = d1 - vol * sqrt_t
    return (d2 + 1.0) ** 2
# --- after eliminate_temporaries ---
def f(years: 'float64[n]', d1: 'float64[n]', vol: float):
    sqrt_t = years ** 0.5
    multiply(vol, sqrt_t, out=sqrt_t)
    subtract(d1, sqrt_t, out=sqrt_t)
    d2 = sqrt_t
    del sqrt_t
    d2 += 1.0
    d2 **= 2
    return d2
