# The textbook's fancy_func. With the pass pipeline empty, symcompile reproduces the function
# faithfully: front end → IR → code generation gives back the same program.
def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g
# --- after pipeline ---
def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g
