# unbox_objects keeps the fields of a value class's objects in locals in a loop that adds and
# scales them: `Vec2.__init__` only stores its parameters, `__add__`/`__mul__` return `Vec2(...)`
# of field arithmetic, so `acc = acc + p * w` is `acc_x, acc_y = acc_x + p_x * w, ...`, the same
# float operations in the same order. Tested on entry: the class as compiled (its methods,
# object's __new__/__setattr__/__getattribute__, no __getattr__/__del__/class attribute `x`),
# `zip` the builtin over lists, `acc` exactly a Vec2 with float fields, `total` a float; tested
# per element: exactly a Vec2 with float fields, a float weight. An element that fails makes
# `acc` an object again and the loop as written runs from there.
class Vec2:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec2(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec2(self.x * k, self.y * k)


def f(points, weights):
    acc = Vec2(0.0, 0.0)
    total = 0.0
    for p, w in zip(points, weights):
        acc = acc + p * w
        total += w
    return acc.x / total, acc.y / total
# --- after unbox_objects ---
def f(points, weights):
    acc = Vec2(0.0, 0.0)
    total = 0.0
    t_zip = zip
    t_it = iter(t_zip(points, weights))
    Vec2_dict = Vec2_2.__dict__
    if t_zip is zip_2 and type(points) is list and type(weights) is list and (
        len(Vec2_2.__mro__) == 2 and Vec2_dict.get('__init__', notdefined) is
        init and Vec2_dict.get('__dict__', notdefined) is dict and 
        Vec2_dict.get('__add__', notdefined) is add and Vec2_dict.get(
        '__mul__', notdefined) is mul and Vec2_dict.get('__new__',
        notdefined) is notdefined and Vec2_dict.get('__setattr__',
        notdefined) is notdefined and Vec2_dict.get('__getattribute__',
        notdefined) is notdefined and Vec2_dict.get('__getattr__',
        notdefined) is notdefined and Vec2_dict.get('__delattr__',
        notdefined) is notdefined and Vec2_dict.get('__del__', notdefined) is
        notdefined and Vec2_dict.get('x', notdefined) is notdefined and 
        Vec2_dict.get('y', notdefined) is notdefined
        ) and Vec2 is Vec2_2 and type(acc) is Vec2_2 and type(acc.__dict__
        ) is dict_2 and type(acc.__dict__.get('x')) is float and type(acc.
        __dict__.get('y')) is float and type(total) is float:
        acc_x = acc.x
        acc_y = acc.y
        moved = False
        for p, w in t_it:
            if type(p) is Vec2_2 and type(w) is float:
                p_x = p.x
                p_y = p.y
                if type(p_x) is float and type(p_y) is float:
                    acc_x, acc_y = acc_x + p_x * w, acc_y + p_y * w
                    total += w
                    moved = True
                    continue
            if moved:
                acc = Vec2_2(acc_x, acc_y)
            acc = acc + p * w
            total += w
            break
        else:
            if moved:
                acc = Vec2_2(acc_x, acc_y)
    for p, w in t_it:
        acc = acc + p * w
        total += w
    return acc.x / total, acc.y / total
