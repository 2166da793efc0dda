# MUST NOT CHANGE: each turn reads what the turn before wrote (`z[i + 1] = f(z[i])`): a
# recurrence, which slices would compute from the old values. The note says
# `loop-carried dependence: z[i + 1] reads z[i]`.
def orbit(z: "float64[n]", r: float):
    for i in range(len(z) - 1):
        z[i + 1] = r * z[i] * (1.0 - z[i])
# --- after vectorize_loops ---
def orbit(z: 'float64[n]', r: float):
    for i in range(len(z) - 1):
        z[i + 1] = r * z[i] * (1.0 - z[i])
