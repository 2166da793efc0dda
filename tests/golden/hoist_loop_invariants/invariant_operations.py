# Operations on values the loop never changes, that cannot raise (ints with ints, floats with
# floats), are computed once before the loop: in a body, in a branch that may never run, in a
# while loop's test, and out of nested loops.
def f(xs, n: int, k: int, dt: float, m: float, flag):
    out = []
    i = 0
    while i < n * k + 1:
        i += 1
    for x in xs:
        if flag:
            out.append(x * (dt * m - dt))
        for j in range(n):
            out.append(j < n - k)
    return out, i
# --- after hoist_loop_invariants ---
def f(xs, n: int, k: int, dt: float, m: float, flag):
    out = []
    i = 0
    t = n * k + 1
    while i < t:
        i += 1
    t_2 = dt * m - dt
    t_3 = n - k
    for x in xs:
        if flag:
            out.append(x * t_2)
        for j in range(n):
            out.append(j < t_3)
    return out, i
