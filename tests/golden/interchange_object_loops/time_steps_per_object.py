# interchange_object_loops runs every time step of one object before the next, its fields in
# locals: the body computes floats from the fields of `p` and from names the loops never assign,
# so each object goes through the same states in either order. Tested where the loops start:
# `range(steps)` of two turns or more, a list of one object or more, the class as compiled (no
# hook runs code on a field's read or store), every object exactly a Particle with float fields
# (a scan before the loops), `g` a float, the global `DT` still 0.01 (folded). `g * DT` is
# computed once. Otherwise the nest runs as written, over the same range.
DT = 0.01


class Particle:
    def __init__(self, x, y, vx, vy):
        self.x = x
        self.y = y
        self.vx = vx
        self.vy = vy


def f(start, steps, g):
    particles = [Particle(p.x, p.y, p.vx, p.vy) for p in start]
    for _ in range(steps):
        for p in particles:
            p.vy -= g * DT
            p.y += p.vy * DT
            if p.y < 0.0:
                p.y = -p.y
    return particles
# --- after interchange_object_loops ---
def f(start, steps, g):
    particles = [Particle(p.x, p.y, p.vx, p.vy) for p in start]
    t_steps = range(steps)
    Particle_dict = Particle_2.__dict__
    ok = False
    if type(t_steps) is range_2 and t_steps[1:] and type(particles
        ) is list and len(particles) >= 1 and (len(Particle_2.__mro__) == 2 and
        Particle_dict.get('__init__', notdefined) is init and Particle_dict
        .get('__dict__', notdefined) is dict and Particle_dict.get(
        '__new__', notdefined) is notdefined and Particle_dict.get(
        '__setattr__', notdefined) is notdefined and Particle_dict.get(
        '__getattribute__', notdefined) is notdefined and Particle_dict.get
        ('__getattr__', notdefined) is notdefined and Particle_dict.get(
        '__delattr__', notdefined) is notdefined and Particle_dict.get(
        '__del__', notdefined) is notdefined and Particle_dict.get('vy',
        notdefined) is notdefined and Particle_dict.get('y', notdefined) is
        notdefined) and type(g) is float and (type(dict_2.get('DT')) is
        float and dict_2.get('DT') == 0.01):
        ok = True
        for t_e in particles:
            if not (type(t_e) is Particle_2 and type(getattr(t_e, 'vy',
                None)) is float and type(getattr(t_e, 'y', None)) is float):
                ok = False
                break
    if ok:
        t_inv = g * 0.01
        for p in particles:
            p_vy = p.vy
            p_y = p.y
            for _ in t_steps:
                p_vy -= t_inv
                p_y += p_vy * 0.01
                if p_y < 0.0:
                    p_y = -p_y
            p.vy = p_vy
            p.y = p_y
    else:
        for _ in t_steps:
            for p in particles:
                p.vy -= g * DT
                p.y += p.vy * DT
                if p.y < 0.0:
                    p.y = -p.y
    return particles
