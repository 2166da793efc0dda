# A closure is inlined too. The variables of its enclosing function are read from their own
# cells, which become free variables of the generated function (named after the call:
# `scale_k`), so a later change to them is seen, and an empty cell raises NameError as before.
def make_scaler(k):
    def scale(x):
        return x * k
    return scale


scale = make_scaler(3)


def f(x):
    return scale(x) + 1
# --- after inline_calls ---
def f(x):
    scale_x = x
    return scale_x * scale_k + 1
