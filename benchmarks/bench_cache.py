"""Benchmark case "cache": a warm start from the disk cache against a cold compile.

Each run is a new Python process (a subprocess pair per repeat): it imports a module whose
function is `@symbolic(cache=True)` and times its first call, which compiles (cold: an empty
cache directory) or reads the version the previous process wrote (warm). Functions are
bench_compile's shapes (the add chain and the float kernel) at a few sizes. The report gives
the median first-call time of each and the ratio cold / warm, and checks that the warm process
read its version from disk and returned the same bits as the cold one.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_compile import chain_source, kernel_source
from benchmarks.timing import BenchConfig, print_header

NAME = "cache"
DESCRIPTION = "warm start from the disk cache vs cold compile, each in a new process"

CASES = {"chain": (chain_source, "1.5, 2"), "kernel": (kernel_source, "0.5, 0.25, 0.125")}
SIZES: tuple[int, ...] = (10, 160, 300)
QUICK_SIZES: tuple[int, ...] = (10, 160)

FIRST_CALL = """
import json, sys, time
import symcompile as sc
import {module}
start = time.perf_counter()
result = {module}.f({args})
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "result": float(result).hex(),
                  "disk": list(sc.cache_info({module}.f).disk)}}))
"""


def first_call(directory: Path, module: str, args: str, cache: Path) -> dict[str, object]:
    """The first call of `module.f` in a new process caching in `cache`: its time and result."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (root, directory))),
           "SYMCOMPILE_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", FIRST_CALL.format(module=module, args=args)],
                          capture_output=True, env=env, timeout=600, check=True)
    found: dict[str, object] = json.loads(done.stdout.decode().splitlines()[-1])
    return found


def measure_case(directory: Path, name: str, statements: int, repeats: int) -> tuple[float, float]:
    """(median cold seconds, median warm seconds) for one function; checks each warm run."""
    make, args = CASES[name]
    module = f"cached_{name}_{statements}"
    text = "import symcompile as _sc\n" + make(statements) + "\nf = _sc.symbolic(cache=True)(f)\n"
    (directory / f"{module}.py").write_text(text)
    cold, warm = [], []
    for repeat in range(repeats):
        cache = directory / f"cache_{module}_{repeat}"
        compiled = first_call(directory, module, args, cache)
        loaded = first_call(directory, module, args, cache)
        if not str(loaded["disk"]).startswith("['disk hit") or loaded["result"] != compiled["result"]:
            raise AssertionError(f"{module}: warm run {loaded} after cold run {compiled}")
        cold.append(float(str(compiled["seconds"])))
        warm.append(float(str(loaded["seconds"])))
    return statistics.median(cold), statistics.median(warm)


def run(config: BenchConfig) -> int:
    if not print_header(NAME, DESCRIPTION):
        return 1
    sizes = QUICK_SIZES if config.quick else SIZES
    repeats = 3 if config.quick else 5
    print(f"first call in a new process, median of {repeats} (cold: compile; warm: disk)")
    print(f"{'function':<16}{'cold ms':>10}{'warm ms':>10}{'cold/warm':>11}")
    rows = []
    with tempfile.TemporaryDirectory() as name:
        for case in CASES:
            for statements in sizes:
                cold, warm = measure_case(Path(name), case, statements, repeats)
                rows.append({"case": case, "statements": statements, "cold": cold, "warm": warm})
                print(f"{case + ' ' + str(statements):<16}{cold * 1e3:>10.2f}{warm * 1e3:>10.2f}"
                      f"{cold / warm:>10.1f}x", flush=True)
    if config.json_path:
        Path(config.json_path).write_text(json.dumps(rows, indent=1))
    return 0
