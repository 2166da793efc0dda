# One Newton step for a cube root, as the pipeline leaves it after inlining and unrolling:
# `1.0 * x * x` is `(1.0 * x) * x`, evaluated twice with the same x, and both times an operand
# of another operator. It is computed once, just before the statement; `1.0 * x` inside it is
# not shared on its own (the largest repeat wins, and then it occurs once).
def step(x: float, a: float):
    x = x - (1.0 * x * x * x - a) / (3 * (1.0 * x * x))
    return x
# --- after eliminate_common_subexpressions ---
def step(x: float, a: float):
    t = 1.0 * x * x
    x = x - (t * x - a) / (3 * t)
    return x
