# MUST NOT CHANGE: without the arguments' kinds (this version takes any), `x * 2` may be a
# Python number, a list, or an object of the user's with its own `*`: nothing is rewritten.
def f(x, y):
    return x * 2 + y * 3
# --- after eliminate_temporaries ---
def f(x, y):
    return x * 2 + y * 3
