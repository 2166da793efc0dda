# MUST NOT CHANGE what reading v means: v is a local of the original even after the loop that
# bound it (and never runs) is gone, so the global v must not be folded in. Reading v raises
# UnboundLocalError, as in the original.
v = 5

def f(x):
    for v in ():
        pass
    return x + v * 2
# --- after pipeline ---
def f(x):
    if False:
        v = None
    return x + v * 2
