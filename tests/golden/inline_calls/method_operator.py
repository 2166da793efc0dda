# `a + b` on an argument compiled for exactly the class `Vec2` calls `Vec2.__add__`: its body
# is inlined behind a check of both operands' classes and the method, made where Python looks
# it up (a proper subclass of `Vec2` as `b`, whose `__radd__` Python would call first, fails
# it; a number as `b` needs no test). `__sub__` may return NotImplemented (then Python tries
# `b.__rsub__`): it runs as written; so does `__mul__`, whose body calls a constructor (one
# call saved does not pay for the check).
class Vec2:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return (self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec2(self.x * k, self.y * k)

    def __sub__(self, other):
        if not isinstance(other, Vec2):
            return NotImplemented
        return Vec2(self.x - other.x, self.y - other.y)


def f(a: Vec2, b: Vec2, k: float):
    c = a + b
    d = a * k
    return c, d.y, a - b
# --- after inline_calls ---
def f(a: Vec2, b: Vec2, k: float):
    c = (a.x + b.x, a.y + b.y) if type(a) is Vec2_2 and getattr(Vec2_2,
        '__add__', None) is add and type(b) is Vec2_2 else a + b
    d = a * k
    return c, d.y, a - b
