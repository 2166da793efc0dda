"""Benchmark case "real": numeric Python as people write it, compiled (issue 11 #4).

The kernels (``benchmarks/real/``, 60 of them in seven styles: loops over lists, lists of
objects and dicts, NumPy element loops, whole-array NumPy expressions, tiny helpers, ``math``
calls and functional idioms, strings and dicts around numbers) are nobody's textbook examples.
Each runs in up to four variants:

* ``original`` - the kernel as written (the baseline);
* ``compiled`` - ``symcompile.symbolic(kernel)`` with default options;
* ``hand``     - where the kernel has one, its best rewrite in plain Python/NumPy that is
  bit-identical for any inputs of the kernel's types (type tests and a fallback where needed);
* ``numba``    - ``numba.njit(kernel)``, only where numba is installed and compiles the kernel
  to the same result (an extra column for comparison; never a failure).

First every variant runs once on copies of the inputs, observed by the differential oracle
(``symcompile.runtime.oracle``: return value by bits, exceptions, output, argument mutation,
aliasing). A compiled kernel that differs from the original is reported as WRONG, one whose
compiled call raises where the original does not as CRASH, and neither is timed: both count as
failures (exit code 1), as does a hand reference that differs (a bug of the benchmark). Then
the variants are timed side by side in one process with the round-robin harness of
``benchmarks.timing`` (rotating order, medians of ``-r`` repeats), on CPU time
(``time.process_time_ns``): the machine is shared, and CPU time leaves out the waits.

The report has one line per kernel: the speedup (original time / compiled time; < 1 is
slower) with the median of the per-repeat ratios beside it as a noise check, compiled time /
hand time, the hand version's speedup, and numba's where it ran. Then the geometric mean of
the speedups over every kernel, over all but the whole-array NumPy ones, and over those
without the NumPy loops whose hand version is vectorized (issue 11's target counts no
vectorized loop), the worst speedup and its kernel, the kernels under 0.97x, and, for the kernels with a hand
reference in their own style, the ones whose compiled time is over 1.25x the hand time (issue
11's targets); the NumPy loops whose hand version is vectorized are reported apart (a compiler
of Python loops to Python is not expected to reach NumPy's speed there).
For the whole-array kernels the minor page faults per call of
each variant are printed too: with glibc's default allocator settings their times depend on
whether large freed arrays go back to the kernel, which depends on what ran before in the
process (glibc moves its mmap threshold as memory is freed). ``--json PATH`` writes all of it
to a file.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import os
import resource
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from benchmarks.timing import BenchConfig, measure, paired_ratios, print_header

NAME = "real"
DESCRIPTION = (
    "real-code suite: 60 kernels as people write numeric Python (lists, objects, NumPy loops "
    "and expressions, tiny helpers, strings); original vs compiled vs hand vs numba"
)

ORIGINAL = "original"
COMPILED = "compiled"
HAND = "hand"
NUMBA = "numba"

#: Issue 11's targets: never under this speedup; compiled within this factor of hand's time;
#: this geometric mean of the non-vectorized kernels.
SLOWER_BELOW = 0.97
HAND_FACTOR = 1.25
TARGET_GEOMEAN = 1.5

#: glibc's settings for giving freed memory back to the kernel (as in bench_numpy).
ALLOCATOR_VARIABLES: tuple[str, ...] = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_")

OK = "ok"
WRONG = "WRONG"
CRASH = "CRASH"
HAND_WRONG = "HAND-WRONG"


@dataclass
class Result:
    """One kernel's outcome: its check, and its timings (median ns per call) if it was timed."""

    name: str
    category: str
    vectorized: bool
    hand_vectorized: bool = False
    status: str = OK
    detail: str = ""
    median_ns: dict[str, float] = field(default_factory=dict)
    paired_speedup: float = math.nan
    numba_note: str = ""
    faults_per_call: dict[str, float] = field(default_factory=dict)

    @property
    def timed(self) -> bool:
        return bool(self.median_ns)

    def speedup(self, variant: str = COMPILED) -> float:
        """Original time / variant time (> 1: the variant is faster); NaN if not timed."""
        if variant not in self.median_ns:
            return math.nan
        return self.median_ns[ORIGINAL] / self.median_ns[variant]

    @property
    def vs_hand(self) -> float:
        """Compiled time / hand time (<= 1: as fast as the hand rewrite); NaN without one."""
        if HAND not in self.median_ns:
            return math.nan
        return self.median_ns[COMPILED] / self.median_ns[HAND]


# ------------------------------------------------------------------ checking


def first_difference(original: Callable[..., object], other: Callable[..., object],
                     args: Sequence[object]) -> str | None:
    """How a call of ``other`` differs observably from one of ``original`` (on copies of
    ``args``), or None when it does not."""
    from symcompile.runtime.oracle import explain_observation_difference, observe

    return explain_observation_difference(observe(original, tuple(args)),
                                          observe(other, tuple(args)))


def check_kernel(kernel: Any, compiled: Callable[..., object], args: Sequence[object],
                 result: Result) -> None:
    """Set ``result.status``/``detail`` from the oracle's comparison of the variants."""
    from symcompile.runtime.oracle import observe

    original = observe(kernel.fn, tuple(args))
    if not original.returned:
        result.status, result.detail = CRASH, f"the original {original.describe()}: fix the inputs"
        return
    found = first_difference(kernel.fn, compiled, args)
    if found is not None:
        crashed = not observe(compiled, tuple(args)).returned
        result.status = CRASH if crashed else WRONG
        result.detail = found
        return
    if kernel.hand is not None:
        found = first_difference(kernel.fn, kernel.hand, args)
        if found is not None:
            result.status, result.detail = HAND_WRONG, found


def numba_variant(kernel: Any, args: Sequence[object]) -> tuple[Callable[..., object] | None, str]:
    """``numba.njit(kernel.fn)`` if numba is installed, compiles it and gives the same result
    (else None); and a note saying why not."""
    if importlib.util.find_spec("numba") is None:
        return None, "not installed"
    numba = importlib.import_module("numba")

    from symcompile.runtime.oracle import explain_difference

    jitted = numba.njit(kernel.fn)
    try:
        expected = kernel.fn(*args)
        found = explain_difference(expected, jitted(*args))
    except Exception as exc:  # numba refuses most object code: a note, not a failure
        return None, f"does not compile ({type(exc).__name__})"
    if found is not None:
        return None, "different result"
    return jitted, ""


# ------------------------------------------------------------------ running


def run_kernel(kernel: Any, config: BenchConfig, use_numba: bool) -> Result:
    """Check one kernel's variants, then time them round-robin on CPU time."""
    import symcompile as sc

    result = Result(kernel.name, kernel.category, kernel.vectorized, kernel.hand_vectorized)
    args = kernel.make_args(False)
    try:
        compiled = sc.symbolic(kernel.fn)
    except Exception as exc:  # a compiler failure is a finding to report, not a crash of the run
        result.status, result.detail = CRASH, f"symbolic() raised {type(exc).__name__}: {exc}"
        return result
    check_kernel(kernel, compiled, args, result)
    if result.status != OK:
        return result
    variants: dict[str, Callable[..., object]] = {ORIGINAL: kernel.fn, COMPILED: compiled}
    if kernel.hand is not None:
        variants[HAND] = kernel.hand
    if use_numba:
        jitted, result.numba_note = numba_variant(kernel, args)
        if jitted is not None:
            variants[NUMBA] = jitted
    samples = measure(variants, config.repeats, args=args, target_ns=config.target_ns,
                      clock=time.process_time_ns)
    result.median_ns = {name: statistics.median(values) for name, values in samples.items()}
    result.paired_speedup = statistics.median(
        1.0 / r for r in paired_ratios(samples, COMPILED, ORIGINAL))
    if kernel.vectorized:
        result.faults_per_call = {name: faults_per_call(fn, args)
                                  for name, fn in variants.items()}
    return result


def faults_per_call(fn: Callable[..., object], args: Sequence[object], calls: int = 20) -> float:
    """Minor page faults per call of ``fn(*args)`` (after one warm-up call): what glibc's
    giving large freed arrays back to the kernel and faulting them in again costs."""
    fn(*args)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(calls):
        fn(*args)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / calls


# ------------------------------------------------------------------ reporting


def geometric_mean(values: Sequence[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else math.nan


def _cell(value: float, form: str) -> str:
    return "-" if math.isnan(value) else format(value, form)


def kernel_line(result: Result, widths: Sequence[int], use_numba: bool) -> str:
    if not result.timed:
        return (f"{result.name:<{widths[0]}}  {result.category:<{widths[1]}}  {result.status} "
                f"(not timed)")
    original_us = result.median_ns[ORIGINAL] / 1e3
    cells = [
        _cell(original_us, ".1f" if original_us >= 10 else ".3f"),
        _cell(result.speedup(), ".2f") + "x",
        _cell(result.paired_speedup, ".2f") + "x",
        _cell(result.vs_hand, ".2f") + ("v" if result.hand_vectorized else " "),
        _cell(result.speedup(HAND), ".2f") + ("x" if HAND in result.median_ns else ""),
    ]
    if use_numba:
        cells.append(_cell(result.speedup(NUMBA), ".2f") + "x" if NUMBA in result.median_ns
                     else result.numba_note or "-")
    marks = []
    if result.speedup() < SLOWER_BELOW:
        marks.append(f"SLOWER (< {SLOWER_BELOW}x)")
    if result.vs_hand > HAND_FACTOR and not result.hand_vectorized:
        marks.append(f"> {HAND_FACTOR}x hand")
    head = f"{result.name:<{widths[0]}}  {result.category:<{widths[1]}}"
    body = "  ".join(cell.rjust(width) for cell, width in zip(cells, widths[2:]))
    return f"{head}  {body}  {'; '.join(marks)}".rstrip()


def format_report(results: Sequence[Result], use_numba: bool) -> str:
    header = ["kernel", "category", "orig µs", "speedup", "paired", "comp/hand", "hand"]
    if use_numba:
        header.append("numba")
    widths = [max(len(header[0]), *(len(r.name) for r in results)),
              max(len(header[1]), *(len(r.category) for r in results)),
              8, 8, 7, 10, 8, 22][: len(header)]
    lines = ["  ".join(h.ljust(w) if i < 2 else h.rjust(w)
                       for i, (h, w) in enumerate(zip(header, widths))),
             "  ".join("-" * w for w in widths)]
    lines.extend(kernel_line(r, widths, use_numba) for r in results)
    lines.append("(speedup = original time / compiled time, medians of CPU time; paired = median "
                 "of the per-repeat ratios;\n comp/hand = compiled time / hand time, v: the hand "
                 "version vectorizes the loop with NumPy; hand = the hand version's speedup)")
    return "\n".join(lines)


def repro(name: str) -> str:
    """A shell command that runs the compiled kernel ``name`` on its benchmark inputs."""
    return ('python -c "import symcompile as sc; from benchmarks.real import all_kernels; '
            f"k = {{x.name: x for x in all_kernels()}}['{name}']; "
            'print(sc.symbolic(k.fn)(*k.make_args(False)))"')


def format_faults(results: Sequence[Result]) -> str:
    """Page faults per call of each variant of the whole-array kernels."""
    lines = ["minor page faults per call (whole-array kernels; "
             + ", ".join(f"{name}" for name in (ORIGINAL, COMPILED, HAND)) + "):"]
    for result in results:
        if result.faults_per_call:
            counts = " / ".join(f"{result.faults_per_call[name]:.0f}"
                                for name in (ORIGINAL, COMPILED, HAND)
                                if name in result.faults_per_call)
            lines.append(f"  {result.name:<14} {counts}")
    return "\n".join(lines)


def allocator_line() -> str:
    """What decides whether large freed arrays go back to the kernel (see bench_numpy)."""
    settings = [f"{name}={os.environ[name]}" for name in ALLOCATOR_VARIABLES
                if name in os.environ]
    return "allocator:  " + (", ".join(settings) or "glibc defaults (the whole-array kernels' "
                                                    "times depend on the heap's state)")


def summary(results: Sequence[Result]) -> dict[str, Any]:
    """The headline figures, for the report and the JSON file."""
    timed = [r for r in results if r.timed]
    scalar = [r for r in timed if not r.vectorized]
    worst = min(timed, key=lambda r: r.speedup(), default=None)
    with_hand = [r for r in timed if not math.isnan(r.vs_hand)]
    same_style = [r for r in with_hand if not r.hand_vectorized]
    return {
        "kernels": len(results),
        "timed": len(timed),
        "failures": {r.name: f"{r.status}: {r.detail}" for r in results if r.status != OK},
        "geomean_all": geometric_mean([r.speedup() for r in timed]),
        "geomean_non_vectorized": geometric_mean([r.speedup() for r in scalar]),
        # issue 11's target counts no vectorized loop: neither whole-array code nor the NumPy
        # loops whose rewrite is array code (which vectorize_loops may now make of them)
        "geomean_python_loops": geometric_mean(
            [r.speedup() for r in scalar if not r.hand_vectorized]),
        "geomean_same_style_hand_non_vectorized": geometric_mean(
            [r.speedup(HAND) for r in scalar if HAND in r.median_ns and not r.hand_vectorized]),
        "worst": {"kernel": worst.name, "speedup": worst.speedup()} if worst else None,
        "slower": {r.name: r.speedup() for r in timed if r.speedup() < SLOWER_BELOW},
        "with_hand": len(with_hand),
        "with_same_style_hand": len(same_style),
        "over_hand_factor": {r.name: r.vs_hand for r in same_style if r.vs_hand > HAND_FACTOR},
        "vs_vectorized_hand": {r.name: r.vs_hand for r in with_hand if r.hand_vectorized},
    }


def format_summary(figures: Mapping[str, Any]) -> str:
    worst = figures["worst"]
    lines = [
        f"kernels: {figures['kernels']}, timed: {figures['timed']}, "
        f"with a hand reference: {figures['with_hand']}",
        f"geometric mean speedup, all kernels:           {figures['geomean_all']:.3f}x",
        f"geometric mean speedup, all but whole-array:   {figures['geomean_non_vectorized']:.3f}x",
        f"  without the vectorizable array loops:        {figures['geomean_python_loops']:.3f}x"
        f"  (target >= {TARGET_GEOMEAN}x)",
        f"  same-style hand rewrites, non-vectorized:    "
        f"{figures['geomean_same_style_hand_non_vectorized']:.3f}x (where there is one)",
    ]
    if worst:
        lines.append(f"worst speedup: {worst['speedup']:.3f}x ({worst['kernel']})")
    slower = figures["slower"]
    lines.append(f"under {SLOWER_BELOW}x: " + (", ".join(
        f"{name} {value:.2f}x" for name, value in sorted(slower.items(), key=lambda kv: kv[1]))
        or "none"))
    over = figures["over_hand_factor"]
    lines.append(f"compiled over {HAND_FACTOR}x the time of a same-style hand rewrite: "
                 f"{len(over)} of {figures['with_same_style_hand']}" + _ratios(over))
    vectorized = figures["vs_vectorized_hand"]
    lines.append(f"compiled / a vectorized hand rewrite: {len(vectorized)} kernels, geometric "
                 f"mean {geometric_mean(list(vectorized.values())):.1f}")
    for name, text in figures["failures"].items():
        lines.append(f"FAILED {name}: {text}")
    return "\n".join(lines)


def _ratios(values: Mapping[str, float]) -> str:
    ordered = sorted(values.items(), key=lambda kv: -kv[1])
    return (": " + ", ".join(f"{name} {value:.2f}" for name, value in ordered)) if ordered else ""


def write_json(path: str, results: Sequence[Result], figures: Mapping[str, Any],
               config: BenchConfig) -> None:
    import numpy
    import platform

    data = {
        "benchmark": NAME,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "repeats": config.repeats,
        "target_ms": config.target_ns / 1e6,
        "clock": "process_time_ns",
        "summary": figures,
        "kernels": [{**asdict(r), "speedup": r.speedup(), "vs_hand": r.vs_hand,
                     "hand_speedup": r.speedup(HAND)} for r in results],
    }
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file, indent=1, allow_nan=True)
        file.write("\n")


def run(config: BenchConfig) -> int:
    """Check and time every kernel; print the report; return the process exit code."""
    if not print_header(NAME, DESCRIPTION):
        return 1
    from benchmarks.real import all_kernels

    use_numba = importlib.util.find_spec("numba") is not None
    print(f"clock:      CPU time (time.process_time_ns), {config.repeats} round-robin repeats, "
          f"~{config.target_ns / 1e6:g} ms per timing")
    print(allocator_line())
    print(f"numba:      {'installed: extra column' if use_numba else 'not installed: no column'}")
    print()
    results = []
    for kernel in all_kernels():
        result = run_kernel(kernel, config, use_numba)
        if result.status != OK:
            print(f"{result.status}: {kernel.name}: {result.detail}\n  repro: {repro(kernel.name)}",
                  flush=True)
        results.append(result)
    print(format_report(results, use_numba))
    print()
    print(format_faults(results))
    print()
    figures = summary(results)
    print(format_summary(figures))
    if config.json_path:
        write_json(config.json_path, results, figures, config)
        print(f"(results written to {config.json_path})")
    return 1 if figures["failures"] else 0
