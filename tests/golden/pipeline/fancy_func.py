# The textbook's fancy_func: three calls of add are inlined, the temporaries e, f and g are
# forwarded into one expression, and what is left is the hand-inlined (a + b) + (c + d).
def add(a, b):
    return a + b

def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g
# --- after pipeline ---
def fancy_func(a, b, c, d):
    return a + b + (c + d)
