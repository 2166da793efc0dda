"""Real-code kernels: Python loops over the elements of NumPy arrays.

Stencils, pairwise distances, conditional updates, window scans and recurrences written with
``a[i]`` / ``a[i, j]`` indexing, as people port them from C or MATLAB. ``*_hand`` is the best
bit-identical rewrite: vectorized with the same operations in the same order where the loop
allows it, a loop over ``.tolist()``'s Python floats where it is a recurrence (float64 + - * /
give the same bits on Python floats as on NumPy scalars). The last argument ``True`` of a
``Kernel`` below marks a hand reference that is vectorized (``hand_vectorized``).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from benchmarks.real import ARRAY_LOOPS, Kernel

SEED = 3333


def _rng(offset: int) -> np.random.Generator:
    return np.random.default_rng(SEED + offset)


def smooth_1d(a):
    """A 3-point smoothing stencil over a float64 array, element by element."""
    n = a.shape[0]
    out = a.copy()
    for i in range(1, n - 1):
        out[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]
    return out


def smooth_1d_hand(a):
    out = a.copy()
    out[1:-1] = 0.25 * a[:-2] + 0.5 * a[1:-1] + 0.25 * a[2:]
    return out


def jacobi_2d(u0, sweeps):
    """Jacobi sweeps of a 5-point Laplacian on a 2-D array with u[i, j] indexing."""
    u = u0.copy()
    n, m = u.shape
    for _ in range(sweeps):
        new = u.copy()
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                new[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        u = new
    return u


def jacobi_2d_hand(u0, sweeps):
    u = u0.copy()
    for _ in range(sweeps):
        new = u.copy()
        new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        u = new
    return u


def pairwise_distances(points):
    """The full matrix of Euclidean distances between N points in 3-D, double loop."""
    n = points.shape[0]
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            dx = points[i, 0] - points[j, 0]
            dy = points[i, 1] - points[j, 1]
            dz = points[i, 2] - points[j, 2]
            d[i, j] = math.sqrt(dx * dx + dy * dy + dz * dz)
    return d


def pairwise_distances_hand(points):
    x = points[:, 0]
    y = points[:, 1]
    z = points[:, 2]
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    dz = z[:, None] - z[None, :]
    return np.sqrt(dx * dx + dy * dy + dz * dz)


def clip_in_place(a, lo, hi):
    """Clamp the values of a copy of an array into [lo, hi] with an if/elif per element."""
    out = a.copy()
    for i in range(len(out)):
        if out[i] > hi:
            out[i] = hi
        elif out[i] < lo:
            out[i] = lo
    return out


def clip_in_place_hand(a, lo, hi):
    out = a.copy()
    out[out > hi] = hi
    out[out < lo] = lo
    return out


def window_max(a, w):
    """The maximum of every window of w samples, scanned with an inner loop."""
    n = len(a)
    out = np.empty(n - w + 1)
    for i in range(n - w + 1):
        m = a[i]
        for k in range(i + 1, i + w):
            if a[k] > m:
                m = a[k]
        out[i] = m
    return out


def window_max_hand(a, w):
    return sliding_window_view(a, w).max(axis=1)


def ema_filter(x, alpha):
    """An exponential moving average, a recurrence over a float64 array into another."""
    out = np.empty_like(x)
    s = x[0]
    for i in range(len(x)):
        s = alpha * x[i] + (1.0 - alpha) * s
        out[i] = s
    return out


def ema_filter_hand(x, alpha):
    values = x.tolist()
    s = values[0]
    beta = 1.0 - alpha
    out = []
    append = out.append
    for v in values:
        s = alpha * v + beta * s
        append(s)
    return np.array(out)


def decay_sum(samples):
    """Iterate over a float64 array's elements with a recurrence (acc = acc * 0.9 + x)."""
    acc = 0.0
    for x in samples:
        acc = acc * 0.9 + x
    return acc


def decay_sum_hand(samples):
    acc = 0.0
    for x in samples.tolist():
        acc = acc * 0.9 + x
    return np.float64(acc) if len(samples) else acc


def max_drawdown(prices):
    """The largest peak-to-trough loss of a price series, tracking the running peak."""
    peak = prices[0]
    worst = 0.0
    for p in prices:
        if p > peak:
            peak = p
        dd = (peak - p) / peak
        if dd > worst:
            worst = dd
    return worst


def max_drawdown_hand(prices):
    peaks = np.maximum.accumulate(prices)
    worst = ((peaks - prices) / peaks).max()
    return worst if worst > 0.0 else 0.0


def count_crossings(signal, level):
    """How many times a signal crosses a level upwards (comparisons of neighbours)."""
    count = 0
    for i in range(1, len(signal)):
        if signal[i - 1] < level <= signal[i]:
            count += 1
    return count


def count_crossings_hand(signal, level):
    return int(np.count_nonzero((signal[:-1] < level) & (level <= signal[1:])))


def histogram_loop(values, lo, hi, bins):
    """A histogram into an int64 array, bin index computed per element, last bin closed."""
    counts = np.zeros(bins, dtype=np.int64)
    width = (hi - lo) / bins
    for v in values:
        k = int((v - lo) / width)
        if k == bins:
            k = bins - 1
        counts[k] += 1
    return counts


def histogram_loop_hand(values, lo, hi, bins):
    width = (hi - lo) / bins
    index = ((values - lo) / width).astype(np.int64)
    index[index == bins] = bins - 1
    return np.bincount(index, minlength=bins)


def thomas_solve(lower, diag, upper, rhs):
    """The Thomas algorithm for a tridiagonal system, forward sweep and back substitution."""
    n = len(diag)
    c = np.zeros(n)
    d = np.zeros(n)
    c[0] = upper[0] / diag[0]
    d[0] = rhs[0] / diag[0]
    for i in range(1, n):
        m = diag[i] - lower[i] * c[i - 1]
        c[i] = upper[i] / m
        d[i] = (rhs[i] - lower[i] * d[i - 1]) / m
    x = np.zeros(n)
    x[n - 1] = d[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = d[i] - c[i] * x[i + 1]
    return x


def thomas_solve_hand(lower, diag, upper, rhs):
    # Python floats give float64's bits for + - * /, but raise where NumPy warns and gives an
    # infinity or a NaN: the lists run only on 1-D float64 arrays as long as diag (underflow
    # ignored, NumPy's default), every pivot finite and not 0, every result finite; anything
    # else runs the loop as written (which warns or raises as it does)
    if not (_float64_vectors(lower, diag, upper, rhs) and len(diag) >= 2
            and min(len(lower), len(upper), len(rhs)) >= len(diag)
            and np.geterr()["under"] == "ignore"):
        return thomas_solve(lower, diag, upper, rhs)
    a = lower.tolist()
    b = diag.tolist()
    u = upper.tolist()
    r = rhs.tolist()
    n = len(b)
    if b[0] - b[0] != 0.0 or b[0] == 0.0:
        return thomas_solve(lower, diag, upper, rhs)
    c = [0.0] * n
    d = [0.0] * n
    c0 = u[0] / b[0]
    d0 = r[0] / b[0]
    c[0] = c0
    d[0] = d0
    for i in range(1, n):
        m = b[i] - a[i] * c0
        if m - m != 0.0 or m == 0.0:
            return thomas_solve(lower, diag, upper, rhs)
        c0 = u[i] / m
        d0 = (r[i] - a[i] * d0) / m
        c[i] = c0
        d[i] = d0
    x = [0.0] * n
    xi = d[n - 1]
    x[n - 1] = xi
    for i in range(n - 2, -1, -1):
        xi = d[i] - c[i] * xi
        x[i] = xi
    if not (all(map(math.isfinite, c)) and all(map(math.isfinite, d))
            and all(map(math.isfinite, x))):
        return thomas_solve(lower, diag, upper, rhs)
    return np.array(x)


def _float64_vectors(*arrays):
    return all(type(a) is np.ndarray and a.dtype == np.float64 and a.ndim == 1 for a in arrays)


def cumulative_trapz(y, dx):
    """The running integral of sampled values by the trapezoid rule, in a loop."""
    out = np.zeros(len(y))
    s = 0.0
    for i in range(1, len(y)):
        s += 0.5 * (y[i] + y[i - 1]) * dx
        out[i] = s
    return out


def cumulative_trapz_hand(y, dx):
    terms = np.empty(len(y))
    terms[0] = 0.0
    terms[1:] = 0.5 * (y[1:] + y[:-1]) * dx
    return np.cumsum(terms)


def threshold_mask(img, t):
    """A binary mask of the pixels above a threshold, nested loops over a 2-D array."""
    h, w = img.shape
    mask = np.zeros((h, w), dtype=np.uint8)
    for i in range(h):
        for j in range(w):
            if img[i, j] > t:
                mask[i, j] = 1
    return mask


def threshold_mask_hand(img, t):
    return (img > t).astype(np.uint8)


def _args_smooth(small: bool) -> tuple[object, ...]:
    return (_rng(0).standard_normal(30 if small else 3000),)


def _args_jacobi(small: bool) -> tuple[object, ...]:
    n = 6 if small else 30
    u = np.zeros((n, n))
    u[0, :] = 1.0 + _rng(1).random(n)
    return u, 1 if small else 2


def _args_points(small: bool) -> tuple[object, ...]:
    return (_rng(2).uniform(-1.0, 1.0, (8 if small else 60, 3)),)


def _args_clip(small: bool) -> tuple[object, ...]:
    return _rng(3).standard_normal(40 if small else 5000), -1.0, 1.5


def _args_window(small: bool) -> tuple[object, ...]:
    return _rng(4).standard_normal(40 if small else 1200), 5 if small else 16


def _args_ema(small: bool) -> tuple[object, ...]:
    return np.cumsum(_rng(5).standard_normal(40 if small else 8000)), 0.05


def _args_decay(small: bool) -> tuple[object, ...]:
    return (_rng(6).random(40 if small else 20000),)


def _args_prices(small: bool) -> tuple[object, ...]:
    steps = _rng(7).normal(0.0, 0.01, 40 if small else 8000)
    return (100.0 * np.exp(np.cumsum(steps)),)


def _args_crossings(small: bool) -> tuple[object, ...]:
    return np.sin(np.linspace(0.0, 60.0, 50 if small else 10000)) + \
        0.3 * _rng(8).standard_normal(50 if small else 10000), 0.25


def _args_histogram(small: bool) -> tuple[object, ...]:
    return _rng(9).uniform(0.0, 10.0, 50 if small else 6000), 0.0, 10.0, 20


def _args_thomas(small: bool) -> tuple[object, ...]:
    n = 12 if small else 4000
    rng = _rng(10)
    return (rng.uniform(-1, 0, n), rng.uniform(4, 5, n), rng.uniform(-1, 0, n),
            rng.standard_normal(n))


def _args_trapz(small: bool) -> tuple[object, ...]:
    return np.cos(np.linspace(0.0, 6.0, 30 if small else 8000)), 6.0 / 8000


def _args_mask(small: bool) -> tuple[object, ...]:
    return _rng(11).random((6, 7) if small else (60, 80)), 0.6


KERNELS: tuple[Kernel, ...] = (
    Kernel("smooth_1d", ARRAY_LOOPS, smooth_1d, _args_smooth, smooth_1d_hand, True),
    Kernel("jacobi_2d", ARRAY_LOOPS, jacobi_2d, _args_jacobi, jacobi_2d_hand, True),
    Kernel("pairwise_distances", ARRAY_LOOPS, pairwise_distances, _args_points,
           pairwise_distances_hand, True),
    Kernel("clip_loop", ARRAY_LOOPS, clip_in_place, _args_clip, clip_in_place_hand, True),
    Kernel("window_max", ARRAY_LOOPS, window_max, _args_window, window_max_hand, True),
    Kernel("ema_filter", ARRAY_LOOPS, ema_filter, _args_ema, ema_filter_hand),
    Kernel("decay_sum", ARRAY_LOOPS, decay_sum, _args_decay, decay_sum_hand),
    Kernel("max_drawdown", ARRAY_LOOPS, max_drawdown, _args_prices, max_drawdown_hand, True),
    Kernel("count_crossings", ARRAY_LOOPS, count_crossings, _args_crossings,
           count_crossings_hand, True),
    Kernel("histogram_loop", ARRAY_LOOPS, histogram_loop, _args_histogram,
           histogram_loop_hand, True),
    Kernel("thomas_solve", ARRAY_LOOPS, thomas_solve, _args_thomas, thomas_solve_hand),
    Kernel("cumulative_trapz", ARRAY_LOOPS, cumulative_trapz, _args_trapz,
           cumulative_trapz_hand, True),
    Kernel("threshold_mask", ARRAY_LOOPS, threshold_mask, _args_mask, threshold_mask_hand,
           True),
)
