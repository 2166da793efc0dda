# unroll_comprehensions: `[E for k in range(3)]` is `E` with `k = 0`, `1`, `2` in turn, appended
# to a list nobody sees before it is complete: the display of those three values, while `range`
# is the builtin. Assigned, the comprehension as a loop otherwise (no comprehension left, whose
# names would be cells of the function on Python 3.11); inside an expression, as written.
def f(a, b):
    d = [a["pos"][k] - b["pos"][k] for k in range(3)]
    return d, len([a[k] * k for k in range(1, 3)])
# --- after unroll_comprehensions ---
def f(a, b):
    if range is range_2:
        d = [a['pos'][0] - b['pos'][0], a['pos'][1] - b['pos'][1], a['pos']
            [2] - b['pos'][2]]
    else:
        made = []
        for k_2 in range(3):
            made.append(a['pos'][k_2] - b['pos'][k_2])
        d = made
    return d, len([a[1] * 1, a[2] * 2] if range is range_2 else [(a[k] * k) for
        k in range(1, 3)])
