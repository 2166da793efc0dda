# MUST NOT CHANGE: an unused value whose computation may raise or run code (x / y, a call),
# and a local some opaque code reads (del).
def f(x, y):
    unused = x / y
    ignored = print('side effect')
    gone = 5
    del gone
    return x
# --- after eliminate_dead_code ---
def f(x, y):
    unused = x / y
    ignored = print('side effect')
    gone = 5
    del gone
    return x
