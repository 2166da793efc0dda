# An array expression is computed one operation at a time into the arrays it made itself:
# `3 * b` is made once and then multiplied by b in place; once `t += t_2` has used it, the same
# array takes `1 + d` (`add(1, d, out=t_2)`). The same operations in the same order, so the
# same bits; two arrays instead of six. The annotations stand for 1-D float64 arrays of one shape.
def f(a: "float64[n]", b: "float64[n]", c: "float64[n]", d: "float64[n]"):
    return 2 * a + 3 * b * b - c / (1 + d)
# --- after eliminate_temporaries ---
def f(a: 'float64[n]', b: 'float64[n]', c: 'float64[n]', d: 'float64[n]'):
    t = 2 * a
    t_2 = 3 * b
    t_2 *= b
    t += t_2
    add(1, d, out=t_2)
    divide(c, t_2, out=t_2)
    t -= t_2
    return t
