"""Tests of the real-code benchmark (benchmarks/bench_real.py, kernels in benchmarks/real/).

On small inputs, every kernel's compiled, original and hand versions must agree by bits (and
in everything else the oracle observes), so the suite cannot rot; the check must notice a
wrong compiled result, a crash and a wrong hand reference; and the report runs end to end on
a few kernels. Never timings.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest

import symcompile as sc
from benchmarks import BENCHMARKS, bench_real
from benchmarks.real import CATEGORIES, Kernel, all_kernels
from benchmarks.timing import BenchConfig

KERNELS = all_kernels()
BY_NAME = {kernel.name: kernel for kernel in KERNELS}


def test_registered_as_real() -> None:
    assert BENCHMARKS["real"] == "benchmarks.bench_real"
    assert bench_real.NAME == "real"


def test_the_suite_is_big_enough_and_covers_every_style() -> None:
    assert len(KERNELS) >= 40
    assert sum(kernel.hand is not None for kernel in KERNELS) >= 15
    assert {kernel.category for kernel in KERNELS} == set(CATEGORIES)
    assert BY_NAME["gauss_decay"].vectorized and not BY_NAME["cantor_weight"].vectorized


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda kernel: kernel.name)
def test_compiled_original_and_hand_agree_by_bits(kernel: Kernel) -> None:
    result = bench_real.Result(kernel.name, kernel.category, kernel.vectorized)
    bench_real.check_kernel(kernel, sc.symbolic(kernel.fn), kernel.make_args(True), result)
    assert (result.status, result.detail) == (bench_real.OK, "")


def _one_ulp_more(value: float) -> float:
    return math.nextafter(value, math.inf)


def test_the_check_reports_a_wrong_compiled_result() -> None:
    kernel = BY_NAME["cantor_weight"]
    result = bench_real.Result(kernel.name, kernel.category, kernel.vectorized)

    def off_by_one_bit(i: int, j: int) -> float:
        return _one_ulp_more(kernel.fn(i, j))  # type: ignore[arg-type]

    bench_real.check_kernel(kernel, off_by_one_bit, kernel.make_args(True), result)
    assert result.status == bench_real.WRONG
    assert "return value differs" in result.detail


def test_the_check_reports_a_crash() -> None:
    kernel = BY_NAME["horner_poly"]
    result = bench_real.Result(kernel.name, kernel.category, kernel.vectorized)

    def crashes(xs: list[float]) -> list[float]:
        raise ValueError("compiler bug")

    bench_real.check_kernel(kernel, crashes, kernel.make_args(True), result)
    assert result.status == bench_real.CRASH
    assert "ValueError: compiler bug" in result.detail


def test_the_check_reports_a_mutated_argument() -> None:
    kernel = BY_NAME["prefix_sums"]
    result = bench_real.Result(kernel.name, kernel.category, kernel.vectorized)

    def mutates(xs: list[float]) -> object:
        out = kernel.fn(xs)
        xs.append(0.0)
        return out

    bench_real.check_kernel(kernel, mutates, kernel.make_args(True), result)
    assert result.status == bench_real.WRONG
    assert "mutation" in result.detail


def _wrong_hand_kernel() -> Kernel:
    kernel = BY_NAME["cantor_weight"]

    def hand(i: int, j: int) -> float:
        return _one_ulp_more(kernel.fn(i, j))  # type: ignore[arg-type]

    return Kernel("wrong_hand", kernel.category, kernel.fn, kernel.make_args, hand)


def test_the_check_reports_a_wrong_hand_reference() -> None:
    kernel = _wrong_hand_kernel()
    result = bench_real.Result(kernel.name, kernel.category, kernel.vectorized)
    bench_real.check_kernel(kernel, sc.symbolic(kernel.fn), kernel.make_args(True), result)
    assert result.status == bench_real.HAND_WRONG


def test_summary_figures() -> None:
    def timed(name: str, original: float, compiled: float, vectorized: bool = False,
              hand: float | None = None) -> bench_real.Result:
        result = bench_real.Result(name, "lists", vectorized)
        result.median_ns = {bench_real.ORIGINAL: original, bench_real.COMPILED: compiled}
        if hand is not None:
            result.median_ns[bench_real.HAND] = hand
        return result

    array_loop = timed("e", 100.0, 1.0, hand=1.0)
    array_loop.hand_vectorized = True  # a NumPy loop whose rewrite is array code: 100x
    results = [timed("a", 200.0, 100.0, hand=50.0), timed("b", 100.0, 200.0),
               timed("c", 100.0, 25.0, vectorized=True), array_loop,
               bench_real.Result("d", "lists", False, status=bench_real.WRONG, detail="bits")]
    figures = bench_real.summary(results)
    assert figures["geomean_all"] == pytest.approx((2.0 * 0.5 * 4.0 * 100.0) ** (1 / 4))
    assert figures["geomean_non_vectorized"] == pytest.approx(100.0 ** (1 / 3))
    assert figures["geomean_python_loops"] == pytest.approx(1.0)  # a and b only
    assert figures["worst"] == {"kernel": "b", "speedup": 0.5}
    assert figures["slower"] == {"b": 0.5}
    assert figures["over_hand_factor"] == {"a": 2.0}
    assert figures["failures"] == {"d": "WRONG: bits"}


def _small_inputs(kernel: Kernel) -> Callable[[bool], tuple[object, ...]]:
    """``kernel.make_args`` that always makes the small inputs."""
    return lambda _small: kernel.make_args(True)


def test_run_reports_and_writes_json(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chosen = (BY_NAME["cantor_weight"], BY_NAME["gauss_decay"], _wrong_hand_kernel())
    small = tuple(Kernel(k.name, k.category, k.fn, _small_inputs(k), k.hand) for k in chosen)
    monkeypatch.setattr("benchmarks.real.all_kernels", lambda: small)
    path = tmp_path / "real.json"
    config = BenchConfig(repeats=2, target_ns=200_000, json_path=str(path))
    assert bench_real.run(config) == 1  # the wrong hand reference is a failure
    out = capsys.readouterr().out
    assert "HAND-WRONG: wrong_hand" in out
    assert "HAND-WRONG (not timed)" in out
    assert "repro: python -c" in out and "['wrong_hand']" in out
    assert "geometric mean speedup, all kernels" in out
    data = json.loads(path.read_text())
    assert [k["name"] for k in data["kernels"]] == ["cantor_weight", "gauss_decay", "wrong_hand"]
    assert data["summary"]["timed"] == 2
    assert data["kernels"][0]["speedup"] > 0
    assert list(data["summary"]["failures"]) == ["wrong_hand"]
