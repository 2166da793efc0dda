# MUST NOT CHANGE: a loop with its own break or continue, a count that is not constant, too
# many turns, a `range` that is not the builtin (here a local), a list that is not constant.
def f(x, n):
    for i in range(3):
        if x > i:
            break
    for i in range(n):
        x = x + 1
    for i in range(100):
        x = x * 2
    for v in [1, x]:
        x = x - v
    range = lambda k: (k,)
    for i in range(3):
        x = x + i
    return x
# --- after unroll_loops ---
def f(x, n):
    for i in range(3):
        if x > i:
            break
    for i in range(n):
        x = x + 1
    for i in range(100):
        x = x * 2
    for v in [1, x]:
        x = x - v
    range = lambda k: (k,)
    for i in range(3):
        x = x + i
    return x
