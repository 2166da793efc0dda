# MUST NOT CHANGE: a nest calling a function (`log(total)` may change `Matrix` or `a.data`)
# or reading a global keeps its method tests and attribute reads where they run.
class Matrix:
    def __init__(self, rows, cols, data):
        self.rows = rows
        self.cols = cols
        self.data = data

    def __getitem__(self, index):
        i, j = index
        return self.data[i * self.cols + j]


SCALE = [0.5]


def f(a: Matrix, n, log):
    total = 0.0
    for i in range(n):
        for j in range(n):
            total += a[i, j]
            log(total)
    for i in range(n):
        total += a[i, i] * SCALE[0]
    return total
# --- after pipeline ---
def f(a: Matrix, n, log):
    total = 0.0
    for i in range(n):
        for j in range(n):
            total += a.data[i * a.cols + j] if type(a
                ) is Matrix_2 and Matrix_2.__getitem__ is getitem else a[i, j]
            log(total)
    for i in range(n):
        total += (a.data[i * a.cols + i] if type(a) is Matrix_2 and 
            Matrix_2.__getitem__ is getitem else a[i, i]) * SCALE[0]
    return total
