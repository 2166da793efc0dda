"""interchange_object_loops: time steps over a list of objects run per object, its fields in
locals (passes/interchange_object_loops.py), behind tests of the range, the list, the class
and the floats; each condition checked against the original with the oracle."""

from __future__ import annotations

import random
import textwrap
import types
from typing import Callable

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

Make = Callable[[str], types.ModuleType]

PARTICLES = """
    DT = 0.01


    class Particle:
        def __init__(self, x, y, vx, vy):
            self.x = x
            self.y = y
            self.vx = vx
            self.vy = vy


    def bounce(particles0, steps, gravity, restitution):
        particles = [Particle(p.x, p.y, p.vx, p.vy) for p in particles0]
        for _ in range(steps):
            for p in particles:
                p.vy -= gravity * DT
                p.x += p.vx * DT
                p.y += p.vy * DT
                if p.y < 0.0:
                    p.y = -p.y
                    p.vy = -p.vy * restitution
        return [(p.x, p.y, p.vx, p.vy) for p in particles]


    def drift(particles0, steps, k):
        particles = [Particle(q.x, q.y, q.vx, q.vy) for q in particles0]
        for step in range(steps):
            for p in particles:
                speed = p.vx * k
                p.x = p.x + speed
        return [(p.x, p.vx) for p in particles], speed, step, p is particles[-1]
"""


def _particles(module: types.ModuleType, n: int, seed: int = 3) -> list[object]:
    rng = random.Random(seed)
    return [module.Particle(rng.uniform(0, 10), rng.uniform(0, 1), rng.uniform(-1, 1),
                            rng.uniform(-5, 0)) for _ in range(n)]


def test_never_slower_each_object_stepped_at_once_in_locals(make_module: Make) -> None:
    module = make_module(PARTICLES)
    compiled = sc.symbolic(module.bounce)
    args = (_particles(module, 20), 30, 9.81, 0.8)
    assert compiled(*args) == module.bounce(*args)
    source = sc.source(compiled, *args)
    assert "p_vy -= t_inv" in source and "p_y += p_vy * 0.01" in source
    assert "interchange" in str(sc.explain(compiled, *args))
    assert_equivalent(module.bounce, compiled, args)


def test_never_a_wrong_answer_odd_objects_and_counts_run_as_written(make_module: Make) -> None:
    module = make_module(PARTICLES + """
    class Heavy(Particle):
        pass
    """)
    compiled = sc.symbolic(module.bounce)
    compiled(_particles(module, 3), 3, 9.81, 0.8)
    for steps in (0, 1, 2):
        assert_equivalent(module.bounce, compiled, (_particles(module, 4), steps, 9.81, 0.8))
    assert_equivalent(module.bounce, compiled, ([], 5, 9.81, 0.8))
    for odd in (module.Particle(1, 2.0, 0.5, -1.0), module.Heavy(1.0, 2.0, 0.5, -1.0),
                module.Particle(1.0, 2.0, 0.5, 2 ** 80)):
        particles = _particles(module, 5)
        particles[3] = odd
        assert_equivalent(module.bounce, compiled, (particles, 6, 9.81, 0.8))
    for gravity in (9, True, 1e308):
        assert_equivalent(module.bounce, compiled, (_particles(module, 5), 6, gravity, 0.8))
    assert_equivalent(module.bounce, compiled, (_particles(module, 5), 6.0, 9.81, 0.8))


def test_never_a_wrong_answer_loop_names_and_temporaries_end_alike(make_module: Make) -> None:
    module = make_module(PARTICLES)
    compiled = sc.symbolic(module.drift)
    particles = _particles(module, 4)
    got = compiled(particles, 5, 0.5)
    assert "t_steps" in sc.source(compiled, particles, 5, 0.5)
    particles_again = _particles(module, 4)
    expected = module.drift(particles_again, 5, 0.5)
    assert got == expected and got[3] is True


def test_never_a_wrong_answer_an_object_listed_twice(make_module: Make) -> None:
    module = make_module(PARTICLES + """
    def twice(particles0, steps):
        particles = [Particle(q.x, q.y, q.vx, q.vy) for q in particles0]
        particles.append(particles[0])
        for _ in range(steps):
            for p in particles:
                p.x = p.x * 0.5 + p.vx
        return [p.x for p in particles]
    """)
    compiled = sc.symbolic(module.twice)
    args = (_particles(module, 3), 6)
    assert "t_steps" in sc.source(compiled, *args)
    assert_equivalent(module.twice, compiled, args)


CHANGES: dict[str, Callable[[types.ModuleType], None]] = {
    "DT": lambda module: setattr(module, "DT", 0.02),
    "DT int": lambda module: setattr(module, "DT", 1),
    "property": lambda module: setattr(module.Particle, "y", property(
        lambda self: 1.0, lambda self, value: None)),
    "__setattr__": lambda module: setattr(module.Particle, "__setattr__", lambda self, name, v: (
        object.__setattr__(self, name, v * 0.5))),
    "__getattribute__": lambda module: setattr(module.Particle, "__getattribute__",
                                               lambda self, name: 0.25),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_never_a_wrong_answer_changed_after_compiling(make_module: Make, change: str) -> None:
    module = make_module(PARTICLES)
    compiled = sc.symbolic(module.bounce)
    compiled(_particles(module, 3), 3, 9.81, 0.8)
    particles = _particles(module, 5)
    CHANGES[change](module)
    assert compiled(particles, 7, 9.81, 0.8) == module.bounce(particles, 7, 9.81, 0.8)


def test_never_a_wrong_answer_not_a_list_runs_as_written(make_module: Make) -> None:
    module = make_module(PARTICLES)
    compiled = sc.symbolic(module.drift)
    compiled(_particles(module, 3), 3, 0.5)
    assert_equivalent(module.drift, compiled, (tuple(_particles(module, 3)), 3, 0.5))
    assert_equivalent(module.drift, compiled, ([], 3, 0.5))  # UnboundLocalError, as written


def test_must_not_change_a_body_reading_other_objects_or_calling(make_module: Make) -> None:
    module = make_module(PARTICLES + """
    def pulled(particles, anchor, steps):
        for _ in range(steps):
            for p in particles:
                p.x += (anchor.x - p.x) * 0.5
        return particles


    def logged(particles, steps, log):
        for _ in range(steps):
            for p in particles:
                p.x += 1.0
                log(p)
        return particles
    """)
    for function, args in ((module.pulled, (_particles(module, 3), module.Particle(
            1.0, 1.0, 0.0, 0.0), 4)), (module.logged, (_particles(module, 3), 4, print))):
        compiled = sc.symbolic(function)
        if function is module.logged:
            args = (args[0], args[1], lambda p: None)
        compiled(*args)
        assert "t_steps" not in sc.source(compiled, *args)


_STEPS = (
    "p.x += p.vx * k", "p.vx -= p.x * 0.125", "p.x = p.x * 0.5 + p.vy", "p.vy = -p.vy * k",
    "p.vy += k * SCALE - p.x", "p.x *= 0.75",
    "if p.x < 0.0:\n                    p.x = -p.x\n                    p.vx = -p.vx * k",
    "if p.vy >= p.x:\n                    p.vy -= 1.0\n                else:\n"
    "                    p.vy += 2",
)


def _random_nest(rng: random.Random, number: int) -> str:
    body = rng.sample(_STEPS, rng.randint(1, 4))
    if rng.random() < 0.4:
        body.insert(0, "t = p.x * k + 1")
        body.append("p.vx = t - p.vx")
    lines = "\n".join(f"                {line}" for line in body)
    return f"""
    def nest_{number}(start, steps, k):
        ps = [Particle(q.x, q.y, q.vx, q.vy) for q in start]
        for _ in range(steps):
            for p in ps:
{lines}
        return [(p.x, p.y, p.vx, p.vy) for p in ps]
"""


def test_never_a_wrong_answer_random_time_step_nests(make_module: Make) -> None:
    rng = random.Random(5)
    module = make_module(PARTICLES + "\n    SCALE = 0.5\n" + "".join(
        _random_nest(rng, number) for number in range(20)))
    values = [1.5, -0.0, float("inf"), float("nan"), 3, 2 ** 70, 1e300]
    rewritten = 0
    for number in range(20):
        original = getattr(module, f"nest_{number}")
        compiled = sc.symbolic(original)
        for trial in range(4):
            particles = _particles(module, rng.randint(0, 5), seed=trial)
            if particles and trial >= 2:
                particles[rng.randrange(len(particles))].vx = rng.choice(values)
            k = rng.choice([0.5, -1.25, 2, 1e200]) if trial == 3 else 0.5
            assert_equivalent(original, compiled, (particles, rng.randint(0, 4), k))
        rewritten += "t_steps" in sc.source(compiled, _particles(module, 2), 3, 0.5)
    assert rewritten >= 15


def test_never_a_wrong_answer_the_range_is_not_measured_with_len(make_module: Make) -> None:
    module = make_module(PARTICLES + """
    def until_broken(particles0, steps):
        particles = [Particle(q.x, q.y, q.vx, q.vy) for q in particles0]
        for _ in range(steps):
            for p in particles:
                p.x += p.vx
        return [p.x for p in particles]
    """)
    compiled = sc.symbolic(module.until_broken)
    assert "t_steps" in sc.source(compiled, _particles(module, 2), 3)
    assert "len(t_steps)" not in sc.source(compiled, _particles(module, 2), 3)
    assert_equivalent(module.until_broken, compiled, (_particles(module, 2), 3))


HOOKS = {
    "__getattr__": "def __getattr__(self, name):\n    if name.startswith('__'):\n"
                   "        raise AttributeError(name)\n    return 0.0",
    "__slots__": "__slots__ = ('x', 'y', 'vx', 'vy')",
    "__setattr__": "def __setattr__(self, name, value):\n    object.__setattr__(self, name, value)",
    "property": "@property\ndef vy(self):\n    return self.__dict__['vy_']\n\n"
                "@vy.setter\ndef vy(self, value):\n    self.__dict__['vy_'] = value",
}


@pytest.mark.parametrize("hook", HOOKS, ids=list(HOOKS))
def test_must_not_change_classes_with_attribute_hooks(make_module: Make, hook: str) -> None:
    marker = "            self.vy = vy\n"
    assert marker in PARTICLES
    module = make_module(PARTICLES.replace(marker, marker + "\n" + textwrap.indent(
        HOOKS[hook], " " * 8) + "\n"))
    compiled = sc.symbolic(module.bounce)
    args = (_particles(module, 4), 5, 9.81, 0.8)
    assert "t_steps" not in sc.source(compiled, *args)
    assert compiled(*args) == module.bounce(*args)  # (the oracle cannot copy slotted objects)


GIVEN = """
    DT = 0.01


    class Particle:
        def __init__(self, y, vy):
            self.y = y
            self.vy = vy


    def fall(particles, steps, gravity):
        spare = Particle(0.0, 0.0)
        for _ in range(steps):
            for p in particles:
                p.vy -= gravity * DT
                p.y += p.vy * DT
        return [(p.y, p.vy) for p in particles], spare.y
"""


class LoudDict(dict):  # type: ignore[type-arg]
    """An object's own dict whose Python-level reads and writes log (attribute access does not
    call them: both versions read the fields alike)."""

    log: list[str] = []

    def get(self, key: object, default: object = None) -> object:
        LoudDict.log.append(f"get {key}")
        return super().get(key, default)

    def __getitem__(self, key: object) -> object:
        LoudDict.log.append(f"getitem {key}")
        return super().__getitem__(key)

    def __setitem__(self, key: object, value: object) -> None:
        LoudDict.log.append(f"setitem {key}")
        super().__setitem__(key, value)


def test_never_a_wrong_answer_fields_read_with_getattr(make_module: Make) -> None:
    """The scan reads each field with `getattr(p, f, None)`: an object lacking a field, one
    with a field of a float subclass, one whose own dict is a dict subclass (its `get` never
    runs: attribute access reads the dict directly, in the scan as in the loop) give the
    original's answers, exceptions and logs."""
    module = make_module(GIVEN)
    compiled = sc.symbolic(module.fall)

    def particles() -> list[object]:
        return [module.Particle(float(k), -0.5 * k) for k in range(4)]

    source = sc.source(compiled, particles(), 5, 9.81)
    assert "getattr(t_e, 'vy', None)" in " ".join(source.split()) and "t_e.__dict__" not in source
    for change in ("del p.vy", "p.y = Float(1.5)", "p.__dict__ = LoudDict(p.__dict__)",
                   "p.extra = 1"):
        results = []
        for function in (module.fall, compiled):
            group = particles()
            p = group[2]

            class Float(float):
                pass

            exec(change, {"p": p, "Float": Float, "LoudDict": LoudDict})
            LoudDict.log.clear()
            try:
                outcome = repr(function(group, 5, 9.81))
            except Exception as error:  # noqa: BLE001 - the outcome is compared
                outcome = f"{type(error).__name__}: {error}"
            results.append((outcome, list(LoudDict.log), [dict(q.__dict__) for q in group]))
        assert results[0] == results[1], change
