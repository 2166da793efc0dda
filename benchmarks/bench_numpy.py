"""Benchmark case "numpy": NumPy code as a student writes it, compiled, and optimized by hand.

This is the benchmark suite of issue 5 (NumPy-level optimization), measuring what symcompile
does TODAY. Every case has three kinds of variants, all returning bit-identical arrays (checked
by bits before anything is timed; a difference fails the benchmark):

* ``imperative``  - the code as written (the baseline);
* ``compiled``    - ``symcompile.symbolic`` of it, called through its normal call path;
* ``hand ...``    - hand-optimized numpy written in this file: the LIMIT for Python+numpy
  output. It computes the same floating-point operations in the same order as the imperative
  code, only into fewer, reused arrays (``np.multiply(u, b, out=u)``, ``np.maximum(t, 0,
  out=t)``), with ``np.dot`` for 2-D ``@``, biases pre-shaped to ``(1, n)``, numpy functions
  bound to local names once and the ReLU's 0 converted once to a float32 scalar (or, with
  buffers, a zero array); a value computed twice by the imperative code (``vol * sqrt_t``,
  ``strike * exp_rt``) is computed once. Nothing else: no other formula, no fused kernel, no
  other library. These are the rewrites issue 5 plans for the compiler.

The cases:

1. ``expr``: ``2*a + 3*b*b - c/(1+d)`` on four float64 arrays of 1e5 / 1e6 / 1e7 elements
   (1e7 only without ``--quick``). The hand version computes into two fresh arrays.
2. ``black_scholes``: European call and put prices for 1e5 / 1e6 options (float64 arrays of
   prices, strikes and years; rate and volatility Python floats), with a helper ``cnd()``: the
   cumulative normal by the usual Abramowitz-Stegun polynomial (``np.abs``, ``np.exp``,
   ``np.where``), deterministic and the same operations in every variant. The hand version
   computes ``cnd`` in place in the array it is given, with two work arrays, and ``np.where``
   as ``np.copyto(..., where=mask)``.
3. ``mlp``: a multilayer perceptron as a student writes it: ``class Dense`` (``W``, ``b``, an
   activation function) and ``class Sequential`` (a list of layers, ``__call__`` loops over
   them), float32, widths 512-256-128-2 at batch 1, 64 and 1024, and tiny widths 8-8-8-2 at
   batch 1 (dispatch-bound). Its ``compiled`` row is ``sc.symbolic(net)``: the object
   compiled (its layers read, their ``__call__`` and the activation inlined, its arrays bound
   by reference). The net's forward pass flattened into one function by hand and left
   uncompiled is also timed (``flat``): the gain of removing the Python structure alone. Two
   hand-optimized versions: ``hand`` (``np.dot``, in-place bias add and ``np.maximum(t, 0,
   out=t)``, fresh arrays every call) and ``hand + buffers`` (the hidden layers' outputs in
   buffers kept between calls and ``np.dot(out=)``; the returned array is still fresh, as
   ``@symbolic(reuse_buffers=True)`` of issue 5 is to do). The issue's target "with buffer
   reuse" has no compiled variant to measure yet: its row says "not built" and counts as a
   miss.

Every row reports time ratios from one run (medians of round-robin repeats, as in the other
benchmarks): compiled / imperative, compiled / hand and hand / imperative (< 1 means the left
side is faster), each next to its target from issue 5's table, marked ``[ok]`` or ``[miss]``;
and, for cases 1 and 2, the peak extra memory of one call (``tracemalloc``: numpy reports its
array buffers to it) in units of one input array, including the returned arrays. The MLP at
512-256-128-2, batch 1, is also printed in the textbook's form, "before / after: X s per 1000
calls", next to the seed chapter's MXNet and TorchScript figures.

Conditions, printed with the results: BLAS single-threaded (``python -m benchmarks`` sets
``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` to 1 before numpy is
imported; the report shows what the loaded OpenBLAS says), and the allocator settings
(``MALLOC_TRIM_THRESHOLD_`` / ``MALLOC_MMAP_THRESHOLD_``: with glibc's defaults, freed large
temporaries go back to the kernel and are page-faulted back on the next call, which is part of
what fewer temporaries save).

Optional extras, never required: where ``numexpr`` is importable, ``numexpr.evaluate`` (one
thread) joins case 1's round-robin; where ``torch`` is importable, eager torch and
``torch.jit.script`` (one thread, no autograd) are timed for case 1 and for the textbook MLP,
in their own round-robin (they take tensors). Where a package is missing, one line says so.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import itertools
import os
import statistics
import traceback
import tracemalloc
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from benchmarks import BLAS_THREAD_VARIABLES
from benchmarks.timing import (
    BenchConfig,
    Stats,
    format_table,
    measure,
    paired_ratios,
    print_header,
    summarize,
)

NAME = "numpy"
DESCRIPTION = (
    "numpy kernels (expression, Black-Scholes, MLP): imperative vs compiled vs hand-optimized "
    "numpy, with peak memory"
)

BASELINE = "imperative"
COMPILED = "compiled"
FLAT = "flat (uncompiled)"
HAND = "hand in-place"
HAND_MLP = "hand"
HAND_BUFFERS = "hand + buffers"
NUMEXPR = "numexpr"

#: Run with BLAS pinned to one thread (``benchmarks.__main__`` does it before numpy loads).
SINGLE_THREADED_BLAS = True
ALLOCATOR_VARIABLES: tuple[str, ...] = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_")

SEED = 20240611

#: The seed chapter's textbook figures: seconds for 1000 calls of the MLP at batch 1.
SEED_FIGURES: tuple[tuple[str, float, float], ...] = (
    ("MXNet hybridize (seed)", 0.4733, 0.2195),
    ("TorchScript (seed)", 0.1361, 0.1204),
)

Arrays = tuple[np.ndarray, ...]
T = TypeVar("T")


# ------------------------------------------------------------------- 1. expr

EXPR_TEXT = "2*a + 3*b*b - c/(1+d)"


def expr(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The expression as written."""
    return 2 * a + 3 * b * b - c / (1 + d)


def expr_hand(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The same operations in the same order, computed into two fresh arrays."""
    t = np.multiply(2, a)
    u = np.multiply(3, b)
    np.multiply(u, b, out=u)
    np.add(t, u, out=t)
    np.add(1, d, out=u)
    np.divide(c, u, out=u)
    np.subtract(t, u, out=t)
    return t


def expr_args(n: int) -> Arrays:
    rng = np.random.default_rng(SEED)
    a, b, c = (rng.uniform(-2.0, 2.0, n) for _ in range(3))
    d = rng.uniform(0.5, 3.0, n)  # 1 + d stays away from 0
    return a, b, c, d


# ----------------------------------------------------------- 2. Black-Scholes

# Abramowitz-Stegun 26.2.17 coefficients of the cumulative normal distribution.
A1 = 0.31938153
A2 = -0.356563782
A3 = 1.781477937
A4 = -1.821255978
A5 = 1.330274429
RSQRT2PI = 0.39894228040143267793994605993438  # 1 / sqrt(2 pi)
RATE = 0.02
VOLATILITY = 0.30


def cnd(d: np.ndarray) -> np.ndarray:
    """The cumulative normal distribution at every element of d (polynomial approximation)."""
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    ret = RSQRT2PI * np.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
    return np.where(d > 0, 1.0 - ret, ret)


def black_scholes(price: np.ndarray, strike: np.ndarray, years: np.ndarray, rate: float,
                  vol: float) -> tuple[np.ndarray, np.ndarray]:
    """European call and put prices, as a student writes them."""
    sqrt_t = np.sqrt(years)
    d1 = (np.log(price / strike) + (rate + 0.5 * vol * vol) * years) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    cnd1 = cnd(d1)
    cnd2 = cnd(d2)
    exp_rt = np.exp(-rate * years)
    call = price * cnd1 - strike * exp_rt * cnd2
    put = strike * exp_rt * (1.0 - cnd2) - price * (1.0 - cnd1)
    return call, put


def cnd_in_place(d: np.ndarray, k: np.ndarray, p: np.ndarray) -> None:
    """``d[:] = cnd(d)``, the same operations in the same order, with work arrays k and p."""
    mask = np.greater(d, 0)
    np.abs(d, out=k)
    np.multiply(0.2316419, k, out=k)
    np.add(1.0, k, out=k)
    np.divide(1.0, k, out=k)
    np.multiply(k, A5, out=p)
    np.add(A4, p, out=p)
    np.multiply(k, p, out=p)
    np.add(A3, p, out=p)
    np.multiply(k, p, out=p)
    np.add(A2, p, out=p)
    np.multiply(k, p, out=p)
    np.add(A1, p, out=p)
    np.multiply(k, p, out=p)
    np.multiply(-0.5, d, out=k)
    np.multiply(k, d, out=k)
    np.exp(k, out=k)
    np.multiply(RSQRT2PI, k, out=k)
    np.multiply(k, p, out=d)
    np.subtract(1.0, d, out=p)
    np.copyto(d, p, where=mask)


def black_scholes_hand(price: np.ndarray, strike: np.ndarray, years: np.ndarray, rate: float,
                       vol: float) -> tuple[np.ndarray, np.ndarray]:
    """black_scholes computed into five arrays (two of them returned)."""
    vs = np.sqrt(years)
    np.multiply(vol, vs, out=vs)  # vol * sqrt_t, once
    d1 = np.divide(price, strike)
    np.log(d1, out=d1)
    t = np.multiply(rate + 0.5 * vol * vol, years)
    np.add(d1, t, out=d1)
    np.divide(d1, vs, out=d1)
    d2 = np.subtract(d1, vs, out=vs)
    work = np.empty_like(d1)
    cnd_in_place(d1, t, work)
    cnd_in_place(d2, t, work)
    np.multiply(-rate, years, out=t)
    np.exp(t, out=t)
    np.multiply(strike, t, out=t)  # strike * exp_rt, once
    call = np.multiply(price, d1, out=work)
    np.subtract(1.0, d1, out=d1)
    np.multiply(price, d1, out=d1)  # price * (1 - cnd1)
    np.subtract(call, np.multiply(t, d2), out=call)
    np.subtract(1.0, d2, out=d2)
    np.multiply(t, d2, out=d2)
    put = np.subtract(d2, d1, out=d2)
    return call, put


def black_scholes_args(n: int) -> tuple[object, ...]:
    rng = np.random.default_rng(SEED + 1)
    return (rng.uniform(5.0, 30.0, n), rng.uniform(1.0, 100.0, n), rng.uniform(0.25, 10.0, n),
            RATE, VOLATILITY)


# -------------------------------------------------------------------- 3. MLP


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0)


class Dense:
    """A fully connected layer: ``activation(x @ W + b)``."""

    def __init__(self, W: np.ndarray, b: np.ndarray,
                 activation: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        self.W = W
        self.b = b
        self.activation = activation

    def __call__(self, x: np.ndarray) -> np.ndarray:
        y = x @ self.W + self.b
        if self.activation is not None:
            y = self.activation(y)
        return y


class Sequential:
    """Layers applied one after another."""

    def __init__(self, layers: Sequence[Dense]) -> None:
        self.layers = list(layers)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        for layer in self.layers:
            x = layer(x)
        return x


def make_net(widths: Sequence[int], seed: int = SEED + 2) -> Sequential:
    """A float32 Sequential of Dense layers, ReLU after every layer but the last."""
    rng = np.random.default_rng(seed)
    layers = []
    for index, (n_in, n_out) in enumerate(itertools.pairwise(widths)):
        W = (rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)).astype(np.float32)
        b = rng.uniform(-0.1, 0.1, n_out).astype(np.float32)
        last = index == len(widths) - 2
        layers.append(Dense(W, b, None if last else relu))
    return Sequential(layers)


def net_arrays(net: Sequential) -> tuple[np.ndarray, ...]:
    """``W1, b1, W2, b2, W3, b3`` of a three-layer net shaped ReLU, ReLU, linear."""
    activations = [layer.activation for layer in net.layers]
    if activations != [relu, relu, None]:
        raise ValueError("the flat forward functions are written for Dense ReLU, ReLU, linear")
    return tuple(array for layer in net.layers for array in (layer.W, layer.b))


def make_flat(net: Sequential) -> Callable[[np.ndarray], np.ndarray]:
    """The net's forward pass flattened into one function by hand (the ``flat`` row)."""
    W1, b1, W2, b2, W3, b3 = net_arrays(net)

    def forward(x: np.ndarray) -> np.ndarray:
        h = relu(x @ W1 + b1)
        h = relu(h @ W2 + b2)
        return h @ W3 + b3

    return forward


def make_hand(net: Sequential) -> Callable[[np.ndarray], np.ndarray]:
    """Flat, ``np.dot``, biases pre-shaped to (1, n), in-place add and maximum, the ReLU's 0
    converted once to a float32 scalar."""
    W1, b1, W2, b2, W3, b3 = net_arrays(net)
    b1, b2, b3 = (b.reshape(1, -1) for b in (b1, b2, b3))
    zero = W1.dtype.type(0)
    dot = np.dot
    maximum = np.maximum

    def forward(x: np.ndarray) -> np.ndarray:
        h = dot(x, W1)
        h += b1
        maximum(h, zero, out=h)
        g = dot(h, W2)
        g += b2
        maximum(g, zero, out=g)
        out = dot(g, W3)
        out += b3
        return out

    return forward


def make_hand_buffers(net: Sequential, batch: int) -> Callable[[np.ndarray], np.ndarray]:
    """make_hand with buffers kept between calls (sized for inputs of ``batch`` rows): the
    hidden layers' outputs, written by ``np.dot(out=)``, and zero arrays of their shape for the
    ReLU. The returned array is fresh on every call."""
    W1, b1, W2, b2, W3, b3 = net_arrays(net)
    b1, b2, b3 = (b.reshape(1, -1) for b in (b1, b2, b3))
    h = np.empty((batch, W1.shape[1]), W1.dtype)
    g = np.empty((batch, W2.shape[1]), W2.dtype)
    h_zero = np.zeros_like(h)
    g_zero = np.zeros_like(g)
    dot = np.dot
    add = np.add
    maximum = np.maximum

    def forward(x: np.ndarray) -> np.ndarray:
        dot(x, W1, out=h)
        add(h, b1, out=h)
        maximum(h, h_zero, out=h)
        dot(h, W2, out=g)
        add(g, b2, out=g)
        maximum(g, g_zero, out=g)
        out = dot(g, W3)
        out += b3
        return out

    return forward


def mlp_input(widths: Sequence[int], batch: int) -> np.ndarray:
    rng = np.random.default_rng(SEED + 3)
    return rng.standard_normal((batch, widths[0])).astype(np.float32)


# ---------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    """A time ratio's target from issue 5: met when the ratio (as printed) is <= ``limit``."""

    limit: float
    text: str

    def verdict(self, ratio: float) -> str:
        return "[ok]" if round(ratio, 3) <= self.limit else "[miss]"


def at_most(limit: float) -> Target:
    return Target(limit, f"<= {limit:.2f}")


def speedup_at_least(speedup: float) -> Target:
    """compiled / imperative <= 1 / speedup, shown as the speedup the issue states."""
    return Target(round(1 / speedup, 3), f"<= {1 / speedup:.3f} ({speedup:g}x)")


# ------------------------------------------------------------------ plan


@dataclass(frozen=True)
class ArrayCase:
    """Case 1 or 2: a function of float64 arrays, timed at several sizes."""

    name: str
    title: str
    imperative: Callable[..., object]
    hand: Callable[..., object]
    make_args: Callable[[int], tuple[object, ...]]
    vs_hand: Target
    peak: float  # target for the compiled variant's peak extra memory, in input arrays
    issue_note: str  # what issue 5 measured by hand


@dataclass(frozen=True)
class MLPCase:
    """One MLP configuration and its targets (time ratios compiled / imperative)."""

    widths: tuple[int, ...]
    batch: int
    target: Target
    target_with_reuse: Target | None
    issue_note: str

    @property
    def label(self) -> str:
        return f"mlp {'-'.join(map(str, self.widths))} batch {self.batch}"


EXPR_CASE = ArrayCase(
    "expr", f"{EXPR_TEXT}, float64", expr, expr_hand, expr_args, at_most(1.05), 2.0,
    "issue: hand in-place 1.15-1.34x faster, peak 3.0 -> 2.0 x N")
BLACK_SCHOLES_CASE = ArrayCase(
    "black_scholes", "Black-Scholes call and put with a helper cnd(), float64", black_scholes,
    black_scholes_hand, black_scholes_args, at_most(1.05), 5.1,
    "issue: hand in-place 1.1-1.3x faster, peak 9.0 -> 5.1 x N")
TEXTBOOK_WIDTHS = (512, 256, 128, 2)
MLP_CASES: tuple[MLPCase, ...] = (
    MLPCase(TEXTBOOK_WIDTHS, 1, speedup_at_least(1.2), speedup_at_least(1.3),
            "issue: flattening alone ~1%, hand with buffers 1.31x"),
    MLPCase((8, 8, 8, 2), 1, speedup_at_least(1.8), None, "issue: hand 2.0x (dispatch-bound)"),
    MLPCase(TEXTBOOK_WIDTHS, 64, speedup_at_least(0.97), None, "issue: all within +-10% (BLAS)"),
    MLPCase(TEXTBOOK_WIDTHS, 1024, speedup_at_least(0.97), None, "issue: all within +-10% (BLAS)"),
)


@dataclass(frozen=True)
class Plan:
    """What one run measures (``run`` picks the sizes from ``--quick``; tests use tiny ones)."""

    expr_sizes: tuple[int, ...]
    black_scholes_sizes: tuple[int, ...]
    mlp_cases: tuple[MLPCase, ...] = MLP_CASES
    extras: bool = True  # numexpr / torch, where importable


FULL_PLAN = Plan((100_000, 1_000_000, 10_000_000), (100_000, 1_000_000))
QUICK_PLAN = Plan((100_000, 1_000_000), (100_000, 1_000_000))


# ---------------------------------------------------------------- checking


def first_difference(expected: object, actual: object, path: str = "result") -> str | None:
    """Where ``actual`` differs from ``expected`` (arrays compared by dtype, shape and bytes)."""
    if isinstance(expected, tuple):
        if not isinstance(actual, tuple) or len(actual) != len(expected):
            return f"{path}: {type(actual).__name__} instead of a {len(expected)}-tuple"
        for index, (e, a) in enumerate(zip(expected, actual)):
            found = first_difference(e, a, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    assert isinstance(expected, np.ndarray)
    if not isinstance(actual, np.ndarray):
        return f"{path}: {type(actual).__name__} instead of an array"
    if actual.dtype != expected.dtype or actual.shape != expected.shape:
        return (f"{path}: {actual.dtype}{list(actual.shape)} instead of "
                f"{expected.dtype}{list(expected.shape)}")
    if actual.tobytes() != expected.tobytes():
        width = expected.itemsize
        bits_e = np.frombuffer(expected.tobytes(), np.uint8).reshape(-1, width)
        bits_a = np.frombuffer(actual.tobytes(), np.uint8).reshape(-1, width)
        differs = (bits_e != bits_a).any(axis=1)
        where = int(np.flatnonzero(differs)[0])
        e, a = expected.reshape(-1)[where], actual.reshape(-1)[where]
        return (f"{path}: element {where} is {a!r} instead of {e!r} "
                f"({int(differs.sum())} of {expected.size} elements differ by bits)")
    return None


def non_finite(value: object) -> bool:
    if isinstance(value, tuple):
        return any(non_finite(item) for item in value)
    assert isinstance(value, np.ndarray)
    return not bool(np.isfinite(value).all())


def check_results(variants: Mapping[str, Callable[..., object]],
                  args: Sequence[object]) -> list[str]:
    """Call every variant once (outside any timing); a message per result that differs from
    the imperative one by bits."""
    expected = variants[BASELINE](*args)
    problems = []
    if non_finite(expected):
        problems.append(f"{BASELINE} produced non-finite values: change the inputs")
    for name, fn in variants.items():
        if name != BASELINE:
            found = first_difference(expected, fn(*args))
            if found is not None:
                problems.append(f"{name} differs from {BASELINE} at {found}")
    return problems


def peak_extra(fn: Callable[..., object], args: Sequence[object], unit: int) -> float:
    """Peak memory one call of ``fn(*args)`` allocates (its result included), as traced by
    tracemalloc, in units of ``unit`` bytes."""
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        result = fn(*args)
        _, peak = tracemalloc.get_traced_memory()
        del result
    finally:
        if not was_tracing:
            tracemalloc.stop()
    return (peak - before) / unit


# ------------------------------------------------------------ conditions


def openblas_threads() -> tuple[str, int] | None:
    """The loaded OpenBLAS library and the thread count it reports; None where that cannot be
    found out (no ``/proc/self/maps``, no OpenBLAS loaded, no known getter)."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
    except OSError:
        return None
    getters = ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_",
               "openblas_get_num_threads")
    for path in paths:
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in getters:
            getter = getattr(library, symbol, None)
            if getter is not None:
                getter.restype = ctypes.c_int
                return os.path.basename(path), int(getter())
    return None


def condition_lines() -> list[str]:
    """The BLAS threads and allocator settings the numbers were measured with."""
    settings = ", ".join(f"{name}={os.environ.get(name, '(unset)')}"
                         for name in BLAS_THREAD_VARIABLES)
    found = openblas_threads()
    if found is None:
        state = "thread count unknown (no OpenBLAS found in this process)"
    elif found[1] == 1:
        state = f"single-threaded: {found[0]} reports 1 thread"
    else:
        state = (f"NOT single-threaded: {found[0]} reports {found[1]} threads (numpy was "
                 f"imported before the variables were set; run `python -m benchmarks numpy`)")
    allocator = ", ".join(f"{name}={os.environ[name]}" for name in ALLOCATOR_VARIABLES
                          if name in os.environ)
    if not allocator:
        allocator = (f"glibc defaults ({' and '.join(ALLOCATOR_VARIABLES)} unset: freed large "
                     f"temporaries go back to the kernel)")
    return [
        f"BLAS:       {state}",
        f"            {settings} (python -m benchmarks sets them to 1 before numpy loads)",
        f"allocator:  {allocator}",
    ]


def optional_module(name: str) -> Any | None:
    """The module if it can be imported, else None (the extras are never required)."""
    if importlib.util.find_spec(name) is None:
        return None
    try:
        return importlib.import_module(name)
    except Exception:  # a broken optional install is the same as a missing one
        return None


@dataclass
class Extras:
    """The optional packages found (numexpr, torch), each set to one thread."""

    numexpr: Any | None = None
    torch: Any | None = None
    notes: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, wanted: bool) -> Extras:
        extras = cls()
        if not wanted:
            return extras
        extras.numexpr = optional_module("numexpr")
        if extras.numexpr is None:
            extras.notes.append("numexpr: not installed, its optional timings are skipped")
        else:
            extras.numexpr.set_num_threads(1)
            extras.notes.append(f"numexpr:    {extras.numexpr.__version__}, 1 thread")
        extras.torch = optional_module("torch")
        if extras.torch is None:
            extras.notes.append("torch: not installed, its optional timings are skipped")
        else:
            extras.torch.set_num_threads(1)
            extras.notes.append(f"torch:      {extras.torch.__version__}, 1 thread, no autograd")
        return extras


def expr_torch(a, b, c, d):
    """expr for torch tensors (unannotated: torch.jit.script then takes every argument as a
    Tensor)."""
    return 2 * a + 3 * b * b - c / (1 + d)


def torch_script(torch: Any, fn: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # newer torch versions deprecate TorchScript
        return torch.jit.script(fn)


def make_numexpr_expr(numexpr: Any) -> Callable[..., np.ndarray]:
    evaluate = numexpr.evaluate

    def expr_numexpr(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
        return evaluate(EXPR_TEXT, local_dict={"a": a, "b": b, "c": c, "d": d})

    return expr_numexpr


def torch_mlp(torch: Any, net: Sequential) -> tuple[Any, Any]:
    """The net as ``torch.nn.Sequential`` of Linear and ReLU with the same weights, eager and
    ``torch.jit.script``-ed."""
    modules = []
    for layer in net.layers:
        linear = torch.nn.Linear(*layer.W.shape)
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(layer.W.T.copy()))
            linear.bias.copy_(torch.from_numpy(layer.b))
        modules.append(linear)
        if layer.activation is not None:
            modules.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*modules).eval().requires_grad_(False)
    return model, torch_script(torch, model)


def torch_expr(torch: Any) -> tuple[Any, Any]:
    """expr for tensors, eager and ``torch.jit.script``-ed."""
    return expr_torch, torch_script(torch, expr_torch)


def time_torch(torch: Any, build: Callable[[Any], tuple[Any, Any]], args: Sequence[Any],
               expected: Any, config: BenchConfig) -> tuple[float, float]:
    """Medians (ns per call) of eager torch and torch.jit.script (``build(torch)``) on ``args``
    as tensors, round-robin; prints their table."""
    eager, scripted = build(torch)
    tensors = tuple(torch.from_numpy(array) for array in args)
    result = scripted(*tensors).numpy()
    same = "bit-identical" if result.tobytes() == expected.tobytes() else (
        "close" if np.allclose(result, expected, rtol=1e-5, atol=1e-6) else "DIFFERENT")
    samples = measure({"torch eager": eager, "torch.jit.script": scripted}, config.repeats,
                      args=tensors, target_ns=config.target_ns)
    stats = summarize(samples)
    print(format_table(stats, "torch eager",
                       title=f"optional: torch on the same data (results {same} to numpy's)"))
    return stats["torch eager"].median, stats["torch.jit.script"].median


def optional(label: str, action: Callable[..., T], *args: Any) -> T | None:
    """``action(*args)``, or None after a one-line note if it fails: an extra never fails the
    run."""
    try:
        return action(*args)
    except Exception as exc:
        print(f"  ({label}: failed, skipped: {type(exc).__name__}: {exc})")
        return None


# --------------------------------------------------------------- reporting


def ratio(stats: Mapping[str, Stats], numerator: str, denominator: str) -> float:
    return stats[numerator].median / stats[denominator].median


def ratio_cell(value: float, target: Target | None) -> str:
    if target is None:
        return f"{value:.3f}"
    return f"{value:.3f} {target.text} {target.verdict(value)}"


def ratio_line(samples: Mapping[str, Sequence[float]], stats: Mapping[str, Stats],
               numerator: str, denominator: str, target: Target | None = None) -> str:
    """``numerator / denominator = r (per-repeat median p)``, with the target's verdict."""
    value = ratio(stats, numerator, denominator)
    pairs = paired_ratios(samples, numerator, denominator)
    label = f"{numerator} / {denominator}"
    text = f"  {label:<34} = {value:6.3f}  (per-repeat median {statistics.median(pairs):.3f})"
    if target is not None:
        text += f"  target {target.text}  {target.verdict(value)}"
    return text


@dataclass(frozen=True)
class Row:
    """One line of the closing table, its cells already formatted."""

    label: str
    compiled_vs_imperative: str
    compiled_vs_hand: str
    hand_vs_imperative: str
    peaks: str = ""


def format_rows(rows: Sequence[Row]) -> str:
    header = ("row", "compiled / imperative", "compiled / hand", "hand / imperative",
              "peak x N: imperative, compiled, hand")
    cells = [(r.label, r.compiled_vs_imperative, r.compiled_vs_hand, r.hand_vs_imperative,
              r.peaks) for r in rows]
    widths = [max(len(header[i]), *(len(row[i]) for row in cells)) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()

    return "\n".join([line(header), "  ".join("-" * w for w in widths),
                      *(line(row) for row in cells)])


def print_source(label: str, source: str) -> None:
    print(f"{label}:")
    for line in source.rstrip().splitlines():
        print(f"    {line}")


def seconds_per_1000(median_ns: float) -> float:
    return median_ns * 1000 / 1e9


def before_after(label: str, before_ns: float, after_ns: float, what: str = "") -> str:
    before, after = seconds_per_1000(before_ns), seconds_per_1000(after_ns)
    return (f"  {label:<26} before {before:.4f} s / after {after:.4f} s per 1000 calls "
            f"({before / after:.2f}x){what}")


# ----------------------------------------------------------------- running


class CheckFailed(Exception):
    """A variant's result differs from the imperative one: nothing of that case is timed."""


def require_identical(variants: Mapping[str, Callable[..., object]],
                      args: Sequence[object]) -> None:
    problems = check_results(variants, args)
    if problems:
        raise CheckFailed("; ".join(problems))


def run_array_case(case: ArrayCase, sizes: Sequence[int], config: BenchConfig,
                   extras: Extras) -> list[Row]:
    """Check, time and measure the memory of one array case at every size."""
    import symcompile as sc

    print(f"-- case {case.name}: {case.title}")
    compiled = sc.symbolic(case.imperative)
    compiled(*case.make_args(8))  # compile before anything is timed
    print_source(f"generated source ({COMPILED}.source)", str(compiled.source))  # type: ignore
    rows = []
    for n in sizes:
        args = case.make_args(n)
        variants: dict[str, Callable[..., object]] = {
            BASELINE: case.imperative, COMPILED: compiled, HAND: case.hand}
        require_identical(variants, args)
        print(f"check at N={n:,}: {', '.join(variants)} return bit-identical arrays")
        if case is EXPR_CASE and extras.numexpr is not None:
            variants[NUMEXPR] = make_numexpr_expr(extras.numexpr)
            same = first_difference(expr(*args), variants[NUMEXPR](*args)) is None
            print(f"  ({NUMEXPR}, optional: {'bit-identical' if same else 'NOT bit-identical'})")
        unit = n * np.dtype(np.float64).itemsize
        peaks = {name: peak_extra(fn, args, unit) for name, fn in variants.items()}
        samples = measure(variants, config.repeats, args=args, target_ns=config.target_ns)
        stats = summarize(samples)
        print()
        print(format_table(stats, BASELINE, title=f"{case.name}, N = {n:,}: "
                           f"{config.repeats} round-robin repeats"))
        peak_verdict = "[ok]" if round(peaks[COMPILED], 2) <= case.peak else "[miss]"
        print("  peak extra memory of one call (tracemalloc, x one input array): "
              + ", ".join(f"{name} {peak:.2f}" for name, peak in peaks.items()))
        print(f"  {COMPILED} peak {peaks[COMPILED]:.2f}  target <= {case.peak:.1f}  "
              f"{peak_verdict}")
        print(ratio_line(samples, stats, COMPILED, BASELINE))
        print(ratio_line(samples, stats, COMPILED, HAND, case.vs_hand))
        print(ratio_line(samples, stats, HAND, BASELINE))
        if case is EXPR_CASE and extras.torch is not None:
            optional("torch", time_torch, extras.torch, torch_expr, args, expr(*args), config)
        print()
        rows.append(Row(
            f"{case.name} N={n:,}",
            ratio_cell(ratio(stats, COMPILED, BASELINE), None),
            ratio_cell(ratio(stats, COMPILED, HAND), case.vs_hand),
            ratio_cell(ratio(stats, HAND, BASELINE), None),
            f"{peaks[BASELINE]:.2f}, {peaks[COMPILED]:.2f}, {peaks[HAND]:.2f} "
            f"(compiled <= {case.peak:.1f} {peak_verdict})",
        ))
    print(f"({case.issue_note})")
    print()
    return rows


@dataclass
class TextbookFigures:
    """Medians (ns per call) of the textbook MLP for the before/after lines."""

    imperative: float = 0.0
    compiled: float = 0.0
    hand: float = 0.0
    hand_buffers: float = 0.0
    torch: tuple[float, float] | None = None


def run_mlp_case(case: MLPCase, config: BenchConfig, extras: Extras,
                 textbook: TextbookFigures, show_source: bool) -> list[Row]:
    """Check and time one MLP configuration."""
    import symcompile as sc

    print(f"-- case {case.label} (float32)")
    net = make_net(case.widths)
    x = mlp_input(case.widths, case.batch)
    flat = make_flat(net)
    compiled = sc.symbolic(net)
    compiled(x)  # compile before anything is timed
    if show_source:
        print_source(f"generated source (sc.source({COMPILED}, x))", sc.source(compiled, x))
    variants: dict[str, Callable[..., object]] = {
        BASELINE: net,
        FLAT: flat,
        COMPILED: compiled,
        HAND_MLP: make_hand(net),
        HAND_BUFFERS: make_hand_buffers(net, case.batch),
    }
    require_identical(variants, (x,))
    print(f"check: all {len(variants)} variants return bit-identical arrays")
    samples = measure(variants, config.repeats, args=(x,), target_ns=config.target_ns)
    stats = summarize(samples)
    print(format_table(stats, BASELINE, title=f"{case.label}: {config.repeats} round-robin "
                       f"repeats, ~{config.target_ns / 1e6:g} ms per timing"))
    print(ratio_line(samples, stats, FLAT, BASELINE))
    print(ratio_line(samples, stats, COMPILED, BASELINE, case.target))
    print(ratio_line(samples, stats, COMPILED, HAND_MLP))
    print(ratio_line(samples, stats, HAND_MLP, BASELINE))
    print(ratio_line(samples, stats, HAND_BUFFERS, BASELINE))
    if case.target_with_reuse is not None:
        print(f"  compiled with buffer reuse: not built (@symbolic(reuse_buffers=True), issue "
              f"5 item 5); target {case.target_with_reuse.text}  [miss]")
    print(f"  ({case.issue_note})")
    is_textbook = case.widths == TEXTBOOK_WIDTHS and case.batch == 1
    if is_textbook:
        textbook.imperative = stats[BASELINE].median
        textbook.compiled = stats[COMPILED].median
        textbook.hand = stats[HAND_MLP].median
        textbook.hand_buffers = stats[HAND_BUFFERS].median
        if extras.torch is not None:
            textbook.torch = optional("torch", time_torch, extras.torch,
                                      functools.partial(torch_mlp, net=net), (x,), net(x), config)
    print()
    reuse = case.target_with_reuse
    return [
        Row(case.label,
            ratio_cell(ratio(stats, COMPILED, BASELINE), case.target),
            ratio_cell(ratio(stats, COMPILED, HAND_MLP), None),
            ratio_cell(ratio(stats, HAND_MLP, BASELINE), None)),
        Row(f"  {HAND_BUFFERS}",
            f"not built {reuse.text} [miss]" if reuse else "-",
            ratio_cell(ratio(stats, COMPILED, HAND_BUFFERS), None),
            ratio_cell(ratio(stats, HAND_BUFFERS, BASELINE), None)),
    ]


def textbook_lines(textbook: TextbookFigures) -> list[str]:
    widths = "-".join(map(str, TEXTBOOK_WIDTHS))
    lines = [(f"textbook form: MLP {widths} at batch 1 (float32, medians of this run); the "
              f"seed chapter's figures for comparison:"),
             before_after("symcompile today", textbook.imperative, textbook.compiled,
                          "  (sc.symbolic(net): the Sequential compiled)"),
             before_after("hand-optimized numpy", textbook.imperative, textbook.hand),
             before_after("hand + buffers", textbook.imperative, textbook.hand_buffers)]
    if textbook.torch is not None:
        lines.append(before_after("torch.jit.script (here)", *textbook.torch,
                                  "  (torch eager -> scripted)"))
    for label, before, after in SEED_FIGURES:
        lines.append(f"  {label:<26} before {before:.4f} s / after {after:.4f} s per 1000 calls "
                     f"({before / after:.2f}x)")
    return lines


def run_plan(config: BenchConfig, plan: Plan) -> int:
    """Run every case of ``plan`` and print the report; return a process exit code."""
    if not print_header(NAME, DESCRIPTION):
        return 1
    for line in condition_lines():
        print(line)
    extras = Extras.load(plan.extras)
    for line in extras.notes:
        print(line)
    print()

    rows: list[Row] = []
    textbook = TextbookFigures()
    try:
        rows += run_array_case(EXPR_CASE, plan.expr_sizes, config, extras)
        rows += run_array_case(BLACK_SCHOLES_CASE, plan.black_scholes_sizes, config, extras)
        for index, case in enumerate(plan.mlp_cases):
            rows += run_mlp_case(case, config, extras, textbook, show_source=index == 0)
    except CheckFailed as exc:
        print(f"error: results are not bit-identical, nothing more is timed: {exc}")
        return 1
    except Exception as exc:  # report a compiler failure as a failed benchmark, not a crash
        traceback.print_exc()
        print(f"error: the benchmark failed: {type(exc).__name__}: {exc}")
        return 1

    print("summary: time ratios from this run (< 1: the left side is faster), targets from "
          "issue 5;")
    print("peak x N: extra memory of one call in input arrays (returned arrays included)")
    print(format_rows(rows))
    if textbook.imperative:
        print()
        for line in textbook_lines(textbook):
            print(line)
    return 0


def run(config: BenchConfig) -> int:
    """Run the suite (without the 1e7 size under ``--quick``); return a process exit code."""
    return run_plan(config, QUICK_PLAN if config.quick else FULL_PLAN)
