# MUST NOT CHANGE: a running maximum of float32 elements that starts as a Python float and is
# multiplied before any element replaces it: `m * 3.0` computes in double precision then, not
# as the float32 array would. The note says `m starts as a float, not a float32 scalar (a
# float computed with rounds apart)`.
def scaled_peaks(out: "float32[n]", x: "float32[n]"):
    m = 0.5
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
        out[i] = m * 3.0
# --- after vectorize_loops ---
def scaled_peaks(out: "float32[n]", x: "float32[n]"):
    m = 0.5
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
        out[i] = m * 3.0
