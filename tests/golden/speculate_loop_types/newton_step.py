# The body of a loop over values of unknown type would simplify for floats (`1.0 * x` is x,
# `3` is 3.0), so the loop tests each element and the float copy gets simplified in the next
# round. The whole pipeline: compare with benchmarks/bench_loops.py newton_cbrt.
def f(values):
    out = []
    for a in values:
        x = a
        x = x - (1.0 * x * x * x - a) / (3 * (1.0 * x * x))
        out.append(x)
    return out
# --- after pipeline ---
def f(values):
    out = []
    for a in values:
        if type(a) is float:
            x = a
            t = a * a
            x = a - (t * a - a) / (3.0 * t)
            out.append(x)
        else:
            x = a
            x = a - (1.0 * a * a * a - a) / (3 * (1.0 * a * a))
            out.append(x)
    return out
