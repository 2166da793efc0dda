"""Round-robin micro-benchmark harness shared by every benchmark case.

The machine the benchmarks run on is shared and noisy, so absolute times drift from run to run
(and within a run). To get numbers worth comparing:

* all variants of a case are measured in ONE process, round-robin: each repeat times every
  variant once (the start of the order rotates per repeat, so no variant is always first);
* each timing is a timeit-style loop of ``number`` calls, built from the same source template
  for every variant (a fresh code object per variant, like ``timeit.Timer`` does, so CPython's
  specializing interpreter never shares inline caches between variants), with the callable and
  its arguments bound to local names;
* the garbage collector is disabled during each timed loop and restored afterwards;
* ``number`` is calibrated per variant so one timing lasts about ``target_ns`` (~30 ms);
* results are summarized by medians and reported as RATIOS against a baseline variant;
  absolute ns/call is only a secondary column.

Typical use (see ``bench_calls.py``)::

    samples = measure({"a": fa, "b": fb}, repeats=15, args=(1, 2, 3, 4))
    stats = summarize(samples)
    print(format_table(stats, baseline="a"))
"""

from __future__ import annotations

import gc
import itertools
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

__all__ = [
    "DEFAULT_REPEATS",
    "DEFAULT_TARGET_NS",
    "QUICK_REPEATS",
    "QUICK_TARGET_NS",
    "BenchConfig",
    "Stats",
    "calibrate",
    "environment_lines",
    "format_table",
    "make_timer",
    "measure",
    "paired_ratios",
    "summarize",
]

DEFAULT_REPEATS = 15
QUICK_REPEATS = 3
DEFAULT_TARGET_NS = 30_000_000  # one timing ~30 ms (inside the 20-50 ms band)
QUICK_TARGET_NS = 3_000_000  # --quick: ~3 ms per timing

#: A timed loop: ``timer(number)`` runs ``number`` calls and returns the elapsed nanoseconds.
Timer = Callable[[int], int]


@dataclass(frozen=True)
class BenchConfig:
    """Settings handed from the command line to every benchmark module's ``run``."""

    repeats: int = DEFAULT_REPEATS
    target_ns: int = DEFAULT_TARGET_NS
    quick: bool = False
    json_path: str | None = None  # --json: where a benchmark that supports it writes results


# The timed loop. Every variant gets its own code object compiled from this same text, so all
# variants run byte-for-byte identical loops. `{params}`/`{call}` depend only on the number of
# arguments, which is the same for every variant of a case.
_TEMPLATE = """
def _make(_fn, _args, _repeat, _clock):
    def _timed(_number):
        _f = _fn
        {unpack}
        _it = _repeat(None, _number)
        _t0 = _clock()
        for _ in _it:
            _f({call})
        _t1 = _clock()
        return _t1 - _t0
    return _timed
"""


def make_timer(fn: Callable[..., object], args: Sequence[object] = (),
               clock: Callable[[], int] = time.perf_counter_ns) -> Timer:
    """Return ``timer(number)`` timing ``number`` calls of ``fn(*args)`` (args spelled out).

    The callable and each argument are bound to local variables before the clock starts; the
    loop body is a plain call ``_f(_a0, _a1, ...)``, exactly as a hand-written loop would be.
    ``clock`` gives nanoseconds: wall time by default, ``time.process_time_ns`` for CPU time.
    """
    names = [f"_a{i}" for i in range(len(args))]
    if names:
        unpack = f"{', '.join(names)}, = _args"
    else:
        unpack = "pass"
    source = _TEMPLATE.format(unpack=unpack, call=", ".join(names))
    namespace: dict[str, object] = {}
    # A fresh compile per timer -> a fresh code object (and fresh inline caches) per variant.
    exec(compile(source, f"<timed loop for {getattr(fn, '__name__', 'fn')}>", "exec"), namespace)
    make = cast(Callable[..., Timer], namespace["_make"])
    return make(fn, tuple(args), itertools.repeat, clock)


def _time_once(timer: Timer, number: int) -> int:
    """Run one timed loop with the garbage collector disabled; return elapsed ns."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return timer(number)
    finally:
        if gc_was_enabled:
            gc.enable()


def calibrate(timer: Timer, target_ns: int = DEFAULT_TARGET_NS) -> int:
    """Choose ``number`` so that ``timer(number)`` takes about ``target_ns``.

    Like ``timeit.Timer.autorange``: try 1, 2, 5, 10, 20, 50, ... calls until one timing lasts
    at least a tenth of the target, then scale linearly. The runs also warm the variant up
    (CPython specializes bytecode after a few executions).
    """
    if target_ns <= 0:
        raise ValueError("target_ns must be positive")
    floor = max(target_ns // 10, 1)
    scale = 1
    while True:
        for step in (1, 2, 5):
            number = step * scale
            elapsed = _time_once(timer, number)
            if elapsed >= floor:
                return max(1, round(number * target_ns / elapsed))
        scale *= 10


def measure(
    variants: Mapping[str, Callable[..., object]],
    repeats: int = DEFAULT_REPEATS,
    number: int | Mapping[str, int] | None = None,
    *,
    args: Sequence[object] = (),
    target_ns: int = DEFAULT_TARGET_NS,
    clock: Callable[[], int] = time.perf_counter_ns,
) -> dict[str, list[float]]:
    """Time every variant round-robin; return ``{name: [ns per call, one per repeat]}``.

    ``variants`` maps a display name to a callable, each called as ``fn(*args)`` (with the
    default ``args=()`` they are plain ``Callable[[], object]``). ``number`` is the count of
    calls per timing: one int for all variants, a per-variant mapping, or None to calibrate each
    variant so one timing lasts about ``target_ns`` (on ``clock``, see ``make_timer``). Each
    repeat times every variant once; the starting variant rotates from one repeat to the next.
    """
    if repeats < 1:
        raise ValueError("repeats must be >= 1")
    if not variants:
        return {}
    names = list(variants)
    timers = {name: make_timer(variants[name], args, clock) for name in names}

    numbers: dict[str, int] = {}
    for name in names:
        if number is None:
            numbers[name] = calibrate(timers[name], target_ns)  # also warms up
        else:
            n = number if isinstance(number, int) else number[name]
            if n < 1:
                raise ValueError(f"number for {name!r} must be >= 1")
            numbers[name] = n
            _time_once(timers[name], min(n, 1000))  # warm-up, not recorded

    samples: dict[str, list[float]] = {name: [] for name in names}
    for r in range(repeats):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            elapsed = _time_once(timers[name], numbers[name])
            samples[name].append(elapsed / numbers[name])
    return samples


@dataclass(frozen=True)
class Stats:
    """Summary of one variant's per-call times (ns)."""

    median: float
    low: float
    high: float
    spread: float  # relative spread: IQR / median (range / median for < 4 samples)
    samples: int


def summarize(samples: Mapping[str, Sequence[float]]) -> dict[str, Stats]:
    """Reduce ``measure`` output to medians and a robust relative spread per variant."""
    out: dict[str, Stats] = {}
    for name, values in samples.items():
        if not values:
            raise ValueError(f"no samples for {name!r}")
        med = statistics.median(values)
        if len(values) >= 4:
            q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
            width = q3 - q1
        else:
            width = max(values) - min(values)
        out[name] = Stats(
            median=med,
            low=min(values),
            high=max(values),
            spread=width / med if med > 0 else math.nan,
            samples=len(values),
        )
    return out


def paired_ratios(
    samples: Mapping[str, Sequence[float]], numerator: str, denominator: str
) -> list[float]:
    """Per-repeat ratios ``numerator / denominator``.

    Both variants of one repeat ran back to back, so these pairs share the machine's momentary
    load; their median is a useful cross-check of the ratio of medians.
    """
    return [a / b for a, b in zip(samples[numerator], samples[denominator], strict=True)]


def format_table(
    stats: Mapping[str, Stats],
    baseline: str,
    *,
    title: str | None = None,
) -> str:
    """Render a table: variant | speedup vs baseline | median ns/call | relative spread.

    Speedup is ``baseline_median / variant_median`` (> 1 means faster than the baseline).
    """
    base = stats[baseline].median
    header = ("variant", f"speedup vs {baseline}", "median ns/call", "spread")
    rows = [
        (
            name,
            f"{base / s.median:.3f}x",
            f"{s.median:.1f}",
            f"{100 * s.spread:.1f}%",
        )
        for name, s in stats.items()
    ]
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest])

    parts: list[str] = []
    if title:
        parts.append(title)
    parts.append(line(header))
    parts.append("  ".join("-" * w for w in widths))
    parts.extend(line(row) for row in rows)
    n = min(s.samples for s in stats.values())
    how = "interquartile range" if n >= 4 else "range (max - min)"
    parts.append(f"(medians of {n} repeats; spread = {how} / median)")
    return "\n".join(parts)


def print_header(name: str, description: str) -> bool:
    """Print a benchmark's title and where its numbers come from; False (after saying why)
    if symcompile cannot be imported."""
    try:
        import symcompile
    except ImportError as exc:
        print(f"error: cannot import symcompile ({exc}); install it: pip install -e .")
        return False
    print(f"== benchmark: {name} - {description}")
    version = getattr(symcompile, "__version__", "unknown")
    for line in environment_lines({"symcompile": str(version)}):
        print(line)
    return True


def environment_lines(extra: Mapping[str, str] | None = None) -> list[str]:
    """Describe where the numbers come from: Python, numpy, platform, load; plus a noise note."""
    try:
        import numpy

        numpy_version = numpy.__version__
    except ImportError:  # pragma: no cover - numpy is a hard dependency of symcompile
        numpy_version = "not installed"
    impl = platform.python_implementation()
    lines = [
        f"python:     {impl} {platform.python_version()} ({sys.executable})",
        f"numpy:      {numpy_version}",
        f"platform:   {platform.platform()}, {os.cpu_count()} CPUs",
    ]
    if hasattr(os, "getloadavg"):
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        lines.append(f"load avg:   {load}")
    for key, value in (extra or {}).items():
        lines.append(f"{key + ':':<11} {value}")
    lines.append("note:       shared, noisy machine: absolute times drift between runs; compare")
    lines.append("            the RATIOS (variants measured round-robin in one process, medians).")
    return lines
