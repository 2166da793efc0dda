# `m[i, j] = v` on an argument compiled for exactly the class `Matrix` calls
# `Matrix.__setitem__`: its body is inlined behind the check of `m`'s class and method, and the
# statement as written runs where the check fails. Python evaluates the value before it looks
# the method up, so a value that is not a local or a constant is computed first, into `t`.
class Matrix:
    def __init__(self, rows, cols):
        self.cols = cols
        self.data = [0.0] * (rows * cols)

    def __setitem__(self, index, value):
        i, j = index
        self.data[i * self.cols + j] = value


def f(m: Matrix, i, j, v):
    m[i, j] = v
    m[j, i] = v * 2.0
# --- after inline_calls ---
def f(m: Matrix, i, j, v):
    if type(m) is Matrix_2 and getattr(Matrix_2, '__setitem__', None
        ) is setitem:
        setitem_self = m
        setitem_i = i
        setitem_j = j
        setitem_value = v
        setitem_self.data[setitem_i * setitem_self.cols + setitem_j
            ] = setitem_value
    else:
        m[i, j] = v
    t = v * 2.0
    if type(m) is Matrix_2 and getattr(Matrix_2, '__setitem__', None
        ) is setitem:
        setitem_self_2 = m
        setitem_i_2 = j
        setitem_j_2 = i
        setitem_value_2 = t
        setitem_self_2.data[setitem_i_2 * setitem_self_2.cols + setitem_j_2
            ] = setitem_value_2
    else:
        m[j, i] = t
    t = None
