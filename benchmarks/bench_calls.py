"""Benchmark case "calls": the cost of calling a compiled function.

The textbook's ``fancy_func`` (three calls to a tiny ``add``) is timed in five variants, all
called as ``fn(1, 2, 3, 4)`` and all returning 10:

* ``imperative``          - fancy_func as written (the baseline);
* ``compiled``            - ``symcompile.symbolic(fancy_func)``, through its call path;
* ``generated (direct)``  - the plain generated function, ``symcompile.compiled_function(...)``;
* ``hand-inlined``        - ``(a + b) + (c + d)`` written by hand;
* ``hand-folded``         - ``return 10``: the floor (a call that does no work).

The headline is the call-path overhead ``compiled / generated (direct)``: how much the
wrapper returned by ``symbolic`` adds on top of the generated code (target <= 1.05).

A new case (numpy expressions, an MLP, ...) is another module like this one: build a dict of
variants, check their results outside the timing, then ``measure`` / ``summarize`` /
``format_table`` from ``benchmarks.timing``, and register it in ``benchmarks.BENCHMARKS``.
"""

from __future__ import annotations

import statistics
import traceback
from collections.abc import Callable

from benchmarks.timing import (
    BenchConfig,
    format_table,
    measure,
    paired_ratios,
    print_header,
    summarize,
)
from symcompile.examples.fancy import fancy_func

NAME = "calls"
DESCRIPTION = "call overhead of fancy_func: imperative vs compiled vs generated vs hand-written"

ARGS: tuple[int, int, int, int] = (1, 2, 3, 4)
EXPECTED = 10
BASELINE = "imperative"
COMPILED = "compiled"
UNGUARDED = "compiled (guards=False)"
DIRECT = "generated (direct)"
HAND = "hand-inlined"
TARGET_OVERHEAD = 1.05
# targets against the hand-inlined function: with the guard on globals, and without it
TARGET_GUARDED = 1.3
TARGET_UNGUARDED = 1.05


def hand(a: int, b: int, c: int, d: int) -> int:
    """fancy_func inlined by hand."""
    return (a + b) + (c + d)


def folded(a: int, b: int, c: int, d: int) -> int:
    """fancy_func constant-folded by hand: the floor of any call."""
    return 10


def build_variants() -> tuple[dict[str, Callable[..., object]], str]:
    """Compile fancy_func with symcompile; return the variants (in display order) and the
    generated source."""
    import symcompile as sc

    compiled = sc.symbolic(fancy_func)
    compiled(*ARGS)  # compile (and cache) before anything is timed
    direct = sc.compiled_function(compiled, *ARGS)
    unguarded = sc.symbolic(fancy_func, guards=False)
    unguarded(*ARGS)
    source = compiled.source
    variants: dict[str, Callable[..., object]] = {
        BASELINE: fancy_func,
        COMPILED: compiled,
        UNGUARDED: unguarded,
        DIRECT: direct,
        HAND: hand,
        "hand-folded": folded,
    }
    return variants, str(source)


def check_results(variants: dict[str, Callable[..., object]]) -> list[str]:
    """Call every variant once (outside any timing); return a message per wrong result."""
    problems: list[str] = []
    for name, fn in variants.items():
        result = fn(*ARGS)
        if result != EXPECTED:
            problems.append(f"{name}{ARGS} returned {result!r}, expected {EXPECTED!r}")
    return problems


def run(config: BenchConfig) -> int:
    """Run the case and print its report; return a process exit code."""
    if not print_header(NAME, DESCRIPTION):
        return 1
    print()

    try:
        variants, source = build_variants()
    except Exception as exc:  # report any compiler failure as a failed benchmark, not a crash
        traceback.print_exc()
        print(f"error: could not build the variants with symcompile: {type(exc).__name__}")
        return 1
    print("generated source (compiled.source):")
    for line in source.rstrip().splitlines():
        print(f"    {line}")
    print()

    problems = check_results(variants)
    if problems:
        for problem in problems:
            print(f"error: {problem}")
        return 1
    print(f"check: all {len(variants)} variants return {EXPECTED} for fn{ARGS}")
    print()

    samples = measure(variants, config.repeats, args=ARGS, target_ns=config.target_ns)
    stats = summarize(samples)
    print(
        format_table(
            stats,
            BASELINE,
            title=f"fancy_func{ARGS}, {config.repeats} round-robin repeats, "
            f"~{config.target_ns / 1e6:g} ms per timing",
        )
    )
    print()

    overhead = stats[COMPILED].median / stats[DIRECT].median
    verdict = "ok" if overhead <= TARGET_OVERHEAD else "ABOVE TARGET"
    print(
        f"call-path overhead: compiled / generated(direct) = {overhead:.3f} "
        f"(target <= {TARGET_OVERHEAD:.2f})  [{verdict}]"
    )
    pairs = paired_ratios(samples, COMPILED, DIRECT)
    print(
        f"  per-repeat ratios: median {statistics.median(pairs):.3f}, "
        f"min {min(pairs):.3f}, max {max(pairs):.3f}"
    )
    for variant, target in ((COMPILED, TARGET_GUARDED), (UNGUARDED, TARGET_UNGUARDED)):
        ratio = stats[variant].median / stats[HAND].median
        verdict = "ok" if ratio <= target else "ABOVE TARGET"
        print(f"{variant} / hand-inlined = {ratio:.3f} (target <= {target:.2f})  [{verdict}]")
    return 0
