# MUST NOT CHANGE: a function that looks at its own locals (locals(), vars(), eval) keeps
# every assignment, used or not.
def g(x):
    k = 5
    unused = x
    return sorted(locals())
# --- after eliminate_dead_code ---
def g(x):
    k = 5
    unused = x
    return sorted(locals())
