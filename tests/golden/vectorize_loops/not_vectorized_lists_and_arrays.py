# MUST NOT CHANGE: an element of a float64 array is a NumPy scalar, which warns on overflow and
# follows the error state; a list's is a float, which never warns. A loop mixing the two is left
# alone.
def scale(out: "float64[n]", a, s: float):
    for i in range(len(out)):
        for j in range(len(a)):
            out[i] += a[j] * s
# --- after vectorize_loops ---
def scale(out: 'float64[n]', a, s: float):
    for i in range(len(out)):
        for j in range(len(a)):
            out[i] += a[j] * s
