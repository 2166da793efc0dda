# A whole-array reduction of a float64 array is an np.float64 scalar (`np.max(z)`, `np.sum(e)`:
# value_types reduces a one-element array of the dtype to learn the type), so `z - np.max(z)`
# is known to be a new float64 array: `exp` writes over it, and the division over `e`, whose
# last read is the sum (a reduction keeps no reference to the array it reads, and it is done
# before the division runs). As hand-written: `e = z - max(z); exp(e, out=e); e /= sum(e)`.
import numpy as np


def f(z: "float64[n]"):
    e = np.exp(z - np.max(z))
    return e / np.sum(e)
# --- after pipeline ---
def f(z: 'float64[n]'):
    e = z - max(z)
    exp(e, out=e)
    e /= sum(e)
    return e
