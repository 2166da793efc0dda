# MUST NOT CHANGE: a counter read inside the loop (each test depends on the count so far), a
# float counter (rounding: `1e16 + 1.0`), an increment that is not an int constant, and an
# elif whose branch writes another element (`out[i + 1]`: written by two iterations).
def f(a: "float64[n]", out: "float64[n]", k: int):
    count = 0
    for i in range(len(a)):
        if a[i] > count:
            count += 1
    total = 0.0
    for i in range(len(a)):
        if a[i] > 0.0:
            total += 1.0
    some = 0
    for i in range(len(a)):
        if a[i] > 0.0:
            some += k
    for i in range(len(out) - 1):
        if out[i] > 1.0:
            out[i] = 1.0
        elif out[i] < 0.0:
            out[i + 1] = 0.0
    return count, total, some
# --- after vectorize_loops ---
def f(a: 'float64[n]', out: 'float64[n]', k: int):
    count = 0
    for i in range(len(a)):
        if a[i] > count:
            count += 1
    total = 0.0
    for i in range(len(a)):
        if a[i] > 0.0:
            total += 1.0
    some = 0
    for i in range(len(a)):
        if a[i] > 0.0:
            some += k
    for i in range(len(out) - 1):
        if out[i] > 1.0:
            out[i] = 1.0
        elif out[i] < 0.0:
            out[i + 1] = 0.0
    return count, total, some
