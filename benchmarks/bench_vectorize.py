"""Benchmark case "vectorize": loops over array indices, as people write them, against the
array code an expert writes by hand.

Each kernel is a plain Python loop over `range` indexing NumPy arrays (elementwise maps, 1-D and
2-D stencils, masks, conditional updates, outer products, pairwise distances, window scans, matrix
products (accumulating into `c[i, j]`, or into a scalar per element), the same on Python lists
of floats and lists of lists (converted on entry where it pays), running sums and maxima (as
accumulations), and recurrences that must stay loops; and, compiled with `fastmath=True`, maps
of `math.exp` and sums into a scalar, checked close rather than by bits), with a hand-vectorized reference that
computes the same floating-point operations in the same order for every element, so all three
variants write bit-identical arrays (checked before timing, by bits). The variants, timed
round-robin:

* ``original``  - the loop as written;
* ``compiled``  - ``symcompile.symbolic(kernel)``, which vectorizes what it can prove safe;
* ``hand``      - the hand-vectorized reference;
* ``numba``     - ``numba.njit`` of the loop, where numba is installed (not a dependency):
  its speedup over the original, or why it has none (it does not compile the kernel, or its
  results differ: it may fuse `a * b + c`).

Reported per kernel: compiled/original and compiled/hand as speedups, side by side: the median
of the per-repeat ratios (`paired_ratios`: the variants of one repeat run back to back and share
the machine's momentary load, where the ratio of the medians mixes timings taken seconds apart,
which on a shared machine moved a loop compiled to the very same code as the original by
±10%), the medians of the times beside them; and the page faults a call of the compiled and of the hand version takes (minor
faults over 20 calls after the timings, `getrusage`).

The heap is put in one state before each kernel (`settle_the_heap`): glibc's allocator raises
its mmap threshold to the size of the largest block it has freed (up to 32 MiB) and trims the
heap top when more than twice that is free, so without it whether a variant's 800 KB
temporaries are reused or unmapped and faulted in again on every call (~200 faults, ~40 µs
an array) depended on the kernels measured before it, not on the variant: two_outputs timed
alone ran 95 µs against the hand's 86, after the other kernels 1277 against 767. Freeing one
32 MB block first sets both thresholds to their ceiling for every kernel, as in any process
that once freed a large array; compiled and hand then run in the same heap state, and the
faults column shows what remains of their difference. Targets (issue 10), printed with the measured figures, met or not: over the
kernels marked vectorizable, the median of compiled/original at least 10x and of compiled vs
hand at least 0.8x; for the loops that must stay loops, compiled at least 0.97x the original.
"""

from __future__ import annotations

import importlib.util
import math
import statistics
import traceback
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks.timing import BenchConfig, measure, paired_ratios, print_header, summarize

try:
    import resource
except ImportError:  # (not on Windows: no page-fault counts)
    resource = None  # type: ignore[assignment]

NAME = "vectorize"
DESCRIPTION = "loops over array indices: original vs compiled (vectorize_loops) vs hand-vectorized"

ORIGINAL, COMPILED, HAND, NUMBA = "original", "compiled", "hand", "numba"
TARGET_VS_ORIGINAL = 10.0
TARGET_VS_HAND = 0.8
TARGET_REFUSED = 0.97

N = 100_000  # elements of the 1-D kernels
M = 300  # side of the 2-D kernels
P = 250  # points of the pairwise kernels (the matrix product multiplies 40x40 matrices)


# ------------------------------------------------------------------ elementwise maps

def saxpy(out, a, x, y):
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]


def saxpy_hand(out, a, x, y):
    out[:] = a * x + y


def standardize(out, x, mean, std):
    for i in range(len(x)):
        out[i] = (x[i] - mean) / std


def standardize_hand(out, x, mean, std):
    out[:] = (x - mean) / std


def cubic(out, x, c0, c1, c2, c3):
    for i in range(len(x)):
        out[i] = ((c3 * x[i] + c2) * x[i] + c1) * x[i] + c0


def cubic_hand(out, x, c0, c1, c2, c3):
    out[:] = ((c3 * x + c2) * x + c1) * x + c0


def abs_diff(out, x, y):
    for i in range(len(x)):
        out[i] = abs(x[i] - y[i])


def abs_diff_hand(out, x, y):
    out[:] = np.abs(x - y)


def lerp(out, x, y, t):
    for i in range(len(x)):
        out[i] = x[i] + t * (y[i] - x[i])


def lerp_hand(out, x, y, t):
    out[:] = x + t * (y - x)


def two_outputs(square, shifted, x, y):
    for i in range(len(x)):
        s = x[i] * x[i]
        square[i] = s + 1.0
        shifted[i] = s * y[i]


def two_outputs_hand(square, shifted, x, y):
    s = x * x
    square[:] = s + 1.0
    shifted[:] = s * y


def reverse(out, x):
    n = len(x)
    for i in range(n):
        out[i] = x[n - 1 - i]


def reverse_hand(out, x):
    out[:] = x[::-1]


# ------------------------------------------------------------------ masks

def above(mask, x, level):
    for i in range(len(x)):
        mask[i] = x[i] > level


def above_hand(mask, x, level):
    mask[:] = x > level


def in_band(mask, x, low, high):
    for i in range(len(x)):
        mask[i] = (x[i] > low) & (x[i] < high)


def in_band_hand(mask, x, low, high):
    mask[:] = (x > low) & (x < high)


def clip_low(out, x, low):
    for i in range(len(x)):
        if x[i] < low:
            out[i] = low
        else:
            out[i] = x[i]


def clip_low_hand(out, x, low):
    out[:] = np.where(x < low, low, x)


def leaky_update(out, x):
    for i in range(len(x)):
        if x[i] > 0.0:
            out[i] += x[i]


def leaky_update_hand(out, x):
    np.add(out, x, out=out, where=x > 0.0)


# ------------------------------------------------------------------ 1-D stencils

def forward_difference(out, x):
    for i in range(len(x) - 1):
        out[i] = x[i + 1] - x[i]


def forward_difference_hand(out, x):
    out[:-1] = x[1:] - x[:-1]


def smooth3(out, x):
    for i in range(1, len(x) - 1):
        out[i] = (x[i - 1] + x[i] + x[i + 1]) / 3.0


def smooth3_hand(out, x):
    out[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3.0


def laplacian1d(out, u, h):
    for i in range(1, len(u) - 1):
        out[i] = (u[i - 1] - 2.0 * u[i] + u[i + 1]) / (h * h)


def laplacian1d_hand(out, u, h):
    out[1:-1] = (u[:-2] - 2.0 * u[1:-1] + u[2:]) / (h * h)


def central_difference(out, x, h):
    for i in range(1, len(x) - 1):
        out[i] = (x[i + 1] - x[i - 1]) / (2.0 * h)


def central_difference_hand(out, x, h):
    out[1:-1] = (x[2:] - x[:-2]) / (2.0 * h)


# ------------------------------------------------------------------ 2-D stencils and maps

def jacobi(new, u):
    n, m = u.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            new[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


def jacobi_hand(new, u):
    new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])


def box_blur(out, img):
    for i in range(1, img.shape[0] - 1):
        for j in range(1, img.shape[1] - 1):
            out[i][j] = (img[i - 1][j - 1] + img[i - 1][j] + img[i - 1][j + 1]
                         + img[i][j - 1] + img[i][j] + img[i][j + 1]
                         + img[i + 1][j - 1] + img[i + 1][j] + img[i + 1][j + 1]) / 9.0


def box_blur_hand(out, img):
    out[1:-1, 1:-1] = (img[:-2, :-2] + img[:-2, 1:-1] + img[:-2, 2:]
                       + img[1:-1, :-2] + img[1:-1, 1:-1] + img[1:-1, 2:]
                       + img[2:, :-2] + img[2:, 1:-1] + img[2:, 2:]) / 9.0


def gradient_energy(out, img):
    for i in range(1, img.shape[0] - 1):
        for j in range(1, img.shape[1] - 1):
            gx = img[i, j + 1] - img[i, j - 1]
            gy = img[i + 1, j] - img[i - 1, j]
            out[i, j] = gx * gx + gy * gy


def gradient_energy_hand(out, img):
    gx = img[1:-1, 2:] - img[1:-1, :-2]
    gy = img[2:, 1:-1] - img[:-2, 1:-1]
    out[1:-1, 1:-1] = gx * gx + gy * gy


def scale_columns(out, a, w):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = a[i, j] * w[j]


def scale_columns_hand(out, a, w):
    out[:] = a * w


def normalize_rows(out, a, norms):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = a[i, j] / norms[i]


def normalize_rows_hand(out, a, norms):
    out[:] = a / norms[:, None]


def symmetric_part(out, a):
    n = a.shape[0]
    for i in range(n):
        for j in range(n):
            out[i, j] = 0.5 * (a[i, j] + a[j, i])


def symmetric_part_hand(out, a):
    out[:] = 0.5 * (a + a.T)


def erosion(out, mask):
    for i in range(1, mask.shape[0] - 1):
        for j in range(1, mask.shape[1] - 1):
            out[i, j] = mask[i, j] & mask[i - 1, j] & mask[i + 1, j] & mask[i, j - 1] & mask[i, j + 1]


def erosion_hand(out, mask):
    out[1:-1, 1:-1] = (mask[1:-1, 1:-1] & mask[:-2, 1:-1] & mask[2:, 1:-1] & mask[1:-1, :-2]
                       & mask[1:-1, 2:])


# ------------------------------------------------------------------ pairwise and products

def outer(out, x, y):
    for i in range(len(x)):
        for j in range(len(y)):
            out[i, j] = x[i] * y[j]


def outer_hand(out, x, y):
    out[:] = x[:, None] * y


def pairwise_sq_distances(out, xs, ys):
    for i in range(len(xs)):
        for j in range(len(xs)):
            dx = xs[i] - xs[j]
            dy = ys[i] - ys[j]
            out[i, j] = dx * dx + dy * dy


def pairwise_sq_distances_hand(out, xs, ys):
    dx = xs[:, None] - xs
    dy = ys[:, None] - ys
    out[:] = dx * dx + dy * dy


def matmul(c, a, b):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]


def matmul_hand(c, a, b):
    for k in range(a.shape[1]):
        c += a[:, k:k + 1] * b[k, :]


def matmul_accumulator(c, a, b):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            acc = 0.0
            for k in range(a.shape[1]):
                acc += a[i, k] * b[k, j]
            c[i, j] = acc


def matmul_accumulator_hand(c, a, b):
    acc = 0.0
    for k in range(a.shape[1]):
        acc = acc + a[:, k:k + 1] * b[k, :]
    c[:] = acc


# ------------------------------------------------------------------ on Python lists
# hand: the honest NumPy rewrite a user would make, the conversions included (`np.array` in,
# the results stored back into the caller's lists as floats)

def list_matmul(c, A, B, n):
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c[i][j] += A[i][k] * B[k][j]


def list_matmul_hand(c, A, B, n):
    a, b, acc = np.array(A), np.array(B), np.array(c)
    for k in range(n):
        acc = acc + a[:, k:k + 1] * b[k, :]
    for row, values in zip(c, acc.tolist()):
        row[:] = values


def list_cubic(out, x, n):
    for i in range(n):
        t = x[i]
        out[i] = ((0.75 * t - 1.25) * t + 2.0) * t - (t * t + 0.5) * (t - 3.0)


def list_cubic_hand(out, x, n):
    t = np.array(x)
    out[:] = (((0.75 * t - 1.25) * t + 2.0) * t - (t * t + 0.5) * (t - 3.0)).tolist()


def list_map(out, a, b, n):
    for i in range(n):
        out[i] = a[i] * 2.0 + b[i]


def list_map_hand(out, a, b, n):
    out[:] = (np.array(a) * 2.0 + np.array(b)).tolist()


# ------------------------------------------------------------------ recurrences as accumulations

def running_sum(out, x):
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = out[i - 1] + x[i]


def running_sum_hand(out, x):
    np.cumsum(x, out=out)


def running_max(out, x):
    m = x[0]
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
        out[i] = m


def running_max_hand(out, x):
    np.maximum.accumulate(x, out=out)


# ------------------------------------------------------------------ loops that must stay loops

def logistic_orbit(z, r):
    for i in range(len(z) - 1):
        z[i + 1] = r * z[i] * (1.0 - z[i])


def logistic_orbit_hand(z, r):
    for i in range(len(z) - 1):
        z[i + 1] = r * z[i] * (1.0 - z[i])


def gauss_seidel(u):
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


def gauss_seidel_hand(u):
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


def dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def dot_hand(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


# ------------------------------------------------------------------ under fastmath

def gauss(out, x):
    for i in range(len(x)):
        out[i] = math.exp(-x[i] * x[i])


def gauss_hand(out, x):
    out[:] = np.exp(-x * x)


def sigmoid_loop(out, x):
    for i in range(len(x)):
        out[i] = 1.0 / (1.0 + math.exp(-x[i]))


def sigmoid_loop_hand(out, x):
    out[:] = 1.0 / (1.0 + np.exp(-x))


def dot_fast(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def dot_fast_hand(x, y):
    return 0.0 + np.dot(x, y)


def norm(x):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * x[i]
    return math.sqrt(s)


def norm_hand(x):
    return math.sqrt(0.0 + np.dot(x, x))


def sum_of_exp(x):
    s = 0.0
    for i in range(len(x)):
        s += math.exp(-x[i] * x[i])
    return s


def sum_of_exp_hand(x):
    return float(0.0 + np.sum(np.exp(-x * x)))


def matmul_fast(c, a, b):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]


def matmul_fast_hand(c, a, b):
    c[:] = c + a @ b


# ------------------------------------------------------------------ the cases

@dataclass(frozen=True)
class Kernel:
    name: str
    original: Callable[..., object]
    hand: Callable[..., object]
    make_args: Callable[[], tuple[object, ...]]
    vectorizable: bool = True
    fastmath: bool = False  # compiled with fastmath=True: checked close (rtol 1e-12), not by bits


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _vec(n: int = N, seed: int = 0) -> np.ndarray:
    return _rng(seed).standard_normal(n)


def _grid(m: int = M, seed: int = 0) -> np.ndarray:
    return _rng(seed).standard_normal((m, m))


KERNELS: tuple[Kernel, ...] = (
    Kernel("saxpy", saxpy, saxpy_hand, lambda: (np.zeros(N), 1.5, _vec(), _vec(seed=1))),
    Kernel("standardize", standardize, standardize_hand, lambda: (np.zeros(N), _vec(), 0.25, 1.75)),
    Kernel("cubic", cubic, cubic_hand, lambda: (np.zeros(N), _vec(), 0.5, -1.25, 2.0, 0.75)),
    Kernel("abs_diff", abs_diff, abs_diff_hand, lambda: (np.zeros(N), _vec(), _vec(seed=1))),
    Kernel("lerp", lerp, lerp_hand, lambda: (np.zeros(N), _vec(), _vec(seed=1), 0.3)),
    Kernel("two_outputs", two_outputs, two_outputs_hand,
           lambda: (np.zeros(N), np.zeros(N), _vec(), _vec(seed=1))),
    Kernel("reverse", reverse, reverse_hand, lambda: (np.zeros(N), _vec())),
    Kernel("above", above, above_hand, lambda: (np.zeros(N, bool), _vec(), 0.5)),
    Kernel("in_band", in_band, in_band_hand, lambda: (np.zeros(N, bool), _vec(), -0.5, 0.5)),
    Kernel("clip_low", clip_low, clip_low_hand, lambda: (np.zeros(N), _vec(), -0.5)),
    Kernel("leaky_update", leaky_update, leaky_update_hand, lambda: (np.ones(N), _vec())),
    Kernel("forward_difference", forward_difference, forward_difference_hand,
           lambda: (np.zeros(N), _vec())),
    Kernel("smooth3", smooth3, smooth3_hand, lambda: (np.zeros(N), _vec())),
    Kernel("laplacian1d", laplacian1d, laplacian1d_hand, lambda: (np.zeros(N), _vec(), 0.01)),
    Kernel("central_difference", central_difference, central_difference_hand,
           lambda: (np.zeros(N), _vec(), 0.01)),
    Kernel("jacobi", jacobi, jacobi_hand, lambda: (np.zeros((M, M)), _grid())),
    Kernel("box_blur", box_blur, box_blur_hand, lambda: (np.zeros((M, M)), _grid())),
    Kernel("gradient_energy", gradient_energy, gradient_energy_hand, lambda: (np.zeros((M, M)), _grid())),
    Kernel("scale_columns", scale_columns, scale_columns_hand,
           lambda: (np.zeros((M, M)), _grid(), _vec(M, seed=2))),
    Kernel("normalize_rows", normalize_rows, normalize_rows_hand,
           lambda: (np.zeros((M, M)), _grid(), np.abs(_vec(M, seed=2)) + 1.0)),
    Kernel("symmetric_part", symmetric_part, symmetric_part_hand, lambda: (np.zeros((M, M)), _grid())),
    Kernel("erosion", erosion, erosion_hand,
           lambda: (np.zeros((M, M), bool), _grid() > -0.8)),
    Kernel("outer", outer, outer_hand, lambda: (np.zeros((M, M)), _vec(M), _vec(M, seed=1))),
    Kernel("pairwise_sq_distances", pairwise_sq_distances, pairwise_sq_distances_hand,
           lambda: (np.zeros((P, P)), _vec(P), _vec(P, seed=1))),
    Kernel("matmul", matmul, matmul_hand,
           lambda: (np.zeros((40, 40)), _grid(40), _grid(40, seed=1))),
    Kernel("matmul_accumulator", matmul_accumulator, matmul_accumulator_hand,
           lambda: (np.zeros((40, 40)), _grid(40), _grid(40, seed=1))),
    Kernel("list_matmul", list_matmul, list_matmul_hand,
           lambda: ([[0.0] * 40 for _ in range(40)], _grid(40).tolist(), _grid(40, seed=1).tolist(), 40)),
    Kernel("list_cubic", list_cubic, list_cubic_hand, lambda: ([0.0] * N, _vec().tolist(), N)),
    Kernel("running_sum", running_sum, running_sum_hand, lambda: (np.zeros(N), _vec())),
    Kernel("running_max", running_max, running_max_hand, lambda: (np.zeros(N), _vec())),
    # converting three lists costs more than the loop: left alone (the hand rewrite is slower)
    Kernel("list_map", list_map, list_map_hand,
           lambda: ([0.0] * N, _vec().tolist(), _vec(seed=1).tolist(), N), False),
    Kernel("logistic_orbit", logistic_orbit, logistic_orbit_hand,
           lambda: (np.full(N, 0.3), 3.7), False),
    Kernel("gauss_seidel", gauss_seidel, gauss_seidel_hand, lambda: (_grid(M // 3),), False),
    Kernel("dot", dot, dot_hand, lambda: (_vec(), _vec(seed=1)), False),
    Kernel("gauss", gauss, gauss_hand, lambda: (np.zeros(N), _vec()), fastmath=True),
    Kernel("sigmoid_loop", sigmoid_loop, sigmoid_loop_hand, lambda: (np.zeros(N), _vec()), fastmath=True),
    Kernel("dot_fastmath", dot_fast, dot_fast_hand, lambda: (_vec(), _vec(seed=1)), fastmath=True),
    Kernel("norm", norm, norm_hand, lambda: (_vec(),), fastmath=True),
    Kernel("sum_of_exp", sum_of_exp, sum_of_exp_hand, lambda: (_vec(),), fastmath=True),
    Kernel("matmul_fastmath", matmul_fast, matmul_fast_hand,
           lambda: (np.zeros((40, 40)), _grid(40), _grid(40, seed=1)), fastmath=True),
)


SETTLING_BLOCK = 4_000_000  # float64 elements: 32 MB, under glibc's 32 MiB threshold ceiling
FAULT_CALLS = 20


def settle_the_heap() -> None:
    """Allocate and free a 32 MB array (untouched: no page is faulted in), raising glibc's
    dynamic mmap and trim thresholds to their ceiling, whatever ran before (see the module)."""
    np.empty(SETTLING_BLOCK)


def faults_per_call(function: Callable[..., object], args: tuple[object, ...]) -> float:
    """Minor page faults per call of `function(*args)` (nan where `resource` is missing)."""
    if resource is None:
        return float("nan")
    function(*args)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(FAULT_CALLS):
        function(*args)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / FAULT_CALLS


def _outputs(kernel: Kernel, function: Callable[..., object]) -> list[object]:
    """What a call leaves behind: its result and every argument array (fresh arguments)."""
    args = kernel.make_args()
    result = function(*args)
    return [result, *(arg for arg in args if isinstance(arg, (np.ndarray, list)))]


def _same_bits(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_same_bits, a, b))
    if type(a) is float and type(b) is float:
        return a.hex() == b.hex() if a == a else b != b
    return type(a) is type(b) and (a == b or a != a and b != b)  # type: ignore[comparison-overlap]


def _close(a: object, b: object) -> bool:
    """Same type (and dtype, shape), values within a relative 1e-12: fastmath's promise."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-12, atol=0))
    return type(a) is type(b) and (a == b or abs(a - b) <= 1e-12 * abs(a))  # type: ignore[operator]


def _check(kernel: Kernel, variants: dict[str, Callable[..., object]]) -> list[str]:
    """The variants whose outputs differ from the original's, by bits (or close, fastmath)."""
    expected = _outputs(kernel, variants[ORIGINAL])
    same = _close if kernel.fastmath else _same_bits
    return [name for name, function in variants.items()
            if not all(map(same, expected, _outputs(kernel, function)))]


def numba_variant(kernel: Kernel) -> tuple[Callable[..., object] | None, str]:
    """``numba.njit`` of the loop (``fastmath=`` as the kernel) if numba is installed and
    compiles it; else None and why not (it refuses lists of lists, for one)."""
    if importlib.util.find_spec("numba") is None:
        return None, "-"
    import numba

    jitted = numba.njit(fastmath=kernel.fastmath)(kernel.original)
    try:
        _outputs(kernel, jitted)
    except Exception as exc:  # noqa: BLE001 - numba's refusal is a finding, not a failure
        return None, type(exc).__name__[:12]
    return jitted, ""


def run_kernel(kernel: Kernel, config: BenchConfig) -> tuple[float, float] | None:
    """Check and time one kernel; (compiled/original, compiled/hand) as speedups."""
    import symcompile as sc

    settle_the_heap()
    compiled = sc.symbolic(fastmath=kernel.fastmath)(kernel.original)
    variants = {ORIGINAL: kernel.original, COMPILED: compiled, HAND: kernel.hand}
    jitted, numba_note = numba_variant(kernel)
    if jitted is not None:
        variants[NUMBA] = jitted
    wrong = _check(kernel, variants)  # also compiles
    if NUMBA in wrong:  # numba's own rounding (it may contract a * b + c): shown, not timed
        wrong.remove(NUMBA)
        del variants[NUMBA]
        numba_note = "differs"
    if wrong:
        print(f"  {kernel.name}: NOT bit-identical: {', '.join(wrong)}")
        return None
    args = kernel.make_args()
    samples = measure(variants, config.repeats, args=args, target_ns=config.target_ns)
    stats = summarize(samples)
    vs_original = statistics.median(paired_ratios(samples, ORIGINAL, COMPILED))
    vs_hand = statistics.median(paired_ratios(samples, HAND, COMPILED))
    faults = f"{faults_per_call(compiled, args):.0f}/{faults_per_call(kernel.hand, args):.0f}"
    kind = "fastmath" if kernel.fastmath else "vectorizable" if kernel.vectorizable else "stays a loop"
    if NUMBA in variants:
        numba_note = f"{statistics.median(paired_ratios(samples, ORIGINAL, NUMBA)):.2f}x"
    print(f"  {kernel.name:<24} {kind:<13} {vs_original:9.2f}x {vs_hand:9.2f}x "
          f"{stats[ORIGINAL].median / 1e3:12.1f} {stats[COMPILED].median / 1e3:12.1f} "
          f"{stats[HAND].median / 1e3:12.1f} {faults:>9} {numba_note:>12}")
    return vs_original, vs_hand


def run(config: BenchConfig) -> int:
    if not print_header(NAME, DESCRIPTION):
        return 1
    print(f"sizes: 1-D {N:,} elements, 2-D {M}x{M}, pairwise {P} points; {config.repeats} "
          "round-robin repeats, medians; every variant checked bit-identical first")
    print(f"  {'kernel':<24} {'kind':<13} {'vs orig':>10} {'vs hand':>10} "
          f"{'orig µs':>12} {'compiled µs':>12} {'hand µs':>12} {'faults c/h':>9} {'numba':>12}")
    results: dict[str, tuple[float, float]] = {}
    failed = False
    for kernel in KERNELS:
        try:
            found = run_kernel(kernel, config)
        except Exception:  # noqa: BLE001 - report and go on with the other kernels
            traceback.print_exc()
            found = None
        if found is None:
            failed = True
        else:
            results[kernel.name] = found
    vectorizable = [results[k.name] for k in KERNELS if k.vectorizable and not k.fastmath and k.name in results]
    fast = [results[k.name] for k in KERNELS if k.fastmath and k.name in results]
    refused = [results[k.name][0] for k in KERNELS if not k.vectorizable and k.name in results]
    if vectorizable:
        over_original = statistics.median(r[0] for r in vectorizable)
        over_hand = statistics.median(r[1] for r in vectorizable)
        print(f"vectorizable kernels ({len(vectorizable)}): median compiled/original "
              f"{over_original:.1f}x (target >= {TARGET_VS_ORIGINAL:g}x "
              f"{'[ok]' if over_original >= TARGET_VS_ORIGINAL else '[miss]'}), median compiled vs "
              f"hand {over_hand:.2f}x (target >= {TARGET_VS_HAND:g}x "
              f"{'[ok]' if over_hand >= TARGET_VS_HAND else '[miss]'})")
    if fast:
        print(f"fastmath kernels ({len(fast)}, not in the medians above): median compiled/original "
              f"{statistics.median(r[0] for r in fast):.1f}x, compiled vs hand "
              f"{statistics.median(r[1] for r in fast):.2f}x")
    if refused:
        worst = min(refused)
        print(f"loops that must stay loops ({len(refused)}): slowest compiled/original {worst:.2f}x "
              f"(target >= {TARGET_REFUSED:g}x {'[ok]' if worst >= TARGET_REFUSED else '[miss]'})")
    return 1 if failed else 0
