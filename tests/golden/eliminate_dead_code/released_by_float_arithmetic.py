# A dead `acc = 0.0` over a value that may have a finalizer (`x * x` of unknown type) goes where
# the next statement rebinds `acc` to `+ - *` of floats (`h` is known to be one): that runs no
# code and raises nothing, so the value replaced ends there with nothing observable between.
# Before a division (it may raise), an operation on a value of unknown type or a constant
# (`acc = 1.0` goes itself, so the value would end at the call after it), the dead store stays
# and releases the value where it did.
def f(values):
    out = []
    h = 0.5
    for x in values:
        acc = x * x
        out.append(acc)
        acc = 0.0
        acc = (0.0 * h + 1.5) * h - 0.25
        out.append(acc)
        acc = x * x
        out.append(acc)
        acc = 0.0
        acc = 1.0 / h
        out.append(acc)
        acc = x * x
        out.append(acc)
        acc = 0.0
        acc = h - x
        out.append(acc)
        acc = x * x
        out.append(acc)
        acc = 0.0
        acc = 1.0
        acc = len(out)
        out.append(acc)
    return out
# --- after eliminate_dead_code ---
def f(values):
    out = []
    h = 0.5
    for x in values:
        acc = x * x
        out.append(acc)
        acc = (0.0 * h + 1.5) * h - 0.25
        out.append(acc)
        acc = x * x
        out.append(acc)
        acc = 0.0
        acc = 1.0 / h
        out.append(acc)
        acc = x * x
        out.append(acc)
        acc = 0.0
        acc = h - x
        out.append(acc)
        acc = x * x
        out.append(acc)
        acc = 0.0
        acc = len(out)
        out.append(acc)
    return out
