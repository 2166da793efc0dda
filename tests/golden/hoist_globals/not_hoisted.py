# MUST NOT CHANGE: attributes of other modules (sys.stdout is replaced at run time), a local
# that shadows a module name, and attributes of values.
import sys
import math

def f(x):
    out = sys.stdout
    math = x
    return out, math.real, x.conjugate()
# --- after hoist_globals ---
def f(x):
    out = sys.stdout
    math = x
    return out, math.real, x.conjugate()
