"""Real-code kernels: whole-array NumPy expressions on 1e5-element float64 arrays.

The work is already vectorized (NumPy's loops do it): what a compiler can still win is
temporaries and allocations. ``*_hand`` computes the same operations in the same order into
fewer arrays (``out=``, in-place operators).
"""

from __future__ import annotations

import numpy as np

from benchmarks.real import WHOLE_ARRAY, Kernel

SEED = 4444
N = 100_000


def _rng(offset: int) -> np.random.Generator:
    return np.random.default_rng(SEED + offset)


def gauss_decay(i, h, a):
    """The issue's case: exp(-h * i - a * (i ** 2)) on a float64 array (a Gaussian profile)."""
    return np.exp(-h * i - a * (i ** 2))


def gauss_decay_hand(i, h, a):
    t = (-h) * i
    u = i ** 2
    np.multiply(a, u, out=u)
    np.subtract(t, u, out=t)
    del u
    np.exp(t, out=t)
    return t


def standardize(x):
    """Z-scores: subtract the mean, divide by the standard deviation."""
    return (x - x.mean()) / x.std()


def standardize_hand(x):
    t = x - x.mean()
    t /= x.std()
    return t


def softmax(z):
    """A numerically stable softmax of a score vector."""
    e = np.exp(z - np.max(z))
    return e / np.sum(e)


def softmax_hand(z):
    e = z - np.max(z)
    np.exp(e, out=e)
    e /= np.sum(e)
    return e


def cubic_poly(x):
    """A cubic written as it is in formulas: 3x**3 - 2x**2 + 0.5x - 1."""
    return 3.0 * x ** 3 - 2.0 * x ** 2 + 0.5 * x - 1.0


def cubic_poly_hand(x):
    t = x ** 3
    t *= 3.0
    u = x ** 2
    u *= 2.0
    t -= u
    np.multiply(0.5, x, out=u)
    t += u
    del u
    t -= 1.0
    return t


def rmse(pred, target):
    """Root-mean-square error of predictions."""
    return np.sqrt(np.mean((pred - target) ** 2))


def rmse_hand(pred, target):
    d = pred - target
    np.square(d, out=d)
    return np.sqrt(np.mean(d))


def sigmoid(x):
    """The logistic function applied to an array."""
    return 1.0 / (1.0 + np.exp(-x))


def sigmoid_hand(x):
    t = np.negative(x)
    np.exp(t, out=t)
    t += 1.0
    np.divide(1.0, t, out=t)
    return t


def blend(a, b, alpha):
    """Alpha blending of two images (2-D arrays)."""
    return alpha * a + (1 - alpha) * b


def blend_hand(a, b, alpha):
    t = alpha * a
    u = (1 - alpha) * b
    t += u
    return t


def minmax_scale(x):
    """Scale an array to [0, 1] by its minimum and maximum."""
    lo = x.min()
    hi = x.max()
    return (x - lo) / (hi - lo)


def minmax_scale_hand(x):
    lo = x.min()
    t = x - lo
    t /= x.max() - lo
    return t


def _args_gauss(small: bool) -> tuple[object, ...]:
    return np.linspace(0.0, 10.0, 37 if small else N), 0.3, 0.02


def _args_vector(small: bool) -> tuple[object, ...]:
    return (_rng(0).normal(3.0, 2.0, 37 if small else N),)


def _args_pair(small: bool) -> tuple[object, ...]:
    rng = _rng(1)
    n = 37 if small else N
    return rng.standard_normal(n), rng.standard_normal(n)


def _args_blend(small: bool) -> tuple[object, ...]:
    rng = _rng(2)
    shape = (5, 7) if small else (300, 330)
    return rng.random(shape), rng.random(shape), 0.35


KERNELS: tuple[Kernel, ...] = (
    Kernel("gauss_decay", WHOLE_ARRAY, gauss_decay, _args_gauss, gauss_decay_hand),
    Kernel("standardize", WHOLE_ARRAY, standardize, _args_vector, standardize_hand),
    Kernel("softmax", WHOLE_ARRAY, softmax, _args_vector, softmax_hand),
    Kernel("cubic_poly", WHOLE_ARRAY, cubic_poly, _args_vector, cubic_poly_hand),
    Kernel("rmse", WHOLE_ARRAY, rmse, _args_pair, rmse_hand),
    Kernel("sigmoid", WHOLE_ARRAY, sigmoid, _args_vector, sigmoid_hand),
    Kernel("blend", WHOLE_ARRAY, blend, _args_blend, blend_hand),
    Kernel("minmax_scale", WHOLE_ARRAY, minmax_scale, _args_vector, minmax_scale_hand),
)
