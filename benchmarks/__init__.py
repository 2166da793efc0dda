"""symcompile benchmarks: ``python -m benchmarks`` (also reached as ``symcompile bench``).

Each benchmark case is a module of this package with ``NAME``, ``DESCRIPTION`` and
``run(config: benchmarks.timing.BenchConfig) -> int``; register it in ``BENCHMARKS`` below
(name -> module path, imported lazily so one case's imports never break the others).
A module that sets ``SINGLE_THREADED_BLAS = True`` is run with BLAS pinned to one thread (see
``benchmarks.__main__``). Shared measuring and reporting code lives in ``benchmarks.timing``.
This package itself must not import numpy: ``python -m benchmarks`` pins BLAS before numpy loads.
"""

from __future__ import annotations

#: Benchmark name -> module implementing it, in the order they run by default.
BENCHMARKS: dict[str, str] = {
    "calls": "benchmarks.bench_calls",
    "loops": "benchmarks.bench_loops",
    "numpy": "benchmarks.bench_numpy",
    "compile": "benchmarks.bench_compile",
    "real": "benchmarks.bench_real",
    "vectorize": "benchmarks.bench_vectorize",
    "lifetimes": "benchmarks.bench_lifetimes",
    "costs": "benchmarks.bench_costs",
    "cache": "benchmarks.bench_cache",
}

#: Environment variables that make OpenBLAS, OpenMP and MKL single-threaded; numpy's BLAS reads
#: them once, when numpy is first imported.
BLAS_THREAD_VARIABLES: tuple[str, ...] = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
)

__all__ = ["BENCHMARKS", "BLAS_THREAD_VARIABLES"]
