# MUST NOT CHANGE: a `*` argument whose count is not known (a parameter, a list global, a
# display holding a `*` of its own); a call whose spread arguments do not fit the signature
# (it must raise TypeError at run time, as the original does).
WEIGHTS = [1.0, 2.0]

def add3(a, b, c=0.5):
    return a + b + c

def f(x, xs):
    u = add3(*xs)
    v = add3(*WEIGHTS)
    w = add3(*(x, *xs))
    z = add3(*(x, x, x, x))
    return u, v, w, z
# --- after inline_calls ---
def f(x, xs):
    u = add3(*xs)
    v = add3(*WEIGHTS)
    w = add3(*(x, *xs))
    z = add3(*(x, x, x, x))
    return u, v, w, z
