# After an if, only the values both branches agree on are known (k is 2 either way, j is
# not). A loop forgets what it assigns before its test is read (i changes on every turn).
def f(x, flag, n):
    if flag:
        k = 2
        j = 1
    else:
        k = 2
        j = 3
    i = 0
    while i < n:
        i += k
    return x * k + j + i
# --- after propagate ---
def f(x, flag, n):
    if flag:
        k = 2
        j = 1
    else:
        k = 2
        j = 3
    i = 0
    while i < n:
        i += 2
    return x * 2 + j + i
