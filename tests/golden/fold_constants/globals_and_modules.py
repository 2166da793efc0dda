# Global constants are read at compile time where that pays for the check on every call it
# takes: where they decide a branch (DEBUG), make an operation constant (SCALE * 2), or are
# read on every turn of a loop (LIMIT). A plain use outside a loop (OFFSET) stays a live read.
# Module constants such as math.pi are taken as fixed and need no check.
import math

SCALE = 2.0
DEBUG = False
LIMIT = 10
OFFSET = 0.5

def f(x, n):
    if DEBUG:
        print('scaling', x)
    for i in range(n):
        x = min(x + i, LIMIT)
    return x * (SCALE * 2) + OFFSET + math.pi + abs(-3) + math.floor(2.5)
# --- after fold_constants ---
def f(x, n):
    if False:
        print('scaling', x)
    for i in range(n):
        x = min(x + i, LIMIT)
    return x * (SCALE * 2) + OFFSET + 3.141592653589793 + abs(-3) + 2
