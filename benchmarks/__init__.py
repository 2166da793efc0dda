"""symcompile benchmarks: ``python -m benchmarks`` (also reached as ``symcompile bench``).

Each benchmark case is a module of this package with ``NAME``, ``DESCRIPTION`` and
``run(config: benchmarks.timing.BenchConfig) -> int``; register it in ``BENCHMARKS`` below
(name -> module path, imported lazily so one case's imports never break the others).
Shared measuring and reporting code lives in ``benchmarks.timing``.
"""

from __future__ import annotations

#: Benchmark name -> module implementing it, in the order they run by default.
BENCHMARKS: dict[str, str] = {
    "calls": "benchmarks.bench_calls",
    "loops": "benchmarks.bench_loops",
}

__all__ = ["BENCHMARKS"]
