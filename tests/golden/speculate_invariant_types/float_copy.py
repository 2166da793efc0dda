# speculate_invariant_types gives a loop a copy behind `type(v) is float` tests of the locals
# it never changes and computes `+ - *` on (a known float or float constant as the other
# operand counts too), in the order the loop reads them: hoist_loop_invariants, next, computes
# those operations once before the copy. A `for` counts as well as a `while`.
def f(values, scale, shift: float, n: int):
    out = []
    for a in values:
        x = 1.0
        while x * x < a * 4.0:
            x = x + 1.0
        out.append(x)
    total = 0.0
    for k in range(n):
        total = total + k * (scale - shift)
    return out, total
# --- after speculate_invariant_types ---
def f(values, scale, shift: float, n: int):
    out = []
    for a in values:
        x = 1.0
        if type(a) is float_2:
            while x * x < a * 4.0:
                x = x + 1.0
        else:
            while x * x < a * 4.0:
                x = x + 1.0
        out.append(x)
    total = 0.0
    if type(scale) is float_2:
        for k in range(n):
            total = total + k * (scale - shift)
    else:
        for k in range(n):
            total = total + k * (scale - shift)
    return out, total
