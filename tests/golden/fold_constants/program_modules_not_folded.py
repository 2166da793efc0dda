# MUST NOT CHANGE: a constant of a module of the program (here a configuration module) is read
# at run time: the program may change it while it runs, and module attributes get no guard.
# Only the constants of NumPy, math and cmath are taken as fixed.
import types

config = types.ModuleType('config')
config.SCALE = 2.0

def f(x):
    return x * (config.SCALE * 2)
# --- after fold_constants ---
def f(x):
    return x * (config.SCALE * 2)
