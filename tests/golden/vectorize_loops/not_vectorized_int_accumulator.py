# MUST NOT CHANGE: a running sum of int64 elements. The int64 scalars of the loop warn when
# they overflow and `np.add.accumulate` wraps silently, and a Python int accumulator would never
# wrap at all: integers stay a loop. The note says `accumulates integers x[i]: an accumulate
# wraps, int64 scalars warn`.
def running(out: "int64[n]", x: "int64[n]"):
    s = out[0]
    for i in range(len(x)):
        s = s + x[i]
        out[i] = s
# --- after vectorize_loops ---
def running(out: "int64[n]", x: "int64[n]"):
    s = out[0]
    for i in range(len(x)):
        s = s + x[i]
        out[i] = s
