# A quiet value assigned afresh before anything reads it is dead (`acc = 0.0`, and `tmp`, which
# the next turn of the loop assigns again); a value that may still be read (in a branch, by the
# next turn of a loop, after a break) stays.
def f(x, n, flag):
    acc = 0.0
    acc = x
    total = 1.0
    if flag:
        total = 2.0
    step = 1.0
    for i in range(n):
        tmp = 1.0
        if x > step:
            break
        step = 2.0
    return acc, total
# --- after eliminate_dead_code ---
def f(x, n, flag):
    acc = x
    total = 1.0
    if flag:
        total = 2.0
    step = 1.0
    for i in range(n):
        if x > step:
            break
        step = 2.0
    return acc, total
