# A test that is a constant keeps only the branch that runs: `while False` runs its else,
# `for` over an empty tuple runs its else, and nothing runs after a return.
def f(x):
    debug = False
    if debug:
        print('debug', x)
    while False:
        x = 0
    else:
        x = x + 1
    for v in ():
        x = v
    else:
        x = -x
    return x
    print('never')
# --- after propagate ---
def f(x):
    debug = False
    x = x + 1
    x = -x
    return x
