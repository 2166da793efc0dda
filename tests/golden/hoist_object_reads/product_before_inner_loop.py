# hoist_object_reads, then `index_products` in its copy: `i * a_cols` (an int, tested so: it is
# read in an index) times the outer loop's int index is the same on every turn of the loop over
# `j`, and the statement after that loop computes it anyway on every turn of `i`: it is
# computed once, before the inner loop, and both read it.
class Matrix:
    def __init__(self, rows, cols, data):
        self.rows = rows
        self.cols = cols
        self.data = data

    def __getitem__(self, index):
        i, j = index
        return self.data[i * self.cols + j]


def f(a: Matrix, x, n):
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += a[i, j] * x[j]
        x[i] = s / a[i, i]
    return x
# --- after pipeline ---
def f(a: Matrix, x, n):
    ok = False
    if type(a) is Matrix_2 and (len(Matrix_2.__mro__) == 2 and Matrix_2.
        __dict__.get('__dict__', notdefined) is dict and Matrix_2.__dict__.
        get('__getitem__', notdefined) is getitem and Matrix_2.__dict__.get
        ('__getattribute__', notdefined) is notdefined and Matrix_2.
        __dict__.get('cols', notdefined) is notdefined and Matrix_2.
        __dict__.get('data', notdefined) is notdefined) and type(a.__dict__
        ) is dict_2:
        a_cols = a.__dict__.get('cols')
        a_data = a.__dict__.get('data')
        if range is range_2 and type(a_cols) is int and type(a_data
            ) is list and (type(n) is float or type(n) is int) and type(x
            ) is list and len(a_data) + len(x) <= 1 * (n if type(n) is int else
            1) * (n if type(n) is int else 1):
            ok = True
            for t_v in a_data:
                if not (type(t_v) is float or type(t_v) is int):
                    ok = False
                    break
            for t_v in x:
                if not (type(t_v) is float or type(t_v) is int):
                    ok = False
                    break
    if ok:
        for i in range(n):
            s = 0.0
            t_p = i * a_cols
            for j in range(n):
                s += a_data[t_p + j] * x[j]
            x[i] = s / a_data[t_p + i]
    else:
        for i in range(n):
            s = 0.0
            for j in range(n):
                s += (a.data[i * a.cols + j] if type(a) is Matrix_2 and 
                    getattr(Matrix_2, '__getitem__', None) is getitem else
                    a[i, j]) * x[j]
            x[i] = s / (a.data[i * a.cols + i] if type(a) is Matrix_2 and 
                getattr(Matrix_2, '__getitem__', None) is getitem else a[i, i])
    return x
