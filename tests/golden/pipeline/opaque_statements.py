# Statements the compiler does not model (try, with, nested def, import, del, assert, global)
# are kept exactly as written: opaque barriers, never errors.
def guarded(path, x):
    import math
    global calls
    assert x >= 0, "negative"
    try:
        with open(path) as handle:
            data = handle.read()
    except OSError:
        data = ""
    def helper(y):
        return math.sqrt(y)
    del path
    return data, helper(x)
# --- after pipeline ---
def guarded(path, x):
    global calls
    import math
    assert x >= 0, 'negative'
    try:
        with open(path) as handle:
            data = handle.read()
    except OSError:
        data = ''

    def helper(y):
        return math.sqrt(y)
    del path
    return data, helper(x)
