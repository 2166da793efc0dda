"""Real-code kernels: tiny helpers, ``math`` calls, functional idioms, strings and dicts.

The tiny helpers take ~100-300 ns a call: there an entry check that costs 30 ns is a 10-20%
loss. The ``calls`` kernels call ``math.cos``/``sin`` of loop-invariant values, use
``functools.reduce(lambda ...)``, ``map``/``filter`` with lambdas and ``sum`` of generators.
The ``text`` kernels format numbers into strings and count into dicts. ``*_hand`` is the best
bit-identical rewrite.
"""

from __future__ import annotations

import functools
import math
import random

from benchmarks.real import CALLS, TEXT, TINY, Kernel

SEED = 5555


def _floats(seed: int, n: int, low: float = -1.0, high: float = 1.0) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(low, high) for _ in range(n)]


# ---------------------------------------------------------------- tiny helpers


def cantor_weight(i, j):
    """The issue's ~150 ns helper: 1 / (Cantor pairing index + 1) of two ints (spectral norm)."""
    return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1)


def cantor_weight_hand(i, j):
    s = i + j
    return 1.0 / (s * (s + 1) / 2 + i + 1)


def fahrenheit(c):
    """Convert a Celsius temperature to Fahrenheit."""
    return c * 9.0 / 5.0 + 32.0


def fahrenheit_hand(c):
    # c * 9.0 / 5.0 is not c * 1.8 (two roundings), and c may be anything: no exact rewrite
    return c * 9.0 / 5.0 + 32.0


def clamp(x, lo, hi):
    """Clamp a value into [lo, hi] with conditional expressions."""
    return lo if x < lo else hi if x > hi else x


def clamp_hand(x, lo, hi):
    # each comparison runs once and only when the original runs it: nothing to remove
    return lo if x < lo else hi if x > hi else x


def distance(x1, y1, x2, y2):
    """The distance between two points with ** 2 and math.sqrt."""
    return math.sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2)


def distance_hand(x1, y1, x2, y2):
    # d ** 2 is not d * d for every type, and pow() may round differently: only math.sqrt
    # looked up once, at import
    return _sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2)


_sqrt = math.sqrt


def smoothstep(edge0, edge1, x):
    """The graphics smoothstep: clamp the normalized position, then 3t^2 - 2t^3."""
    t = (x - edge0) / (edge1 - edge0)
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return t * t * (3.0 - 2.0 * t)


def smoothstep_hand(edge0, edge1, x):
    # every operation is needed once, in this order, for any type: no exact rewrite
    t = (x - edge0) / (edge1 - edge0)
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return t * t * (3.0 - 2.0 * t)


def compound(principal, rate, years, per_year):
    """Compound interest with a power and a rounding to cents."""
    return round(principal * (1 + rate / per_year) ** (per_year * years), 2)


def compound_hand(principal, rate, years, per_year):
    # one use of each value: no exact rewrite
    return round(principal * (1 + rate / per_year) ** (per_year * years), 2)


# ---------------------------------------------------------------- math calls, functional idioms


def rotate_points(xs, ys, theta):
    """Rotate many points by one angle, calling cos and sin of it inside the loop."""
    out_x = []
    out_y = []
    for i in range(len(xs)):
        out_x.append(xs[i] * math.cos(theta) - ys[i] * math.sin(theta))
        out_y.append(xs[i] * math.sin(theta) + ys[i] * math.cos(theta))
    return out_x, out_y


def rotate_points_hand(xs, ys, theta):
    c = math.cos(theta)
    s = math.sin(theta)
    return ([x * c - y * s for x, y in zip(xs, ys)], [x * s + y * c for x, y in zip(xs, ys)])


def phasor_steps(omega, dt, steps):
    """A rotating phasor stepped with cos/sin of the (loop-invariant) angle omega * dt."""
    re = 1.0
    im = 0.0
    for _ in range(steps):
        re, im = (re * math.cos(omega * dt) - im * math.sin(omega * dt),
                  re * math.sin(omega * dt) + im * math.cos(omega * dt))
    return re, im


def phasor_steps_hand(omega, dt, steps):
    c = math.cos(omega * dt)
    s = math.sin(omega * dt)
    re = 1.0
    im = 0.0
    for _ in range(steps):
        re, im = re * c - im * s, re * s + im * c
    return re, im


def reduce_decay(xs):
    """A decaying accumulation written with functools.reduce and a lambda."""
    return functools.reduce(lambda acc, x: acc * 0.999 + x, xs, 0.0)


def reduce_decay_hand(xs):
    acc = 0.0
    for x in xs:
        acc = acc * 0.999 + x
    return acc


def reduce_product(xs):
    """The product of a list with functools.reduce and operator-free lambda."""
    return functools.reduce(lambda a, b: a * b, xs)


def reduce_product_hand(xs):
    it = iter(xs)
    acc = next(it)
    for x in it:
        acc = acc * x
    return acc


def dot_generator(ws, xs):
    """A dot product as the sum of a generator over zip."""
    return sum(w * x for w, x in zip(ws, xs))


def dot_generator_hand(ws, xs):
    # sum(map(mul, ws, xs)) ends quietly at a StopIteration an item's __mul__ raises, where the
    # generator turns it into a RuntimeError, so it is exact only behind a test that every item
    # is a float; that test costs more than map saves (0.76x of the generator); a loop adding
    # to a local is not sum() either (3.12+ sums floats with compensation): no exact rewrite pays
    return sum(w * x for w, x in zip(ws, xs))


def squares_of_positive(xs):
    """list(map(lambda, filter(lambda, xs))): squares of the positive values."""
    return list(map(lambda x: x * x, filter(lambda x: x > 0, xs)))


def squares_of_positive_hand(xs):
    return [x * x for x in xs if x > 0]


def norm_sum_generator(vectors):
    """The Euclidean norms of many 3-vectors with math.sqrt of a sum of a generator."""
    return [math.sqrt(sum(c * c for c in v)) for v in vectors]


def norm_sum_generator_hand(vectors):
    sqrt = math.sqrt
    return [sqrt(sum([c * c for c in v])) for v in vectors]


def damped_oscillator(x0, v0, k, c, dt, steps):
    """Semi-implicit Euler for a damped spring, with math.exp of a loop-invariant in the loop."""
    x = x0
    v = v0
    energy = []
    for n in range(steps):
        a = -k * x - c * v
        v += a * dt
        x += v * dt
        energy.append(0.5 * v * v + 0.5 * k * x * x * math.exp(-c * dt))
    return x, v, energy


def damped_oscillator_hand(x0, v0, k, c, dt, steps):
    if type(k) is not float or type(c) is not float or type(dt) is not float:
        return damped_oscillator(x0, v0, k, c, dt, steps)
    try:
        decay = math.exp(-c * dt)
    except OverflowError:  # the original raises it in its first step, after that step's work
        return damped_oscillator(x0, v0, k, c, dt, steps)
    minus_k = -k
    half_k = 0.5 * k
    x = x0
    v = v0
    energy = []
    for n in range(steps):
        a = minus_k * x - c * v
        v += a * dt
        x += v * dt
        energy.append(0.5 * v * v + half_k * x * x * decay)
    return x, v, energy


# ---------------------------------------------------------------- strings and dicts


def format_report(names, values):
    """Lines of a report: name, value with 3 decimals, its share of the total in percent."""
    total = 0.0
    for v in values:
        total += v
    lines = []
    for name, v in zip(names, values):
        pct = 100.0 * v / total
        lines.append(f"{name:<10} {v:10.3f} {pct:6.2f}%")
    return "\n".join(lines)


def format_report_hand(names, values):
    total = 0.0
    for v in values:
        total += v
    return "\n".join([f"{name:<10} {v:10.3f} {100.0 * v / total:6.2f}%"
                      for name, v in zip(names, values)])


def parse_csv_totals(lines):
    """Parse "name,price,qty" lines and total price * qty per name in a dict."""
    totals = {}
    for line in lines:
        parts = line.split(",")
        name = parts[0]
        amount = float(parts[1]) * int(parts[2])
        if name in totals:
            totals[name] += amount
        else:
            totals[name] = amount
    return totals


def parse_csv_totals_hand(lines):
    # the parts indexed as the original does (unpacking them would raise ValueError where a
    # line has more than three fields, which the original totals, or fewer, IndexError there)
    totals = {}
    get = totals.get
    for line in lines:
        parts = line.split(",")
        name = parts[0]
        amount = float(parts[1]) * int(parts[2])
        old = get(name)
        totals[name] = amount if old is None else old + amount
    return totals


def histogram_dict(values, width):
    """Count values into bins of a given width with a dict and .get."""
    counts = {}
    for v in values:
        key = int(v // width)
        counts[key] = counts.get(key, 0) + 1
    return counts


def histogram_dict_hand(values, width):
    counts = {}
    get = counts.get
    for v in values:
        key = int(v // width)
        counts[key] = get(key, 0) + 1
    return counts


def word_lengths(text):
    """Mean word length and the longest word, splitting and stripping punctuation."""
    total = 0
    count = 0
    longest = ""
    for word in text.split():
        word = word.strip(".,;:!?")
        if not word:
            continue
        total += len(word)
        count += 1
        if len(word) > len(longest):
            longest = word
    return total / count, longest


def word_lengths_hand(text):
    if type(text) is not str:  # then len() of a word runs no user code and can be kept
        return word_lengths(text)
    total = 0
    count = 0
    longest = ""
    longest_len = 0
    for word in text.split():
        word = word.strip(".,;:!?")
        if not word:
            continue
        size = len(word)
        total += size
        count += 1
        if size > longest_len:
            longest = word
            longest_len = size
    return total / count, longest


def grade_scores(scores):
    """Letter grades from numeric scores with an if/elif chain, counted in a dict."""
    grades = {"A": 0, "B": 0, "C": 0, "D": 0, "F": 0}
    for s in scores:
        if s >= 90:
            grades["A"] += 1
        elif s >= 80:
            grades["B"] += 1
        elif s >= 70:
            grades["C"] += 1
        elif s >= 60:
            grades["D"] += 1
        else:
            grades["F"] += 1
    return grades


def grade_scores_hand(scores):
    # the dict does not escape before the return: its counts can live in locals (int += 1
    # runs no user code; the comparisons run in the original's order)
    a = b = c = d = f = 0
    for s in scores:
        if s >= 90:
            a += 1
        elif s >= 80:
            b += 1
        elif s >= 70:
            c += 1
        elif s >= 60:
            d += 1
        else:
            f += 1
    return {"A": a, "B": b, "C": c, "D": d, "F": f}


# ---------------------------------------------------------------- inputs


def _args_cantor(small: bool) -> tuple[object, ...]:
    return 37, 112


def _args_scalar(small: bool) -> tuple[object, ...]:
    return (21.5,)


def _args_clamp(small: bool) -> tuple[object, ...]:
    return 1.75, 0.0, 1.0


def _args_distance(small: bool) -> tuple[object, ...]:
    return 0.5, -1.25, 3.0, 2.5


def _args_smoothstep(small: bool) -> tuple[object, ...]:
    return 0.2, 0.8, 0.55


def _args_compound(small: bool) -> tuple[object, ...]:
    return 1000.0, 0.035, 10, 12


def _args_rotate(small: bool) -> tuple[object, ...]:
    n = 20 if small else 5000
    return _floats(SEED, n), _floats(SEED + 1, n), 0.7


def _args_phasor(small: bool) -> tuple[object, ...]:
    return 2.0, 0.01, 20 if small else 5000


def _args_reduce(small: bool) -> tuple[object, ...]:
    return (_floats(SEED + 2, 30 if small else 10000),)


def _args_product(small: bool) -> tuple[object, ...]:
    return (_floats(SEED + 3, 30 if small else 10000, 0.9, 1.1),)


def _args_dot(small: bool) -> tuple[object, ...]:
    n = 30 if small else 20000
    return _floats(SEED + 4, n), _floats(SEED + 5, n)


def _args_vectors(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED + 6)
    return ([(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
             for _ in range(10 if small else 4000)],)


def _args_oscillator(small: bool) -> tuple[object, ...]:
    return 1.0, 0.0, 4.0, 0.1, 0.01, 20 if small else 5000


def _args_report(small: bool) -> tuple[object, ...]:
    n = 8 if small else 1500
    rng = random.Random(SEED + 7)
    return [f"item{k:04d}" for k in range(n)], [rng.uniform(0.5, 900.0) for _ in range(n)]


def _args_csv(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED + 8)
    names = ["apple", "pear", "plum", "fig", "kiwi", "lime"]
    return ([f"{rng.choice(names)},{rng.uniform(0.1, 9.9):.2f},{rng.randint(1, 50)}"
             for _ in range(12 if small else 5000)],)


def _args_histogram(small: bool) -> tuple[object, ...]:
    return _floats(SEED + 9, 40 if small else 15000, -50.0, 50.0), 2.5


def _args_text(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED + 10)
    words = ["numeric", "python", "loops", "are", "slow,", "but", "readable.", "arrays;",
             "vectorize!", "it", "compiles?", "a", "kernel:"]
    return (" ".join(rng.choice(words) for _ in range(20 if small else 8000)),)


def _args_grades(small: bool) -> tuple[object, ...]:
    rng = random.Random(SEED + 11)
    return ([rng.randint(30, 100) for _ in range(20 if small else 15000)],)


KERNELS: tuple[Kernel, ...] = (
    Kernel("cantor_weight", TINY, cantor_weight, _args_cantor, cantor_weight_hand),
    Kernel("fahrenheit", TINY, fahrenheit, _args_scalar, fahrenheit_hand),
    Kernel("clamp", TINY, clamp, _args_clamp, clamp_hand),
    Kernel("distance", TINY, distance, _args_distance, distance_hand),
    Kernel("smoothstep", TINY, smoothstep, _args_smoothstep, smoothstep_hand),
    Kernel("compound", TINY, compound, _args_compound, compound_hand),
    Kernel("rotate_points", CALLS, rotate_points, _args_rotate, rotate_points_hand),
    Kernel("phasor_steps", CALLS, phasor_steps, _args_phasor, phasor_steps_hand),
    Kernel("reduce_decay", CALLS, reduce_decay, _args_reduce, reduce_decay_hand),
    Kernel("reduce_product", CALLS, reduce_product, _args_product, reduce_product_hand),
    Kernel("dot_generator", CALLS, dot_generator, _args_dot, dot_generator_hand),
    Kernel("squares_filter", CALLS, squares_of_positive, _args_reduce, squares_of_positive_hand),
    Kernel("norms_generator", CALLS, norm_sum_generator, _args_vectors, norm_sum_generator_hand),
    Kernel("damped_oscillator", CALLS, damped_oscillator, _args_oscillator,
           damped_oscillator_hand),
    Kernel("format_report", TEXT, format_report, _args_report, format_report_hand),
    Kernel("parse_csv", TEXT, parse_csv_totals, _args_csv, parse_csv_totals_hand),
    Kernel("histogram_dict", TEXT, histogram_dict, _args_histogram, histogram_dict_hand),
    Kernel("word_lengths", TEXT, word_lengths, _args_text, word_lengths_hand),
    Kernel("grade_scores", TEXT, grade_scores, _args_grades, grade_scores_hand),
)
