# Structured control flow: if/elif/else, for and while with break, continue and else.
def search(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            break
        elif x < 0:
            continue
        else:
            pass
    else:
        i = -1
    while i > 10:
        i -= 1
    else:
        i += 0
    return i
# --- after pipeline ---
def search(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            break
        elif x < 0:
            continue
    else:
        i = -1
    while i > 10:
        i -= 1
    else:
        i += 0
    return i
