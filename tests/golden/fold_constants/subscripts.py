# Indexing and slicing a constant tuple or string is a constant; an index out of range is
# left to raise IndexError at run time.
COEFFS = (0.5, -1.25, 2.0)

def f(x):
    return COEFFS[0], COEFFS[1:], 'abc'[::-1], COEFFS[5], x[0]
# --- after fold_constants ---
def f(x):
    return 0.5, (-1.25, 2.0), 'cba', COEFFS[5], x[0]
