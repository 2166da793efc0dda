# MUST NOT CHANGE: a helper that keeps NumPy results in locals is not inlined. Its call costs
# little next to its array work, but inlined, its locals would keep their arrays alive in the
# caller until the caller returns (Black-Scholes with cnd() got 1.15x slower, with 13 arrays at
# its peak where the original has 9). A helper using NumPy only in its return is inlined.
import numpy as np


def cnd(d):
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    return np.where(d > 0, 1.0 - k, k)


def f(d1, d2):
    return cnd(d1), cnd(d2)
# --- after inline_calls ---
def f(d1, d2):
    return cnd(d1), cnd(d2)
