# MUST NOT CHANGE: sharing stays within one straight-line block. Occurrences in the two
# branches of an `if`, or one in a loop body and one after the loop (which may not run, or
# run many times), or one in a `while` test (evaluated on every turn), are not shared.
def f(x: float, y: float, n: int):
    if n > 0:
        a = (x + y) * 2
    else:
        a = (x + y) * 3
    for i in range(n):
        a = a + (x - y) * 2
    b = (x - y) * 3
    while (x * y) + n > 10:
        n = n - 1
    c = (x * y) + 1
    return a, b, c
# --- after eliminate_common_subexpressions ---
def f(x: float, y: float, n: int):
    if n > 0:
        a = (x + y) * 2
    else:
        a = (x + y) * 3
    for i in range(n):
        a = a + (x - y) * 2
    b = (x - y) * 3
    while (x * y) + n > 10:
        n = n - 1
    c = (x * y) + 1
    return a, b, c
