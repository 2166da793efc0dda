"""Benchmark case "loops": scalar loop kernels written with small helper functions.

Three kernels, each the kind of loop a student writes with tiny helpers (``add``, ``mul``,
``sub``, ``dist2``, ``pow_helper``), each timed in five variants that all return bit-identical
floats:

* ``imperative``              - the kernel as written, calling its helpers (the baseline);
* ``compiled``                - ``symcompile.symbolic(kernel)`` with default options (guards on);
* ``compiled (guards=False)`` - ``symcompile.symbolic(kernel, guards=False)``;
* ``hand-inlined``            - the helpers inlined by hand (a helper's parameter becomes the
  argument it was called with), nothing else changed: loops, globals and reads stay as written;
* ``hand-optimized``          - inlined, constant loops unrolled, constants folded and common
  subexpressions shared: what the optimization passes could reach, in pure Python, computing
  the same floating-point operations in the same order (so still bit-identical). It applies
  only those transformations; it does not swap the per-element loop for a comprehension or
  hoist ``out.append`` into a local, so the reference stays reachable by compiler passes.

The kernels:

1. ``horner``: a degree-6 polynomial with fixed float coefficients (the module tuple
   ``COEFFS``, highest degree first) at 20,000 points, ``acc = add(mul(acc, x), c)`` over the
   coefficients. ``acc`` starts from ``COEFFS[0]`` in every variant: starting from ``0.0``
   would make the first step ``0.0 * x + c``, which equals ``c`` only for finite ``x``.
2. ``newton_cbrt``: cube roots of 5,000 positive floats by ``NEWTON_ITERATIONS`` Newton steps
   ``x = x - (pow_helper(x, 3) - a) / (3 * pow_helper(x, 2))``, where ``pow_helper(x, n)``
   multiplies ``1.0`` by ``x`` n times in a loop. Unrolled, ``pow_helper(x, 3)`` is
   ``((1.0 * x) * x) * x``; ``1.0 * x == x`` exactly for every float, so it is ``(x * x) * x``
   and shares ``x * x`` with ``pow_helper(x, 2)``; ``3 * s`` is ``3.0 * s``.
3. ``nbody``: ``NBODY_STEPS`` steps of a 5-body system (lists of floats for positions,
   velocities and masses; the lists are copied on entry, so every call starts from the same
   state). The body count comes from the data (``len(masses)``), so no loop is a constant
   loop to unroll; the hand-optimized version folds ``DT`` and ``math.sqrt``, computes each
   ``masses[k] * mag`` once instead of three times and reads ``xs[i]``, ``ys[i]``, ``zs[i]``,
   ``masses[i]`` (never written in the pair loop) once per ``i``.

Before timing, every variant runs once (which also compiles the compiled ones) and its result
is compared with the imperative one float by float, by bits (``struct.pack('<d', v)``); the
compiled sources are printed. Each kernel then gets a table like ``bench_calls`` (speedup vs
imperative, median ns per call) and the target lines ``compiled / hand-inlined`` and
``compiled / hand-optimized``. The project's targets for loop benchmarks: within 1.10x of the
hand-optimized version, and never slower than imperative. The ratios are printed as measured,
whether or not they meet the targets.
"""

from __future__ import annotations

import math
import random
import statistics
import struct
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from benchmarks.timing import (
    BenchConfig,
    Stats,
    format_table,
    measure,
    paired_ratios,
    print_header,
    summarize,
)

NAME = "loops"
DESCRIPTION = (
    "scalar loop kernels with helpers (Horner, Newton cube roots, n-body): imperative vs "
    "compiled vs hand-inlined vs hand-optimized"
)

BASELINE = "imperative"
COMPILED = "compiled"
UNGUARDED = "compiled (guards=False)"
INLINED = "hand-inlined"
OPTIMIZED = "hand-optimized"
#: The project's targets for loop benchmarks (ratios of median times, compiled / reference).
TARGET_VS_OPTIMIZED = 1.10
TARGET_VS_IMPERATIVE = 1.00

SEED = 20240611


# --------------------------------------------------------------------------- helpers


def add(a: float, b: float) -> float:
    return a + b


def sub(a: float, b: float) -> float:
    return a - b


def mul(a: float, b: float) -> float:
    return a * b


def dist2(dx: float, dy: float, dz: float) -> float:
    return dx * dx + dy * dy + dz * dz


def pow_helper(x: float, n: int) -> float:
    result = 1.0
    for _ in range(n):
        result = result * x
    return result


# ------------------------------------------------------------------- 1. Horner

#: Degree-6 polynomial, highest degree first (the order Horner's rule consumes them).
COEFFS: tuple[float, ...] = (0.5, -1.25, 2.0, 0.75, -3.5, 1.125, 0.0625)
HORNER_POINTS = 20_000


def horner(xs: list[float]) -> list[float]:
    """The polynomial COEFFS at every x, as a student writes it."""
    out = []
    for x in xs:
        acc = COEFFS[0]
        for c in COEFFS[1:]:
            acc = add(mul(acc, x), c)
        out.append(acc)
    return out


def horner_hand_inlined(xs: list[float]) -> list[float]:
    """horner with add and mul inlined by hand."""
    out = []
    for x in xs:
        acc = COEFFS[0]
        for c in COEFFS[1:]:
            acc = acc * x + c
        out.append(acc)
    return out


def horner_hand_optimized(xs: list[float]) -> list[float]:
    """horner inlined, the coefficient loop unrolled and COEFFS folded into the code."""
    out = []
    for x in xs:
        out.append((((((0.5 * x + -1.25) * x + 2.0) * x + 0.75) * x + -3.5) * x + 1.125) * x
                   + 0.0625)
    return out


def horner_args() -> tuple[object, ...]:
    rng = random.Random(SEED)
    return ([rng.uniform(-1.5, 1.5) for _ in range(HORNER_POINTS)],)


# -------------------------------------------------------- 2. Newton cube roots

NEWTON_ITERATIONS = 6
NEWTON_POINTS = 5_000


def newton_cbrt(values: list[float]) -> list[float]:
    """Cube roots by a fixed number of Newton steps, as a student writes it."""
    out = []
    for a in values:
        x = a
        for _ in range(NEWTON_ITERATIONS):
            x = x - (pow_helper(x, 3) - a) / (3 * pow_helper(x, 2))
        out.append(x)
    return out


def newton_cbrt_hand_inlined(values: list[float]) -> list[float]:
    """newton_cbrt with both pow_helper calls inlined by hand (their loops kept)."""
    out = []
    for a in values:
        x = a
        for _ in range(NEWTON_ITERATIONS):
            cube = 1.0
            for _k in range(3):
                cube = cube * x
            square = 1.0
            for _k in range(2):
                square = square * x
            x = x - (cube - a) / (3 * square)
        out.append(x)
    return out


def newton_cbrt_hand_optimized(values: list[float]) -> list[float]:
    """newton_cbrt inlined, all loops unrolled (6 steps; x**3 and x**2 loops), 1.0 * x and
    3 folded, x * x shared by the cube and the square."""
    out = []
    for a in values:
        x = a
        x2 = x * x
        x = x - (x2 * x - a) / (3.0 * x2)
        x2 = x * x
        x = x - (x2 * x - a) / (3.0 * x2)
        x2 = x * x
        x = x - (x2 * x - a) / (3.0 * x2)
        x2 = x * x
        x = x - (x2 * x - a) / (3.0 * x2)
        x2 = x * x
        x = x - (x2 * x - a) / (3.0 * x2)
        x2 = x * x
        x = x - (x2 * x - a) / (3.0 * x2)
        out.append(x)
    return out


def newton_args() -> tuple[object, ...]:
    rng = random.Random(SEED + 1)
    return ([rng.uniform(0.5, 8.0) for _ in range(NEWTON_POINTS)],)


# ------------------------------------------------------------------ 3. n-body

DT = 0.01
NBODY_BODIES = 5
NBODY_STEPS = 20


def nbody(xs0: list[float], ys0: list[float], zs0: list[float], vxs0: list[float],
          vys0: list[float], vzs0: list[float], masses: list[float],
          steps: int) -> tuple[list[float], ...]:
    """Advance the bodies `steps` steps of DT, as a student writes it."""
    xs = list(xs0)
    ys = list(ys0)
    zs = list(zs0)
    vxs = list(vxs0)
    vys = list(vys0)
    vzs = list(vzs0)
    n = len(masses)
    for _ in range(steps):
        for i in range(n):
            for j in range(i + 1, n):
                dx = sub(xs[i], xs[j])
                dy = sub(ys[i], ys[j])
                dz = sub(zs[i], zs[j])
                d2 = dist2(dx, dy, dz)
                mag = DT / (d2 * math.sqrt(d2))
                vxs[i] = sub(vxs[i], mul(dx, mul(masses[j], mag)))
                vys[i] = sub(vys[i], mul(dy, mul(masses[j], mag)))
                vzs[i] = sub(vzs[i], mul(dz, mul(masses[j], mag)))
                vxs[j] = add(vxs[j], mul(dx, mul(masses[i], mag)))
                vys[j] = add(vys[j], mul(dy, mul(masses[i], mag)))
                vzs[j] = add(vzs[j], mul(dz, mul(masses[i], mag)))
        for i in range(n):
            xs[i] = add(xs[i], mul(DT, vxs[i]))
            ys[i] = add(ys[i], mul(DT, vys[i]))
            zs[i] = add(zs[i], mul(DT, vzs[i]))
    return xs, ys, zs, vxs, vys, vzs


def nbody_hand_inlined(xs0: list[float], ys0: list[float], zs0: list[float],
                       vxs0: list[float], vys0: list[float], vzs0: list[float],
                       masses: list[float], steps: int) -> tuple[list[float], ...]:
    """nbody with sub, add, mul and dist2 inlined by hand."""
    xs = list(xs0)
    ys = list(ys0)
    zs = list(zs0)
    vxs = list(vxs0)
    vys = list(vys0)
    vzs = list(vzs0)
    n = len(masses)
    for _ in range(steps):
        for i in range(n):
            for j in range(i + 1, n):
                dx = xs[i] - xs[j]
                dy = ys[i] - ys[j]
                dz = zs[i] - zs[j]
                d2 = dx * dx + dy * dy + dz * dz
                mag = DT / (d2 * math.sqrt(d2))
                vxs[i] = vxs[i] - dx * (masses[j] * mag)
                vys[i] = vys[i] - dy * (masses[j] * mag)
                vzs[i] = vzs[i] - dz * (masses[j] * mag)
                vxs[j] = vxs[j] + dx * (masses[i] * mag)
                vys[j] = vys[j] + dy * (masses[i] * mag)
                vzs[j] = vzs[j] + dz * (masses[i] * mag)
        for i in range(n):
            xs[i] = xs[i] + DT * vxs[i]
            ys[i] = ys[i] + DT * vys[i]
            zs[i] = zs[i] + DT * vzs[i]
    return xs, ys, zs, vxs, vys, vzs


def nbody_hand_optimized(xs0: list[float], ys0: list[float], zs0: list[float],
                         vxs0: list[float], vys0: list[float], vzs0: list[float],
                         masses: list[float], steps: int) -> tuple[list[float], ...]:
    """nbody inlined, DT and math.sqrt folded, masses[k] * mag shared by the three
    components, and the i-body's position and mass (not written in the pair loop) read
    once per i."""
    sqrt = math.sqrt
    xs = list(xs0)
    ys = list(ys0)
    zs = list(zs0)
    vxs = list(vxs0)
    vys = list(vys0)
    vzs = list(vzs0)
    n = len(masses)
    for _ in range(steps):
        for i in range(n):
            xi = xs[i]
            yi = ys[i]
            zi = zs[i]
            mi = masses[i]
            for j in range(i + 1, n):
                dx = xi - xs[j]
                dy = yi - ys[j]
                dz = zi - zs[j]
                d2 = dx * dx + dy * dy + dz * dz
                mag = 0.01 / (d2 * sqrt(d2))
                mj_mag = masses[j] * mag
                mi_mag = mi * mag
                vxs[i] = vxs[i] - dx * mj_mag
                vys[i] = vys[i] - dy * mj_mag
                vzs[i] = vzs[i] - dz * mj_mag
                vxs[j] = vxs[j] + dx * mi_mag
                vys[j] = vys[j] + dy * mi_mag
                vzs[j] = vzs[j] + dz * mi_mag
        for i in range(n):
            xs[i] = xs[i] + 0.01 * vxs[i]
            ys[i] = ys[i] + 0.01 * vys[i]
            zs[i] = zs[i] + 0.01 * vzs[i]
    return xs, ys, zs, vxs, vys, vzs


def nbody_args() -> tuple[object, ...]:
    rng = random.Random(SEED + 2)
    count = NBODY_BODIES

    def floats(low: float, high: float) -> list[float]:
        return [rng.uniform(low, high) for _ in range(count)]

    return (floats(-4.0, 4.0), floats(-4.0, 4.0), floats(-4.0, 4.0),
            floats(-0.5, 0.5), floats(-0.5, 0.5), floats(-0.5, 0.5),
            floats(0.5, 2.0), NBODY_STEPS)


# --------------------------------------------------------------------- kernels


@dataclass(frozen=True)
class Kernel:
    """One loop kernel: its imperative entry function, the hand-written references and input."""

    name: str
    title: str
    imperative: Callable[..., object]
    hand_inlined: Callable[..., object]
    hand_optimized: Callable[..., object]
    make_args: Callable[[], tuple[object, ...]]

    def __post_init__(self) -> None:
        assert self.imperative.__name__ == self.name


# Checked (consistency of the constants the hand-optimized versions spell out) at import.
assert COEFFS == (0.5, -1.25, 2.0, 0.75, -3.5, 1.125, 0.0625), "update horner_hand_optimized"
assert NEWTON_ITERATIONS == 6, "update newton_cbrt_hand_optimized (one step per iteration)"
assert DT == 0.01, "update nbody_hand_optimized (DT is folded into it)"

KERNELS: tuple[Kernel, ...] = (
    Kernel("horner", f"degree-{len(COEFFS) - 1} polynomial (Horner) at {HORNER_POINTS:,} points",
           horner, horner_hand_inlined, horner_hand_optimized, horner_args),
    Kernel("newton_cbrt", f"{NEWTON_ITERATIONS} Newton steps for the cube roots of "
           f"{NEWTON_POINTS:,} floats",
           newton_cbrt, newton_cbrt_hand_inlined, newton_cbrt_hand_optimized, newton_args),
    Kernel("nbody", f"{NBODY_STEPS} steps of a {NBODY_BODIES}-body system",
           nbody, nbody_hand_inlined, nbody_hand_optimized, nbody_args),
)


# ----------------------------------------------------------------- bit checks


def first_difference(expected: object, actual: object, path: str = "result") -> str | None:
    """Where `actual` differs from `expected` (floats compared by bits), or None if nowhere."""
    if type(expected) is not type(actual):
        return f"{path}: {type(actual).__name__} instead of {type(expected).__name__}"
    if isinstance(expected, float):
        assert isinstance(actual, float)
        if struct.pack("<d", expected) != struct.pack("<d", actual):
            return f"{path}: {actual.hex()} instead of {expected.hex()}"
        return None
    if isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple))
        if len(expected) != len(actual):
            return f"{path}: length {len(actual)} instead of {len(expected)}"
        for index, (e, a) in enumerate(zip(expected, actual)):
            found = first_difference(e, a, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    return None if expected == actual else f"{path}: {actual!r} instead of {expected!r}"


def non_finite(value: object, path: str = "result") -> str | None:
    """The first float in `value` that is not finite (the kernels' inputs keep them finite)."""
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path} = {value!r}"
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = non_finite(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def check_results(variants: Mapping[str, Callable[..., object]],
                  args: Sequence[object]) -> list[str]:
    """Call every variant once (outside any timing); return a message per differing result."""
    expected = variants[BASELINE](*args)
    problems: list[str] = []
    bad = non_finite(expected)
    if bad is not None:
        problems.append(f"{BASELINE} produced a non-finite value, {bad}: change the inputs")
    for name, fn in variants.items():
        if name == BASELINE:
            continue
        found = first_difference(expected, fn(*args))
        if found is not None:
            problems.append(f"{name} differs from {BASELINE} at {found}")
    return problems


# ------------------------------------------------------------------- running


def build_variants(kernel: Kernel,
                   args: Sequence[object]) -> tuple[dict[str, Callable[..., object]], str, str]:
    """The five variants (display order), and the generated sources with and without guards.
    The compiled variants are called once here, so compiling is never timed."""
    import symcompile as sc

    compiled = sc.symbolic(kernel.imperative)
    unguarded = sc.symbolic(kernel.imperative, guards=False)
    compiled(*args)
    unguarded(*args)
    variants: dict[str, Callable[..., object]] = {
        BASELINE: kernel.imperative,
        COMPILED: compiled,
        UNGUARDED: unguarded,
        INLINED: kernel.hand_inlined,
        OPTIMIZED: kernel.hand_optimized,
    }
    return variants, str(compiled.source), str(unguarded.source)  # type: ignore[attr-defined]


def print_source(label: str, source: str) -> None:
    print(f"{label}:")
    for line in source.rstrip().splitlines():
        print(f"    {line}")


def ratio_line(samples: Mapping[str, Sequence[float]], stats: Mapping[str, Stats],
               numerator: str, denominator: str, target: float | None = None,
               target_text: str = "") -> str:
    """`numerator / denominator = r (paired p)`, with a verdict against `target` if given."""
    ratio = stats[numerator].median / stats[denominator].median
    pairs = paired_ratios(samples, numerator, denominator)
    label = f"{numerator} / {denominator}"
    text = f"  {label:<42} = {ratio:6.3f}  (per-repeat median {statistics.median(pairs):.3f})"
    if target is not None:
        if round(ratio, 3) <= target:  # judged as printed
            verdict = "ok"
        elif min(pairs) <= target:
            verdict = "above target, within noise"
        else:
            verdict = "MISSES TARGET"
        text += f"  target <= {target:.2f}{target_text}  [{verdict}]"
    return text


@dataclass(frozen=True)
class Summary:
    """A kernel's headline ratios, for the closing table."""

    name: str
    speedups: dict[str, float]  # variant -> imperative median / variant median
    vs_inlined: float
    vs_optimized: float


def run_kernel(kernel: Kernel, config: BenchConfig) -> Summary | None:
    """Check, print the compiled sources, time and report one kernel; None if it failed."""
    print(f"-- kernel {kernel.name}: {kernel.title}")
    args = kernel.make_args()
    try:
        variants, source, unguarded_source = build_variants(kernel, args)
    except Exception as exc:  # report a compiler failure as a failed benchmark, not a crash
        traceback.print_exc()
        print(f"error: could not build the variants with symcompile: {type(exc).__name__}")
        return None
    print_source(f"generated source ({COMPILED}.source)", source)
    if unguarded_source == source:
        print(f"generated source ({UNGUARDED}.source): the same text")
    else:
        print_source(f"generated source ({UNGUARDED}.source)", unguarded_source)

    problems = check_results(variants, args)
    if problems:
        for problem in problems:
            print(f"error: {problem}")
        return None
    print(f"check: all {len(variants)} variants return bit-identical floats")
    print()

    samples = measure(variants, config.repeats, args=args, target_ns=config.target_ns)
    stats = summarize(samples)
    print(format_table(stats, BASELINE, title=f"{kernel.name}: {kernel.title}, "
                       f"{config.repeats} round-robin repeats, "
                       f"~{config.target_ns / 1e6:g} ms per timing"))
    print()
    print("target lines (ratios of median times; < 1 means the left side is faster):")
    for compiled in (COMPILED, UNGUARDED):
        print(ratio_line(samples, stats, compiled, INLINED))
        print(ratio_line(samples, stats, compiled, OPTIMIZED, TARGET_VS_OPTIMIZED))
        print(ratio_line(samples, stats, compiled, BASELINE, TARGET_VS_IMPERATIVE,
                         ", never slower"))
    print()
    base = stats[BASELINE].median
    return Summary(
        kernel.name,
        {name: base / s.median for name, s in stats.items()},
        stats[COMPILED].median / stats[INLINED].median,
        stats[COMPILED].median / stats[OPTIMIZED].median,
    )


def format_summary(summaries: Sequence[Summary]) -> str:
    """One line per kernel: speedups vs imperative, and compiled over the hand-written ones."""
    names = list(summaries[0].speedups)
    header = ["kernel", *names, "compiled/hand-inl.", "compiled/hand-opt."]
    rows = [[s.name, *(f"{s.speedups[n]:.2f}x" for n in names), f"{s.vs_inlined:.3f}",
             f"{s.vs_optimized:.3f}"] for s in summaries]
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join([cells[0].ljust(widths[0]),
                          *(c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))])

    parts = ["summary (speedup vs imperative per variant; compiled / hand-written time ratios):",
             line(header), "  ".join("-" * w for w in widths), *(line(row) for row in rows)]
    parts.append(f"(targets: compiled / hand-optimized <= {TARGET_VS_OPTIMIZED:.2f}; compiled "
                 f"never slower than imperative)")
    return "\n".join(parts)


def run(config: BenchConfig) -> int:
    """Run every kernel and print the report; return a process exit code."""
    if not print_header(NAME, DESCRIPTION):
        return 1
    print()

    summaries: list[Summary] = []
    failed: list[str] = []
    for kernel in KERNELS:
        summary = run_kernel(kernel, config)
        if summary is None:
            failed.append(kernel.name)
        else:
            summaries.append(summary)
    if summaries:
        print(format_summary(summaries))
    if failed:
        print(f"error: kernel(s) failed: {', '.join(failed)}")
        return 1
    return 0
