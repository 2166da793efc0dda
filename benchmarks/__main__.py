"""Command line for the benchmarks: ``python -m benchmarks [options] [NAME ...]``.

``main(argv)`` is also what ``symcompile bench`` calls. Every selected benchmark runs in this
one process, one after another; each measures its variants round-robin and reports ratios
(see ``benchmarks.timing``). Exit code 0 when every benchmark ran and its checks passed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time

from benchmarks import BENCHMARKS
from benchmarks.timing import (
    DEFAULT_REPEATS,
    DEFAULT_TARGET_NS,
    QUICK_REPEATS,
    QUICK_TARGET_NS,
    BenchConfig,
)


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser (``prog`` lets ``symcompile bench`` show its own name)."""
    parser = argparse.ArgumentParser(
        prog=prog or "python -m benchmarks",
        description=(
            "Measure call costs of symcompile-compiled code against plain and hand-written "
            "Python, side by side in one process (round-robin, medians, ratios)."
        ),
        epilog="benchmarks: "
        + ", ".join(BENCHMARKS)
        + ". The machine may be shared and noisy: compare ratios, not absolute times.",
    )
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"benchmarks to run (default: all of {', '.join(BENCHMARKS)})",
    )
    parser.add_argument(
        "--repeats",
        "-r",
        type=_positive_int,
        default=None,
        help=f"round-robin repeats per variant (default {DEFAULT_REPEATS}; "
        f"{QUICK_REPEATS} with --quick)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run: {QUICK_REPEATS} repeats, ~{QUICK_TARGET_NS / 1e6:g} ms per timing",
    )
    parser.add_argument(
        "--target-ms",
        type=float,
        default=None,
        help=f"approximate duration of one timing in ms (default "
        f"{DEFAULT_TARGET_NS / 1e6:g}; {QUICK_TARGET_NS / 1e6:g} with --quick)",
    )
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    return parser


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def main(argv: list[str] | None = None, *, prog: str | None = None) -> int:
    """Run the selected benchmarks; return the process exit code."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)

    if args.list:
        for name, module_name in BENCHMARKS.items():
            module = importlib.import_module(module_name)
            print(f"{name:<10} {module.DESCRIPTION}")
        return 0

    unknown = [name for name in args.names if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)} (known: {', '.join(BENCHMARKS)})")
    if args.target_ms is not None and args.target_ms <= 0:
        parser.error("--target-ms must be positive")

    repeats = args.repeats or (QUICK_REPEATS if args.quick else DEFAULT_REPEATS)
    if args.target_ms is not None:
        target_ns = round(args.target_ms * 1e6)
    else:
        target_ns = QUICK_TARGET_NS if args.quick else DEFAULT_TARGET_NS
    config = BenchConfig(repeats=repeats, target_ns=target_ns, quick=args.quick)

    status = 0
    start = time.perf_counter()
    for index, name in enumerate(args.names or list(BENCHMARKS)):
        if index:
            print()
        module = importlib.import_module(BENCHMARKS[name])
        code = module.run(config)
        if code:
            print(f"benchmark {name!r} failed (exit code {code})")
            status = status or code
    print(f"\n(benchmarks took {time.perf_counter() - start:.1f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
