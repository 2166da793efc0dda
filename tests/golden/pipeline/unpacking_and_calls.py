# Tuple and starred unpacking, chained assignment, calls with *args and **kwargs, slices.
def shuffle(xs, *args, **kwargs):
    first, *rest = xs
    a = b = rest[1:-1:2]
    head, (x, y) = xs[0], (1, 2)
    return max(*args, key=abs, **kwargs), {**kwargs, 'k': a}, {first, *b}, xs[::2, ...]
# --- after pipeline ---
def shuffle(xs, *args, **kwargs):
    first, *rest = xs
    a = b = rest[1:-1:2]
    head, (x, y) = (xs[0], (1, 2))
    return (max(*args, key=abs, **kwargs), {**kwargs, 'k': a}, {first, *b}, xs[::2, ...])
