# Constants keep their type and bits: 1 + True is the int 2, 1.0 * 1 the float 1.0, and
# -0.0 + 0.0 is +0.0 while -0.0 * 1 stays -0.0.
def f():
    return 1 + True, 1.0 * 1, -0.0 + 0.0, -0.0 * 1, 2 ** -1, 3 / 1
# --- after fold_constants ---
def f():
    return 2, 1.0, 0.0, -0.0, 0.5, 3.0
