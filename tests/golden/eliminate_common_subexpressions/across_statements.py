# (The annotations stand for the argument types the version is compiled for: only arithmetic
# on numbers is shared.) A repeat in the next statements shares the temporary, even past a plain assignment (`s = y`)
# and when the later occurrence is conditional (behind `and`, in a branch of `if`-`else`): the
# first one is always evaluated, before anything else in its statement. The test of an `if`
# shares it too; the `if` ends the sharing (its body is a block of its own).
def f(x: float, y: float, flag):
    u = x * y + 1.0
    s = y
    v = flag and x * y > 0
    w = (x * y) ** 2 if flag else s
    if x * y < 1:
        s = x * y - 1
    return u, v, w, s
# --- after eliminate_common_subexpressions ---
def f(x: float, y: float, flag):
    t = x * y
    u = t + 1.0
    s = y
    v = flag and t > 0
    w = t ** 2 if flag else s
    if t < 1:
        s = x * y - 1
    return u, v, w, s
