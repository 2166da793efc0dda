# The whole pipeline on Newton's square roots: speculate_invariant_types gives the `while` a
# copy for a float `a` (the version relies on `tol` being a float, checked on entry), and
# hoist_loop_invariants computes `tol * a` once before the copy; other elements run the loop
# as written.
def f(values, tol: float):
    result = []
    for a in values:
        x = a if a > 1 else 1.0
        while abs(x * x - a) > tol * a:
            x = 0.5 * (x + a / x)
        result.append(x)
    return result
# --- after pipeline ---
def f(values, tol: float):
    result = []
    for a in values:
        x = a if a > 1 else 1.0
        if type(a) is float_2:
            t = tol * a
            while abs(x * x - a) > t:
                x = 0.5 * (x + a / x)
        else:
            while abs(x * x - a) > tol * a:
                x = 0.5 * (x + a / x)
        result.append(x)
    return result
