# A temporary gets a name the function does not use: `t` and `t_2` are taken here, so `t_3`.
def f(t: float, x: float):
    t_2 = x * x + t
    return (x * x) * t_2
# --- after eliminate_common_subexpressions ---
def f(t: float, x: float):
    t_3 = x * x
    t_2 = t_3 + t
    return t_3 * t_2
