# MUST NOT CHANGE: what raises, warns or would be huge is left to happen at run time, where
# the program would meet it (1 / 0 still raises ZeroDivisionError when the line runs).
import math

def f():
    a = 1 / 0
    b = 1e200 ** 2
    c = 2 ** 100000
    d = 'a' * 1000000
    e = math.sqrt(-1)
    g = int('x')
    return a, b, c, d, e, g
# --- after fold_constants ---
def f():
    a = 1 / 0
    b = 1e200 ** 2
    c = 2 ** 100000
    d = 'a' * 1000000
    e = math.sqrt(-1)
    g = int('x')
    return (a, b, c, d, e, g)
