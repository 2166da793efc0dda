# A function imported from another module (here tests/corpus.py) is inlined when every global
# it reads is fixed in its own module: a module (`math`), a function of NumPy, math or cmath,
# or a builtin (`len`, `range`). This module binds `math`, `len` and `range` to the same
# objects, so the inlined code reads them by name, and checks on entry that they still are
# (like the callee's own name); a name bound to something else here would be read as the
# callee's object, bound into the generated function.
import math
from tests.corpus import _hypot, _index_above

def f(x, y, xs):
    return _hypot(x, y) + _index_above(xs, x)
# --- after inline_calls ---
def f(x, y, xs):
    _hypot_a = x
    _hypot_b = y
    t = math.sqrt(_hypot_a * _hypot_a + _hypot_b * _hypot_b)
    if _index_above is index_above:
        _index_above_xs = xs
        _index_above_t = x
        _index_above_returned = False
        for _index_above_i in range(len(_index_above_xs)):
            if _index_above_xs[_index_above_i] > _index_above_t:
                _index_above_result = _index_above_i
                _index_above_returned = True
                break
        if not _index_above_returned:
            _index_above_result = -1
    else:
        _index_above_result = _index_above(xs, x)
    return t + _index_above_result
