# Loops over range of constants and over displays of constants are repeated, each copy after the
# assignment the loop would make; the else clause follows (a loop without break runs it).
def f(x):
    s = 0.0
    for i in range(2):
        s = s + x * i
    for c in (0.5, 1.5):
        s = s * c
    else:
        s = -s
    return s
# --- after unroll_loops ---
def f(x):
    s = 0.0
    i = 0
    s = s + x * i
    i = 1
    s = s + x * i
    for c in (0.5, 1.5):
        s = s * c
    else:
        s = -s
    return s
