# unroll_comprehensions leaves these as written: a lambda in the element (it would see `k`
# change), an `if`, two `for`s, 9 turns, a bound that is not a constant, a local that may be
# unbound where the comprehension runs (its NameError says "free variable" on Python 3.11).
def f(a, n, flag):
    fs = [lambda: k for k in range(3)]
    evens = [a[k] for k in range(3) if k % 2 == 0]
    pairs = [a[j] * a[k] for j in range(2) for k in range(2)]
    long = [a[k] for k in range(9)]
    some = [a[k] for k in range(n)]
    if flag:
        c = 2.0
    scaled = [c * a[k] for k in range(3)]
    return fs, evens, pairs, long, some, scaled
# --- after unroll_comprehensions ---
def f(a, n, flag):
    fs = [(lambda : k) for k in range(3)]
    evens = [a[k] for k in range(3) if k % 2 == 0]
    pairs = [(a[j] * a[k]) for j in range(2) for k in range(2)]
    long = [a[k] for k in range(9)]
    some = [a[k] for k in range(n)]
    if flag:
        c = 2.0
    scaled = [(c * a[k]) for k in range(3)]
    return fs, evens, pairs, long, some, scaled
