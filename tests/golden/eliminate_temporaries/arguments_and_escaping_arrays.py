# MUST NOT CHANGE: nothing is computed into an argument (`a` is the caller's), into an array that
# is returned or stored (`t`), or into one that has a view (`u[::2]` would see the change).
def f(a: "float64[n]", out: list):
    t = a * 2
    out.append(t)
    u = a * 3
    v = u[::2]
    return a + 1, t + 1, u + 1, v
# --- after eliminate_temporaries ---
def f(a: "float64[n]", out: list):
    t = a * 2
    out.append(t)
    u = a * 3
    v = u[::2]
    return a + 1, t + 1, u + 1, v
