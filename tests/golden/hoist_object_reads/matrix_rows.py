# hoist_object_reads: inline_calls made `a[i, j]` the body of `Matrix.__getitem__` behind a
# method test where it runs; the loop nest computes only on numbers and lists of numbers, so
# it runs no code that could change `Matrix` or `a.data`: the tests run once and `a.data`,
# `a.cols` are read once, before it. Tested there: `a` exactly a Matrix whose own dict still
# holds `__getitem__` and nothing that runs code on an attribute read, the attributes a list
# and an int (`a.cols` is read in an index, which raises TypeError for any other number),
# `total` and `n` numbers, `range` the builtin, the list's items numbers (a scan, taken only
# where the lists hold no more items than the nest's turns). Else the nest as written. (`i *
# a_cols` stays in the inner loop: no statement after it computes the product anyway.)
class Matrix:
    def __init__(self, rows, cols, data):
        self.rows = rows
        self.cols = cols
        self.data = data

    def __getitem__(self, index):
        i, j = index
        return self.data[i * self.cols + j]


def f(a: Matrix, n):
    total = 0.0
    for i in range(n):
        for j in range(n):
            total += a[i, j] * 0.5
    return total
# --- after pipeline ---
def f(a: Matrix, n):
    total = 0.0
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
            ) is list and (type(n) is float or type(n) is int) and (type(
            total) is float or type(total) is int) and len(a_data) <= 1 * (n if
            type(n) is int else 1) * (n if type(n) is int else 1):
            ok = True
            for t_v in a_data:
                if not (type(t_v) is float or type(t_v) is int):
                    ok = False
                    break
    if ok:
        for i in range(n):
            for j in range(n):
                total += a_data[i * a_cols + j] * 0.5
    else:
        for i in range(n):
            for j in range(n):
                total += (a.data[i * a.cols + j] if type(a) is Matrix_2 and
                    getattr(Matrix_2, '__getitem__', None) is getitem else
                    a[i, j]) * 0.5
    return total
