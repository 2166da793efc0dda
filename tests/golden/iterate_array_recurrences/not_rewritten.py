# MUST NOT CHANGE: a local the loop assigns is read after it and its value comes from no
# array item (`m` keeps the type it had, a float or a NumPy scalar: not known); a turn reads
# an item stored two turns before (`c[i - 2]`: not kept); a turn divides by an expression (an
# overflow there could give a finite quotient, and no test would see it); a turn calls a
# function; a step of 2; a list the function made (`out`: no array, not worth the test).
import numpy as np


def f(a, c, n, m):
    for i in range(1, n):
        m = m * 0.5
        c[i] = a[i] * m
    for i in range(2, n):
        c[i] = a[i] + c[i - 2]
    for i in range(1, n):
        c[i] = a[i] / (c[i - 1] + 1.0)
    for i in range(1, n):
        c[i] = abs(a[i]) + c[i - 1]
    for i in range(1, n, 2):
        c[i] = a[i] + c[i - 1]
    out = [0.0] * n
    for i in range(1, n):
        out[i] = a[i] + out[i - 1]
    return c, m, out
# --- after iterate_array_recurrences ---
def f(a, c, n, m):
    for i in range(1, n):
        m = m * 0.5
        c[i] = a[i] * m
    for i in range(2, n):
        c[i] = a[i] + c[i - 2]
    for i in range(1, n):
        c[i] = a[i] / (c[i - 1] + 1.0)
    for i in range(1, n):
        c[i] = abs(a[i]) + c[i - 1]
    for i in range(1, n, 2):
        c[i] = a[i] + c[i - 1]
    out = [0.0] * n
    for i in range(1, n):
        out[i] = a[i] + out[i - 1]
    return c, m, out
