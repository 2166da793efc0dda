# MUST NOT CHANGE: a class whose `x` is a property (its getter runs on every read), one with
# `__slots__` (member descriptors take the stores), a method that does more than return a new
# object (it prints), a loop over what may not be a list (`enumerate`), and a body with a
# branch: each loop runs as written.
class Prop:
    def __init__(self, x, y):
        self.y = y
        self.z = x

    @property
    def x(self):
        return self.z

    def __add__(self, other):
        return Prop(self.x + other.x, self.y + other.y)


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Slotted(self.x + other.x, self.y + other.y)


class Loud:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        print("adding")
        return Loud(self.x + other.x, self.y + other.y)


class Vec2:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec2(self.x + other.x, self.y + other.y)


def f(props, slotted, loud):
    a = Prop(0.0, 0.0)
    for p in props:
        a = a + p
    b = Slotted(0.0, 0.0)
    for p in slotted:
        b = b + p
    c = Loud(0.0, 0.0)
    for p in loud:
        c = c + p
    d = Vec2(0.0, 0.0)
    for i, p in enumerate(props):
        d = d + p
    for p in props:
        if p.x < 0.0:
            d = d + p
    return a, b, c, d

# --- after unbox_objects ---
def f(props, slotted, loud):
    a = Prop(0.0, 0.0)
    for p in props:
        a = a + p
    b = Slotted(0.0, 0.0)
    for p in slotted:
        b = b + p
    c = Loud(0.0, 0.0)
    for p in loud:
        c = c + p
    d = Vec2(0.0, 0.0)
    for i, p in enumerate(props):
        d = d + p
    for p in props:
        if p.x < 0.0:
            d = d + p
    return a, b, c, d
