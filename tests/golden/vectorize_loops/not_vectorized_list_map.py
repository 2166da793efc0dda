# MUST NOT CHANGE: a map over lists converts each list's element on every turn (~30 ns to check
# and copy one read, ~20 ns to store one back) to save a turn of ~45 ns: by the cost model the
# array code cannot pay, whatever the length, so the loop stays (measured: python -m
# benchmarks vectorize, `list map`).
def axpy(out, a, b, n: int):
    for i in range(n):
        out[i] = a[i] * 2.0 + b[i]
# --- after vectorize_loops ---
def axpy(out, a, b, n: int):
    for i in range(n):
        out[i] = a[i] * 2.0 + b[i]
