"""Real-code kernels: loops over lists of objects and dicts, and a small user matrix class.

Each kernel is written as it is found in simulation scripts and teaching code; ``*_hand`` is
its best bit-identical rewrite (same floating-point operations in the same order).
"""

from __future__ import annotations

import math
import random

from benchmarks.real import OBJECTS, Kernel, all_of_type

SEED = 2222
DT = 0.01


class Body:
    """A point mass with position, velocity and mass attributes."""

    def __init__(self, x, y, z, vx, vy, vz, mass):
        self.x = x
        self.y = y
        self.z = z
        self.vx = vx
        self.vy = vy
        self.vz = vz
        self.mass = mass


def nbody_objects(bodies0, steps):
    """N-body steps over a list of Body objects, attribute reads and writes in the pair loop."""
    bodies = [Body(b.x, b.y, b.z, b.vx, b.vy, b.vz, b.mass) for b in bodies0]
    n = len(bodies)
    for _ in range(steps):
        for i in range(n):
            bi = bodies[i]
            for j in range(i + 1, n):
                bj = bodies[j]
                dx = bi.x - bj.x
                dy = bi.y - bj.y
                dz = bi.z - bj.z
                d2 = dx * dx + dy * dy + dz * dz
                mag = DT / (d2 * math.sqrt(d2))
                bi.vx -= dx * bj.mass * mag
                bi.vy -= dy * bj.mass * mag
                bi.vz -= dz * bj.mass * mag
                bj.vx += dx * bi.mass * mag
                bj.vy += dy * bi.mass * mag
                bj.vz += dz * bi.mass * mag
        for b in bodies:
            b.x += DT * b.vx
            b.y += DT * b.vy
            b.z += DT * b.vz
    return bodies


def nbody_objects_hand(bodies0, steps):
    sqrt = math.sqrt
    bodies = [Body(b.x, b.y, b.z, b.vx, b.vy, b.vz, b.mass) for b in bodies0]
    n = len(bodies)
    for _ in range(steps):
        for i in range(n):
            bi = bodies[i]
            xi = bi.x
            yi = bi.y
            zi = bi.z
            mi = bi.mass
            vxi = bi.vx
            vyi = bi.vy
            vzi = bi.vz
            for j in range(i + 1, n):
                bj = bodies[j]
                dx = xi - bj.x
                dy = yi - bj.y
                dz = zi - bj.z
                d2 = dx * dx + dy * dy + dz * dz
                mag = 0.01 / (d2 * sqrt(d2))
                mj = bj.mass
                vxi -= dx * mj * mag
                vyi -= dy * mj * mag
                vzi -= dz * mj * mag
                bj.vx += dx * mi * mag
                bj.vy += dy * mi * mag
                bj.vz += dz * mi * mag
            bi.vx = vxi
            bi.vy = vyi
            bi.vz = vzi
        for b in bodies:
            b.x += 0.01 * b.vx
            b.y += 0.01 * b.vy
            b.z += 0.01 * b.vz
    return bodies


def nbody_dicts(bodies0, steps):
    """N-body steps on bodies stored as dicts of lists ({"pos": [...], "vel": [...], "m": m})."""
    bodies = [{"pos": list(b["pos"]), "vel": list(b["vel"]), "m": b["m"]} for b in bodies0]
    for _ in range(steps):
        for i, a in enumerate(bodies):
            for b in bodies[i + 1:]:
                d = [a["pos"][k] - b["pos"][k] for k in range(3)]
                d2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2
                mag = DT / (d2 * math.sqrt(d2))
                for k in range(3):
                    a["vel"][k] -= d[k] * b["m"] * mag
                    b["vel"][k] += d[k] * a["m"] * mag
        for body in bodies:
            for k in range(3):
                body["pos"][k] += DT * body["vel"][k]
    return bodies


def nbody_dicts_hand(bodies0, steps):
    sqrt = math.sqrt
    bodies = [{"pos": list(b["pos"]), "vel": list(b["vel"]), "m": b["m"]} for b in bodies0]
    parts = [(b["pos"], b["vel"], b["m"]) for b in bodies]
    n = len(parts)
    for _ in range(steps):
        for i in range(n):
            pa, va, ma = parts[i]
            for j in range(i + 1, n):
                pb, vb, mb = parts[j]
                d0 = pa[0] - pb[0]
                d1 = pa[1] - pb[1]
                d2_ = pa[2] - pb[2]
                d2 = d0 ** 2 + d1 ** 2 + d2_ ** 2
                mag = 0.01 / (d2 * sqrt(d2))
                va[0] -= d0 * mb * mag
                vb[0] += d0 * ma * mag
                va[1] -= d1 * mb * mag
                vb[1] += d1 * ma * mag
                va[2] -= d2_ * mb * mag
                vb[2] += d2_ * ma * mag
        for pos, vel, _m in parts:
            pos[0] += 0.01 * vel[0]
            pos[1] += 0.01 * vel[1]
            pos[2] += 0.01 * vel[2]
    return bodies


class Matrix:
    """A dense matrix on a flat list, indexed m[i, j] through __getitem__/__setitem__."""

    def __init__(self, rows, cols, data=None):
        self.rows = rows
        self.cols = cols
        self.data = list(data) if data is not None else [0.0] * (rows * cols)

    def __getitem__(self, index):
        i, j = index
        return self.data[i * self.cols + j]

    def __setitem__(self, index, value):
        i, j = index
        self.data[i * self.cols + j] = value


def sor_solve(a, b, omega, sweeps):
    """Successive over-relaxation for A x = b with A a user Matrix class, x a list."""
    n = a.rows
    x = [0.0] * n
    for _ in range(sweeps):
        for i in range(n):
            s = b[i]
            for j in range(n):
                if j != i:
                    s -= a[i, j] * x[j]
            x[i] = (1.0 - omega) * x[i] + omega * s / a[i, i]
    return x


def sor_solve_hand(a, b, omega, sweeps):
    # a's data and cols are read once, where Matrix.__getitem__ reads them at every item: exact
    # only where no code of the items runs (a Matrix itself, its data, b and omega floats)
    if type(a) is not Matrix or type(a.data) is not list or not all_of_type(a.data, float) \
            or type(b) is not list or not all_of_type(b, float) or type(omega) is not float:
        return sor_solve(a, b, omega, sweeps)
    n = a.rows
    data = a.data
    cols = a.cols
    x = [0.0] * n
    for _ in range(sweeps):
        for i in range(n):
            s = b[i]
            base = i * cols
            for j in range(n):
                if j != i:
                    s -= data[base + j] * x[j]
            x[i] = (1.0 - omega) * x[i] + omega * s / data[base + i]
    return x


class Particle:
    """A bouncing particle."""

    def __init__(self, x, y, vx, vy):
        self.x = x
        self.y = y
        self.vx = vx
        self.vy = vy


def bounce_particles(particles0, steps, gravity, restitution):
    """Explicit Euler steps of particles falling and bouncing off the floor (if in the loop)."""
    particles = [Particle(p.x, p.y, p.vx, p.vy) for p in particles0]
    for _ in range(steps):
        for p in particles:
            p.vy -= gravity * DT
            p.x += p.vx * DT
            p.y += p.vy * DT
            if p.y < 0.0:
                p.y = -p.y
                p.vy = -p.vy * restitution
    return [(p.x, p.y) for p in particles]


def bounce_particles_hand(particles0, steps, gravity, restitution):
    # each particle's steps in turn, its fields in locals, where the loop steps every particle
    # once a step: exact only where no code of the fields runs (gravity, restitution and every
    # field a float), tested after the fields are read as the original reads them (in order,
    # once); else the loop as written runs on particles made from what was read
    fields = [(p.x, p.y, p.vx, p.vy) for p in particles0]
    if type(gravity) is not float or type(restitution) is not float or type(DT) is not float \
            or not all(all_of_type(f, float) for f in fields):
        particles = [Particle(*f) for f in fields]
        for _ in range(steps):
            for p in particles:
                p.vy -= gravity * DT
                p.x += p.vx * DT
                p.y += p.vy * DT
                if p.y < 0.0:
                    p.y = -p.y
                    p.vy = -p.vy * restitution
        return [(p.x, p.y) for p in particles]
    g_dt = gravity * DT
    dt = DT
    turns = range(steps)
    out = []
    for x, y, vx, vy in fields:
        for _ in turns:
            vy -= g_dt
            x += vx * dt
            y += vy * dt
            if y < 0.0:
                y = -y
                vy = -vy * restitution
        out.append((x, y))
    return out


class Vec2:
    """A 2-D vector with operator methods."""

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec2(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec2(self.x * k, self.y * k)


def weighted_centroid(points, weights):
    """A weighted centroid summing Vec2 objects with their operator methods."""
    acc = Vec2(0.0, 0.0)
    total = 0.0
    for p, w in zip(points, weights):
        acc = acc + p * w
        total += w
    return acc.x / total, acc.y / total


def weighted_centroid_hand(points, weights):
    # the fields are summed in locals only while a point is a Vec2 with float fields and its
    # weight a float (then Vec2's methods compute acc.x + p.x * w, acc.y + p.y * w and run no
    # other code); from the first other pair on, the loop as written goes on
    ax = 0.0
    ay = 0.0
    total = 0.0
    pairs = zip(points, weights)
    for p, w in pairs:
        if type(p) is Vec2 and type(w) is float:
            px = p.x
            py = p.y
            if type(px) is float and type(py) is float:
                ax = ax + px * w
                ay = ay + py * w
                total += w
                continue
        acc = Vec2(ax, ay) + p * w
        total += w
        for p, w in pairs:
            acc = acc + p * w
            total += w
        return acc.x / total, acc.y / total
    return ax / total, ay / total


def shoelace_area(polygon):
    """Area of a polygon given as a list of Vec2 vertices (shoelace formula)."""
    area = 0.0
    n = len(polygon)
    for i in range(n):
        j = (i + 1) % n
        area += polygon[i].x * polygon[j].y
        area -= polygon[j].x * polygon[i].y
    return abs(area) / 2.0


def shoelace_area_hand(polygon):
    # reading the coordinates once each (two lists) is exact only for a list of Vec2 themselves
    # with float fields (the loop reads each twice, in another order, and its arithmetic may run
    # code of theirs); testing that costs more than the lists save (0.92x of the loop): no
    # exact rewrite pays
    area = 0.0
    n = len(polygon)
    for i in range(n):
        j = (i + 1) % n
        area += polygon[i].x * polygon[j].y
        area -= polygon[j].x * polygon[i].y
    return abs(area) / 2.0


def portfolio_totals(positions):
    """Total value and per-sector exposure of positions stored as a list of dicts."""
    total = 0.0
    by_sector = {}
    for pos in positions:
        value = pos["price"] * pos["qty"] - pos["fee"]
        total += value
        by_sector[pos["sector"]] = by_sector.get(pos["sector"], 0.0) + value
    for sector in by_sector:
        by_sector[sector] = by_sector[sector] / total
    return total, by_sector


def portfolio_totals_hand(positions):
    # pos["sector"] is read twice: once would need pos a dict, value a float and every key a
    # str (user code runs between the reads otherwise), and those tests cost more (0.8x) than
    # the read saves; the loop over the sectors is 5 turns. No exact rewrite pays.
    total = 0.0
    by_sector = {}
    for pos in positions:
        value = pos["price"] * pos["qty"] - pos["fee"]
        total += value
        by_sector[pos["sector"]] = by_sector.get(pos["sector"], 0.0) + value
    for sector in by_sector:
        by_sector[sector] = by_sector[sector] / total
    return total, by_sector


def spring_force(k, stretch):
    return -k * stretch


def spring_chain(xs0, vs0, k, steps):
    """Masses on a chain of springs, lists of positions and velocities and a force helper."""
    xs = list(xs0)
    vs = list(vs0)
    n = len(xs)
    for _ in range(steps):
        forces = [0.0] * n
        for i in range(n - 1):
            f = spring_force(k, xs[i + 1] - xs[i] - 1.0)
            forces[i] -= f
            forces[i + 1] += f
        for i in range(n):
            vs[i] += forces[i] * DT
            xs[i] += vs[i] * DT
    return xs, vs


def spring_chain_hand(xs0, vs0, k, steps):
    if type(k) is not float:  # -k once is the same as -k per call only for a float
        return spring_chain(xs0, vs0, k, steps)
    xs = list(xs0)
    vs = list(vs0)
    n = len(xs)
    minus_k = -k
    for _ in range(steps):
        forces = [0.0] * n
        for i in range(n - 1):
            f = minus_k * (xs[i + 1] - xs[i] - 1.0)
            forces[i] -= f
            forces[i + 1] += f
        for i in range(n):
            v = vs[i]
            v += forces[i] * DT
            vs[i] = v
            xs[i] += v * DT
    return xs, vs


def _args_bodies(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED)
    bodies = [Body(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-5, 5),
                   rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1),
                   rng.uniform(0.5, 2.0)) for _ in range(3 if small else 8)]
    return bodies, 2 if small else 40


def _args_body_dicts(small: bool) -> tuple[object, ...]:
    bodies, steps = _args_bodies(small)
    assert isinstance(bodies, list)
    return [{"pos": [b.x, b.y, b.z], "vel": [b.vx, b.vy, b.vz], "m": b.mass}
            for b in bodies], steps


def _args_sor(small: bool) -> tuple[object, ...]:
    n = 4 if small else 24
    rng = random.Random(SEED + 1)
    a = Matrix(n, n)
    for i in range(n):
        for j in range(n):
            a[i, j] = rng.uniform(-1.0, 1.0) + (2.0 * n if i == j else 0.0)
    return a, [rng.uniform(-1, 1) for _ in range(n)], 1.25, 2 if small else 6


def _args_particles(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED + 2)
    particles = [Particle(rng.uniform(0, 10), rng.uniform(0, 10), rng.uniform(-1, 1), 0.0)
                 for _ in range(5 if small else 100)]
    return particles, 5 if small else 40, 9.81, 0.8


def _args_centroid(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED + 3)
    n = 10 if small else 3000
    return ([Vec2(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(n)],
            [rng.uniform(0.1, 1.0) for _ in range(n)])


def _args_polygon(small: bool) -> tuple[object, ...]:
    n = 7 if small else 5000
    return ([Vec2(math.cos(2 * math.pi * k / n) * (1 + 0.1 * (k % 3)),
                  math.sin(2 * math.pi * k / n)) for k in range(n)],)


def _args_portfolio(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED + 4)
    sectors = ["tech", "energy", "health", "banks", "retail"]
    return ([{"sector": rng.choice(sectors), "price": rng.uniform(5, 500),
              "qty": rng.randint(1, 1000), "fee": rng.uniform(0, 10)}
             for _ in range(10 if small else 5000)],)


def _args_springs(small: bool) -> tuple[object, ...]:
    n = 5 if small else 60
    rng = random.Random(SEED + 5)
    return ([i * 1.0 + rng.uniform(-0.1, 0.1) for i in range(n)], [0.0] * n, 4.0,
            3 if small else 20)


KERNELS: tuple[Kernel, ...] = (
    Kernel("nbody_objects", OBJECTS, nbody_objects, _args_bodies, nbody_objects_hand),
    Kernel("nbody_dicts", OBJECTS, nbody_dicts, _args_body_dicts, nbody_dicts_hand),
    Kernel("sor_matrix_class", OBJECTS, sor_solve, _args_sor, sor_solve_hand),
    Kernel("bounce_particles", OBJECTS, bounce_particles, _args_particles,
           bounce_particles_hand),
    Kernel("vec2_centroid", OBJECTS, weighted_centroid, _args_centroid, weighted_centroid_hand),
    Kernel("shoelace_area", OBJECTS, shoelace_area, _args_polygon, shoelace_area_hand),
    Kernel("portfolio_dicts", OBJECTS, portfolio_totals, _args_portfolio,
           portfolio_totals_hand),
    Kernel("spring_chain", OBJECTS, spring_chain, _args_springs, spring_chain_hand),
)
