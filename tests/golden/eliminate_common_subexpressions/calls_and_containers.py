# MUST NOT CHANGE: a call is never shared (`random.random()` gives a new number each time), nor
# an expression holding one, nor one building a container (`[0] * 3` is a new list each time).
import random

def f(x: float):
    r = random.random() + random.random()
    s = random.random() * x + random.random() * x
    lists = [0] * 3 + [0] * 3
    return r, s, lists
# --- after eliminate_common_subexpressions ---
def f(x: float):
    r = random.random() + random.random()
    s = random.random() * x + random.random() * x
    lists = [0] * 3 + [0] * 3
    return r, s, lists
