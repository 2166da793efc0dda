# `m[i, j]` on an argument compiled for exactly the class `Matrix` calls `Matrix.__getitem__`:
# its body is inlined (the index display taken apart into the method's `i, j`), behind a check
# made where Python looks the method up. Code the compiler cannot see may assign `m.__class__`
# or rebind `Matrix.__getitem__`; then `m[i, j]` runs as written.
class Matrix:
    def __init__(self, rows, cols):
        self.cols = cols
        self.data = [0.0] * (rows * cols)

    def __getitem__(self, index):
        i, j = index
        return self.data[i * self.cols + j]


def f(m: Matrix, i, j):
    return m[i, j] + 1.0
# --- after inline_calls ---
def f(m: Matrix, i, j):
    return (m.data[i * m.cols + j] if type(m) is Matrix_2 and getattr(
        Matrix_2, '__getitem__', None) is getitem else m[i, j]) + 1.0
