# MUST NOT CHANGE: `x / 0.0` raises ZeroDivisionError on a Python float where a float64 array
# gives inf: a division of list elements by anything but a nonzero constant stays a loop.
def ratios(out, a, b):
    for i in range(len(a)):
        for j in range(len(b)):
            out[i][j] = (a[i] * a[i] + b[j]) / (a[i] - b[j])
# --- after vectorize_loops ---
def ratios(out, a, b):
    for i in range(len(a)):
        for j in range(len(b)):
            out[i][j] = (a[i] * a[i] + b[j]) / (a[i] - b[j])
