# `*` arguments whose items are known are spread out: a display (its items are evaluated in
# order, right where the call evaluates them), a constant tuple, a global bound to a tuple (an
# assumption checked on entry, like the callee's name). Missing parameters take their defaults.
PAIR = (1.0, 2.0)

def add3(a, b, c=0.5):
    return a + b + c

def f(x, y):
    u = add3(*(x, y))
    v = add3(x, *(1, 2))
    w = add3(*PAIR)
    z = add3(*[y, x], c=x)
    return u, v, w, z
# --- after inline_calls ---
def f(x, y):
    add3_a = x
    add3_b = y
    add3_c = 0.5
    u = add3_a + add3_b + add3_c
    v = x + 1 + 2 if add3 is add3_2 else add3(x, *(1, 2))
    w = add3(*PAIR)
    z = y + x + x if add3 is add3_2 else add3(*[y, x], c=x)
    return u, v, w, z
