"""Smoke tests of the numpy benchmark (benchmarks/bench_numpy.py), kept to a few seconds: tiny
sizes and one repeat. They check that every variant of every case returns bit-identical arrays,
that the check would notice a one-bit difference, and that the whole report runs; never timings.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import symcompile as sc
from benchmarks import BENCHMARKS, BLAS_THREAD_VARIABLES, bench_numpy
from benchmarks.timing import BenchConfig

ROOT = Path(__file__).resolve().parent.parent

TINY_MLPS = (
    bench_numpy.MLPCase(bench_numpy.TEXTBOOK_WIDTHS, 1, bench_numpy.speedup_at_least(1.2),
                        bench_numpy.speedup_at_least(1.3), "textbook"),
    bench_numpy.MLPCase((8, 8, 8, 2), 3, bench_numpy.speedup_at_least(1.8), None, "tiny"),
)
# Odd sizes, so numpy's SIMD loops also run their scalar tails.
TINY_PLAN = bench_numpy.Plan((1_003,), (1_003,), TINY_MLPS, extras=False)


def test_registered_as_numpy() -> None:
    assert BENCHMARKS["numpy"] == "benchmarks.bench_numpy"
    assert bench_numpy.NAME == "numpy"
    assert bench_numpy.SINGLE_THREADED_BLAS


@pytest.mark.parametrize("case", [bench_numpy.EXPR_CASE, bench_numpy.BLACK_SCHOLES_CASE],
                         ids=lambda case: case.name)
@pytest.mark.parametrize("n", [1, 7, 1_003])
def test_array_case_variants_are_bit_identical(case: bench_numpy.ArrayCase, n: int) -> None:
    variants = {
        bench_numpy.BASELINE: case.imperative,
        bench_numpy.COMPILED: sc.symbolic(case.imperative),
        bench_numpy.HAND: case.hand,
    }
    assert bench_numpy.check_results(variants, case.make_args(n)) == []


@pytest.mark.parametrize(("widths", "batch"), [((8, 8, 8, 2), 1), ((8, 8, 8, 2), 5),
                                               ((64, 32, 16, 2), 3)])
def test_mlp_variants_are_bit_identical(widths: tuple[int, ...], batch: int) -> None:
    net = bench_numpy.make_net(widths)
    flat = bench_numpy.make_flat(net)
    variants = {
        bench_numpy.BASELINE: net,
        bench_numpy.FLAT: flat,
        bench_numpy.COMPILED: sc.symbolic(flat),
        bench_numpy.HAND_MLP: bench_numpy.make_hand(net),
        bench_numpy.HAND_BUFFERS: bench_numpy.make_hand_buffers(net, batch),
    }
    assert bench_numpy.check_results(variants, (bench_numpy.mlp_input(widths, batch),)) == []


def test_the_check_notices_one_bit_in_one_array() -> None:
    def off_by_one_ulp(*args: object) -> tuple[np.ndarray, np.ndarray]:
        call, put = bench_numpy.black_scholes(*args)  # type: ignore[arg-type]
        put[5] = np.nextafter(put[5], np.inf)
        return call, put

    variants = {bench_numpy.BASELINE: bench_numpy.black_scholes, "wrong": off_by_one_ulp}
    problems = bench_numpy.check_results(variants, bench_numpy.black_scholes_args(10))
    assert len(problems) == 1
    assert "wrong differs from imperative at result[1]: element 5" in problems[0]


def test_peak_extra_memory_counts_numpy_buffers() -> None:
    args = bench_numpy.expr_args(100_000)
    unit = 100_000 * 8
    assert bench_numpy.peak_extra(bench_numpy.expr_hand, args, unit) == pytest.approx(2.0, abs=0.1)


def test_the_whole_report_at_tiny_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench_numpy.run_plan(BenchConfig(repeats=1, target_ns=100_000, quick=True), TINY_PLAN)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "check at N=1,003: imperative, compiled, hand in-place return bit-identical" in out
    assert out.count("check: all 5 variants return bit-identical arrays") == len(TINY_MLPS)
    assert "generated source (sc.source(compiled, x))" in out
    assert "summary: time ratios" in out
    assert "before 0.4733 s / after 0.2195 s per 1000 calls" in out  # next to the seed's
    assert "[miss]" in out or "[ok]" in out


def test_python_m_benchmarks_pins_blas_before_numpy_loads() -> None:
    env = {key: value for key, value in os.environ.items() if key not in BLAS_THREAD_VARIABLES}
    program = ("import benchmarks.__main__, numpy\n"
               "from benchmarks.bench_numpy import condition_lines\n"
               "print(condition_lines()[0])\n"
               "print(condition_lines()[1])\n")
    result = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert "NOT single-threaded" not in result.stdout
    assert "OPENBLAS_NUM_THREADS=1, OMP_NUM_THREADS=1, MKL_NUM_THREADS=1" in result.stdout
