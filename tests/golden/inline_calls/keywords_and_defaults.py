# Arguments are assigned in the order Python evaluates them (keywords in source order, not
# parameter order); a parameter left out takes the callee's own default object.
def poly(x, a, b=2.0, *, c=1.0):
    return (a * x + b) * x + c

def f(v, w):
    return poly(v, b=w, a=3.0)
# --- after inline_calls ---
def f(v, w):
    poly_x = v
    poly_b = w
    poly_a = 3.0
    poly_c = 1.0
    return (poly_a * poly_x + poly_b) * poly_x + poly_c
