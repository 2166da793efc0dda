# MUST NOT CHANGE: without fastmath a sum into one float stays a loop: `np.sum` and `np.dot` add
# in another order, so they round differently (explain: "allowed with fastmath=True").
def dot(a: "float64[n]", b: "float64[n]"):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s
# --- after vectorize_loops ---
def dot(a: "float64[n]", b: "float64[n]"):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s
