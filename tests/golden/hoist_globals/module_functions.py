# Functions and submodules of NumPy and math are looked up once, at compile time; the
# constant math.pi is left for fold_constants; a module this function rebinds is left alone.
import math
import numpy as np

def f(x):
    y = np.linalg.norm(x) + math.pi
    z = np.float64(y)
    return np.sin(z) + math.hypot(y, z)
# --- after hoist_globals ---
def f(x):
    y = norm(x) + math.pi
    z = float64(y)
    return sin(z) + hypot(y, z)
