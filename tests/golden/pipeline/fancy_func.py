# The textbook's fancy_func: three calls of add are inlined. For arguments of any type `a + b`
# may run the arguments' own __add__, which could rebind add, so the two later calls check
# add where Python reads it and call it when it changed; g is forwarded into the return.
def add(a, b):
    return a + b

def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g
# --- after pipeline ---
def fancy_func(a, b, c, d):
    e = a + b
    f = c + d if add is add_2 else add(c, d)
    return e + f if add is add_2 else add(e, f)
