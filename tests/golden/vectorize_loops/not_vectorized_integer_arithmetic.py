# MUST NOT CHANGE: int64 arithmetic. A NumPy integer scalar warns when it overflows
# (`overflow encountered in scalar add`), an integer array wraps silently: the loop's warnings
# could not be kept.
def add(out: "int64[n]", a: "int64[n]", b: "int64[n]"):
    for i in range(len(a)):
        out[i] = a[i] + b[i]
# --- after vectorize_loops ---
def add(out: 'int64[n]', a: 'int64[n]', b: 'int64[n]'):
    for i in range(len(a)):
        out[i] = a[i] + b[i]
