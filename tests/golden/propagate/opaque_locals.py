# MUST NOT CHANGE: a local that a lambda reads, a nested function rebinds, or a walrus in a
# comprehension sets may change behind the compiler's back; it is never propagated.
def f(x, xs):
    k = 2
    get = lambda: k
    k = 3
    m = 1
    def bump():
        nonlocal m
        m += 1
    bump()
    w = 0
    vals = [(w := v) for v in xs]
    return get() * x + m + w
# --- after propagate ---
def f(x, xs):
    k = 2
    get = lambda: k
    k = 3
    m = 1
    def bump():
        nonlocal m
        m += 1
    bump()
    w = 0
    vals = [(w := v) for v in xs]
    return get() * x + m + w
