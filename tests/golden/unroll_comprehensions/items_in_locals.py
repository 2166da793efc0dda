# unroll_comprehensions: where the comprehension's list is private (`d`: only its items are
# read, nobody else can reach it), the statements after it are copied into both branches, the
# display's values go to locals, and the reads `d[0]`, `d[1]` that follow read the locals, up
# to a statement that may change the list (here `d[0] = ...`).
def f(a, b, s):
    d = [a[k] - b[k] for k in range(2)]
    n = d[0] * d[0] + d[1] * d[1]
    d[0] = n * s
    return d[0] + d[1]
# --- after unroll_comprehensions ---
def f(a, b, s):
    if range is range_2:
        d_0, d_1 = a[0] - b[0], a[1] - b[1]
        d = [d_0, d_1]
        n = d_0 * d_0 + d_1 * d_1
        d[0] = n * s
        return d[0] + d[1]
    else:
        made = []
        for k_2 in range(2):
            made.append(a[k_2] - b[k_2])
        d = made
        n = d[0] * d[0] + d[1] * d[1]
        d[0] = n * s
        return d[0] + d[1]
