"""Command line for the benchmarks: ``python -m benchmarks [options] [NAME ...]``.

``main(argv)`` is also what ``symcompile bench`` calls. Every selected benchmark runs in this
one process, one after another; each measures its variants round-robin and reports ratios
(see ``benchmarks.timing``). Exit code 0 when every benchmark ran and its checks passed.

BLAS is pinned to one thread (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and
``MKL_NUM_THREADS`` set to 1) at the top of this module, before numpy is imported. When numpy
was imported first (``symcompile bench``), a benchmark that needs single-threaded BLAS runs in a
child ``python -m benchmarks NAME`` instead, with the same settings.
"""

from __future__ import annotations

import os
import sys

from benchmarks import BENCHMARKS, BLAS_THREAD_VARIABLES

# Single-threaded BLAS, set before anything imports numpy (symcompile does): OpenBLAS, OpenMP
# and MKL read these variables once, when numpy loads its BLAS. Through `symcompile bench` numpy
# is already loaded, too late to pin it here: `main` then runs the benchmarks that need it
# (SINGLE_THREADED_BLAS) in a child process.
BLAS_PINNED = "numpy" not in sys.modules
if BLAS_PINNED:
    os.environ.update(dict.fromkeys(BLAS_THREAD_VARIABLES, "1"))

import argparse
import importlib
import subprocess
import time
from pathlib import Path

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
            "Measure symcompile-compiled code against the original and hand-written Python "
            "and numpy, side by side in one process (round-robin, medians, ratios; BLAS "
            "single-threaded)."
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
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="also write the results as JSON to PATH (benchmark 'real')")
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
    config = BenchConfig(repeats=repeats, target_ns=target_ns, quick=args.quick,
                         json_path=args.json and os.path.abspath(args.json))

    status = 0
    start = time.perf_counter()
    for index, name in enumerate(args.names or list(BENCHMARKS)):
        if index:
            print()
        module = importlib.import_module(BENCHMARKS[name])
        if getattr(module, "SINGLE_THREADED_BLAS", False) and not BLAS_PINNED:
            code = run_in_child(name, config)
        else:
            code = module.run(config)
        if code:
            print(f"benchmark {name!r} failed (exit code {code})")
            status = status or code
    print(f"\n(benchmarks took {time.perf_counter() - start:.1f} s)")
    return status


def run_in_child(name: str, config: BenchConfig) -> int:
    """Run one benchmark as ``python -m benchmarks NAME`` with the same settings, in a child
    process whose BLAS is single-threaded from the start; return its exit code."""
    argv = [sys.executable, "-m", "benchmarks", name, "--repeats", str(config.repeats),
            "--target-ms", repr(config.target_ns / 1e6)]
    if config.quick:
        argv.append("--quick")
    if config.json_path is not None:
        argv += ["--json", config.json_path]
    env = {**os.environ, **dict.fromkeys(BLAS_THREAD_VARIABLES, "1")}
    print(f"(numpy was imported before BLAS could be pinned: running {name!r} in a child "
          f"process with {', '.join(f'{v}=1' for v in BLAS_THREAD_VARIABLES)})", flush=True)
    checkout = Path(__file__).resolve().parent.parent
    return subprocess.run(argv, cwd=checkout, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
