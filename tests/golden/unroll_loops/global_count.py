# A loop count held by a global is read at compile time (the global is then checked on
# every call, like any folded global); the loop is unrolled.
STEPS = 2

def f(x):
    for _ in range(STEPS):
        x = x * x
    return x
# --- after unroll_loops ---
def f(x):
    _ = 0
    x = x * x
    _ = 1
    x = x * x
    return x
