# The textbook's symbolic program: fancy_func(1, 2, 3, 4) with every add inlined, the
# arguments propagated and the arithmetic folded, is the constant 10.
def add(a, b):
    return a + b

def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g

def main():
    return fancy_func(1, 2, 3, 4)
# --- after pipeline ---
def main():
    return 10
