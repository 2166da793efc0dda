"""`python -m tests.fuzz`: run the fuzz campaign (see `tests/fuzz/__init__.py`).

Examples::

    python -m tests.fuzz --minutes 30                      # every kind, 30 minutes in all
    python -m tests.fuzz --minutes 5 --kinds hostile,edits --seed 7 --out /tmp/findings
    python -m tests.fuzz --cases 20 --kinds syntax         # 20 cases of a kind, no clock
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tests.fuzz import KINDS
from tests.fuzz.runner import report, run_campaign

KIND_HELP = {
    "programs": "random numeric modules of tests/program_generator.py",
    "numpy": "random NumPy programs of tests/test_numpy_fuzz.py",
    "syntax": "valid Python of every syntax kind in a function body",
    "sequences": "globals, helpers, static arguments and argument types changing between calls",
    "hostile": "arguments whose dunders misbehave or rebind globals",
    "edits": "the module's file edited on disk after import",
    "bignum": "huge ints, pow with three arguments, round with big negative digits",
    "loops": "loops indexing NumPy arrays (views, aliasing, dtypes) for vectorize_loops",
}


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fuzz",
        description="Fuzz symcompile: every call of a compiled function is compared with the "
        "original by the differential oracle; internal errors, hangs (per-case timeouts) and "
        "crashes are counted too. Each kind runs in its own time slice, each case in a worker "
        "subprocess. Every distinct finding is minimized and written to --out as a standalone "
        "reproduction (run it from the repository root), with summary.md.",
        epilog="kinds: " + "; ".join(f"{k}: {KIND_HELP[k]}" for k in KINDS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--minutes", type=float, default=10.0,
                        help="total campaign time, split evenly between the kinds (default 10)")
    parser.add_argument("--cases", type=int, default=None,
                        help="run this many cases of each kind instead of a time slice")
    parser.add_argument("--seed", type=int, default=0,
                        help="base seed: a seed and kind always give the same cases (default 0)")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help=f"comma-separated kinds to run (default: all: {','.join(KINDS)})")
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"),
                        help="directory for reproductions, summary.md and the worker's log "
                        "(default ./fuzz-findings)")
    parser.add_argument("--minimize-seconds", type=float, default=60.0,
                        help="time to shrink one case of a finding; 0: none (default 60)")
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        parser.error(f"unknown kinds {unknown}; choose from {', '.join(KINDS)}")
    args.kinds = kinds
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    start = time.monotonic()
    what = f"{args.cases} cases of each kind" if args.cases else f"{args.minutes:g} minutes"
    print(f"fuzz campaign: {what}, kinds {','.join(args.kinds)}, seed {args.seed}, "
          f"findings in {args.out}", flush=True)
    campaign = run_campaign(args.minutes, args.seed, args.kinds, args.out, args.cases,
                            args.minimize_seconds)
    print(f"\n{report(campaign)}\n\ntotal {(time.monotonic() - start) / 60:.1f} minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
