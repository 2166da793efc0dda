# `pass` is not part of the IR: it disappears, and comes back only where Python needs a body.
def nothing(x):
    pass
    if x:
        pass
    else:
        x = 1
        pass
    return x
# --- after pipeline ---
def nothing(x):
    if x:
        pass
    else:
        x = 1
    return x
