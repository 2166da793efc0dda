# MUST NOT CHANGE: a body reading another object's field (`other.x`: its steps would see
# `other` at another time), one calling a function (it may look at any object), one reading the
# step (`t`), one storing a field of another object, and a loop over `range` of two arguments.
class Particle:
    def __init__(self, x, vx):
        self.x = x
        self.vx = vx


def f(start, steps, log):
    ps = [Particle(p.x, p.vx) for p in start]
    other = Particle(1.0, 2.0)
    for _ in range(steps):
        for p in ps:
            p.x += other.x * 0.5
    for _ in range(steps):
        for p in ps:
            p.x += 1.0
            log(p)
    for t in range(steps):
        for p in ps:
            p.x += t * 0.5
    for _ in range(steps):
        for p in ps:
            other.x = p.x
    for _ in range(1, steps):
        for p in ps:
            p.x += p.vx
    return ps
# --- after interchange_object_loops ---
def f(start, steps, log):
    ps = [Particle(p.x, p.vx) for p in start]
    other = Particle(1.0, 2.0)
    for _ in range(steps):
        for p in ps:
            p.x += other.x * 0.5
    for _ in range(steps):
        for p in ps:
            p.x += 1.0
            log(p)
    for t in range(steps):
        for p in ps:
            p.x += t * 0.5
    for _ in range(steps):
        for p in ps:
            other.x = p.x
    for _ in range(1, steps):
        for p in ps:
            p.x += p.vx
    return ps
