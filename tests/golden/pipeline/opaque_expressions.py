# Expressions the compiler does not model (lambda, comprehensions, f-strings, walrus) are kept
# verbatim inside otherwise understood statements.
def describe(xs):
    squares = [v * v for v in xs if v]
    if (n := len(squares)) > 2:
        key = lambda v: -v
        return sorted(squares, key=key)
    return f"{n} squares: {squares!r:>10}"
# --- after pipeline ---
def describe(xs):
    squares = [v * v for v in xs if v]
    if (n := len(squares)) > 2:
        key = lambda v: -v
        return sorted(squares, key=key)
    return f'{n} squares: {squares!r:>10}'
