# Global constants and module constants are read at compile time. A global the code relies on
# (SCALE, DEBUG, the builtin abs) is checked on every call, and a change makes it recompile;
# module attributes such as math.pi are taken as fixed.
import math

SCALE = 2.0
DEBUG = False

def f(x):
    if DEBUG:
        print('scaling', x)
    return x * SCALE + math.pi + abs(-3) + math.floor(2.5)
# --- after fold_constants ---
def f(x):
    if False:
        print('scaling', x)
    return x * 2.0 + 3.141592653589793 + 3 + 2
