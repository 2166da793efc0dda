# MUST NOT CHANGE the order of work: b goes into the return (it is read first there), but a
# stays, because x * y is computed before a is read; moving x / y after it would change which
# error comes first.
def f(x, y):
    a = x / y
    b = x * y
    return b - a
# --- after forward_single_uses ---
def f(x, y):
    a = x / y
    return x * y - a
