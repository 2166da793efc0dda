"""The textbook's imperative program: `fancy_func` built from three calls of `add`."""


def add(a, b):
    return a + b


def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g
