# MUST NOT CHANGE: mutable globals (a list), globals this function writes, names it binds
# itself, calls that are not pure (random), and a global read after a call of code the
# compiler cannot see (helper() might rebind LIMIT before it is read).
import random

WEIGHTS = [1.0, 2.0]
COUNT = 0
LIMIT = 10

def helper():
    return None

def f(x):
    global COUNT
    COUNT += 1
    abs = max
    y = random.random() + abs(-1, 2) + WEIGHTS[0]
    helper()
    return y + LIMIT
# --- after fold_constants ---
def f(x):
    global COUNT
    COUNT += 1
    abs = max
    y = random.random() + abs(-1, 2) + WEIGHTS[0]
    helper()
    return y + LIMIT
