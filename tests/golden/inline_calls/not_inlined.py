# MUST NOT CHANGE: recursion; a call behind a short circuit (it may not run); a call after
# other work in its statement (moving the body before that work would reorder effects); a
# call after code the compiler cannot see (it might rebind `double` before the call); a
# generator; a callee with *args; a callee with code kept opaque (try).
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

def double(x):
    return 2 * x

def gen(x):
    yield x

def total(*xs):
    return sum(xs)

def safe(x):
    try:
        return 1 / x
    except ZeroDivisionError:
        return 0.0

def unknown():
    return None

def f(n, x, flag):
    a = fact(n)
    b = flag and double(x)
    c = x * 2 + double(x)
    unknown()
    d = double(x)
    return a, b, c, d, gen(x), total(x), safe(x)
# --- after inline_calls ---
def f(n, x, flag):
    a = fact(n)
    b = flag and double(x)
    t = x * 2
    c = t + (2 * x if double is double_2 else double(x))
    t = None
    None if unknown is unknown_2 else unknown()
    d = 2 * x if double is double_2 else double(x)
    return a, b, c, d, gen(x), total(x), safe(x)
