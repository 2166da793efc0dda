"""Benchmark case "lifetimes": NumPy expressions where how long arrays live decides the speed.

glibc gives freed large arrays back to the kernel and faults them back in on the next
allocation, so a function that keeps a dead array alive while it allocates another makes the
heap shrink and grow on every call: the allocator, not the arithmetic, then sets the time
(issue 11: a compiled Gaussian kernel was 0.70x of the original, 555 page faults per call
against 360). Each kernel is timed as written and compiled, round-robin in one process, at
1e5, 1e6 and 1e7 float64 elements (1e7 not with ``--quick``), by CPU time (user and system:
the kernel's page faults count; on a shared machine CPU time is steadier than wall time), and
the minor page faults per call (``resource.getrusage(RUSAGE_SELF).ru_minflt`` around
``FAULT_CALLS`` calls) are printed beside the time ratio. Each is measured twice: with the
caller dropping each result at once, and keeping it until the next call's replaces it (``y =
f(x)`` in a loop): glibc's heap behaves differently in the two. Target: the compiled kernel at least as fast as the original at every
size, with no more page faults. Results are checked bit for bit before anything is timed.

The kernels:

* ``gauss``: ``np.exp(-h * i - a * (i ** 2))``, two arrays and a float; compiled, the last
  operation writes into the array the expression made (``exp(t, out=t)``);
* ``inside``: ``np.where(x * x + y * y < 1.0, x, y)``, whose comparison and ``where`` make
  arrays of other kinds: compiled, the dead float arrays are freed (``del``) before each.

The allocator settings (``MALLOC_TRIM_THRESHOLD_``, ``MALLOC_MMAP_THRESHOLD_``) are printed:
set high, they hide the effect this case is about.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks.timing import BenchConfig, print_header

NAME = "lifetimes"
DESCRIPTION = "array lifetimes: time and page faults per call, original vs compiled, 1e5-1e7"
SINGLE_THREADED_BLAS = True

SIZES = (100_000, 1_000_000, 10_000_000)
QUICK_SIZES = (100_000, 1_000_000)
FAULT_CALLS = 20
BASELINE = "original"
COMPILED = "compiled"
ALLOCATOR_VARIABLES = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_")


def gauss(h: np.ndarray, a: float, i: np.ndarray) -> np.ndarray:
    """A Gaussian-like profile, as in the issue."""
    return np.exp(-h * i - a * (i ** 2))


def inside(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x where (x, y) lies inside the unit circle, else y."""
    return np.where(x * x + y * y < 1.0, x, y)


def gauss_args(n: int) -> tuple[object, ...]:
    rng = np.random.default_rng(11)
    return rng.uniform(0.1, 2.0, n), 0.25, rng.uniform(0.0, 3.0, n)


def inside_args(n: int) -> tuple[object, ...]:
    rng = np.random.default_rng(12)
    return rng.uniform(-1.2, 1.2, n), rng.uniform(-1.2, 1.2, n)


KERNELS: dict[str, tuple[Callable[..., np.ndarray], Callable[[int], tuple[object, ...]]]] = {
    "gauss": (gauss, gauss_args),
    "inside": (inside, inside_args),
}


def calls(fn: Callable[..., object], args: tuple[object, ...], count: int, kept: bool) -> None:
    """``count`` calls of ``fn(*args)``: each result dropped at once, or (``kept``) held until
    the next call's replaces it, as ``y = f(x)`` in a loop does (glibc's heap then differs)."""
    if kept:
        result = fn(*args)
        for _ in range(count):
            result = fn(*args)
        del result
    else:
        for _ in range(count):
            fn(*args)


def faults_per_call(fn: Callable[..., object], args: tuple[object, ...], kept: bool) -> float:
    """Minor page faults per call of ``fn(*args)``, over ``FAULT_CALLS`` calls after one."""
    fn(*args)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    calls(fn, args, FAULT_CALLS, kept)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / FAULT_CALLS


def cpu_seconds(fn: Callable[..., object], args: tuple[object, ...], count: int,
                kept: bool) -> float:
    """CPU seconds (user and system: page faults count) per call, over ``count`` calls."""
    started = time.process_time()
    calls(fn, args, count, kept)
    return (time.process_time() - started) / count


def same_bits(expected: np.ndarray, actual: object) -> bool:
    return isinstance(actual, np.ndarray) and actual.dtype == expected.dtype \
        and actual.shape == expected.shape and actual.tobytes() == expected.tobytes()


@dataclass(frozen=True)
class Row:
    speedup: float  # original / compiled CPU time per call, medians of the repeats
    faults: dict[str, float]  # variant -> page faults per call


def run_kernel(name: str, n: int, kept: bool, config: BenchConfig) -> Row | None:
    """Compiled against original for one kernel, size and caller pattern (None: they differ)."""
    import symcompile as sc

    original, make_args = KERNELS[name]
    args = make_args(n)
    compiled = sc.symbolic(original)
    if not same_bits(original(*args), compiled(*args)):
        print(f"error: {name} at {n}: compiled result differs from the original by bits")
        return None
    variants = {BASELINE: original, COMPILED: compiled}
    count = max(2, round(config.target_ns / 1e9 / max(cpu_seconds(original, args, 2, kept), 1e-6)))
    times: dict[str, list[float]] = {variant: [] for variant in variants}
    for repeat in range(config.repeats):  # round-robin, the first variant alternating
        order = list(variants) if repeat % 2 else list(variants)[::-1]
        for variant in order:
            times[variant].append(cpu_seconds(variants[variant], args, count, kept))
    speedup = statistics.median(times[BASELINE]) / statistics.median(times[COMPILED])
    return Row(speedup, {variant: faults_per_call(fn, args, kept) for variant, fn in variants.items()})


def run(config: BenchConfig) -> int:
    """Run every kernel at every size; print speed-up and faults per call."""
    if not print_header(NAME, DESCRIPTION):
        return 1
    settings = ", ".join(f"{var}={os.environ.get(var, '(glibc default)')}"
                         for var in ALLOCATOR_VARIABLES)
    print(f"allocator:  {settings}\n")
    import symcompile as sc

    for name, (original, make_args) in KERNELS.items():
        compiled = sc.symbolic(original)
        compiled(*make_args(10))
        print(f"{name}, compiled:")
        for line in sc.source(compiled, *make_args(10)).rstrip().splitlines():
            print(f"    {line}")
    print(f"\n{'kernel':<8}{'elements':>10}  {'caller':<8}{'speed-up':>9}"
          f"{'faults/call':>13}{'(original)':>12}  verdict")
    status = 0
    for name in KERNELS:
        for n in QUICK_SIZES if config.quick else SIZES:
            for kept in (False, True):
                try:
                    row = run_kernel(name, n, kept, config)
                except Exception:  # a kernel that fails is reported, the others still run
                    traceback.print_exc()
                    row = None
                if row is None:
                    status = 1
                    continue
                ok = row.speedup >= 1.0 and row.faults[COMPILED] <= row.faults[BASELINE]
                print(f"{name:<8}{n:>10.0e}  {'keeps' if kept else 'drops':<8}{row.speedup:>8.2f}x"
                      f"{row.faults[COMPILED]:>13.1f}{row.faults[BASELINE]:>12.1f}"
                      f"  [{'ok' if ok else 'miss'}]")
    print("\n(speed-up: original / compiled CPU time per call, medians of round-robin repeats; "
          "faults: minor page faults per call; caller: drops each result at once, or keeps it "
          "until the next call's replaces it)")
    return status
