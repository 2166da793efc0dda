"""constants: which values may be written into the code as constants, and which callables
compute a value from their arguments and nothing else.

fold_constants folds with these facts (a result it may keep, a builtin it may run on
constants), propagate carries only such values, and the module compiler (tools/modules) reads
which builtins are pure. The sizes come from `fold_budget`: a value bigger than CPython's own
folder would build stays in the code.
"""

from __future__ import annotations

import math
import types
from typing import Callable

import numpy as np

from . import fold_budget
from .fold_budget import MAX_INT_BITS, MAX_STR_LENGTH, MAX_TUPLE_LENGTH, MAX_TUPLE_SIZE

# immutable values a folded result (and a folded global) may be
FOLDABLE_TYPES = (bool, int, float, complex, str, bytes, type(None), np.generic)

# builtins and math functions that compute a value from their arguments and nothing else
PURE_BUILTINS: frozenset[Callable[..., object]] = frozenset({
    abs, min, max, len, round, int, float, complex, bool, divmod, pow, chr, ord, sum,
})
PURE_MODULES: frozenset[types.ModuleType] = frozenset({math})


def is_foldable_value(value: object) -> bool:
    """An immutable value of bounded size, safe to compute once and write into the code."""
    if isinstance(value, tuple):  # `(2**4000,) * 200` would be 250 kB of code
        return len(value) <= MAX_TUPLE_LENGTH and fold_budget.size(value) <= MAX_TUPLE_SIZE \
            and all(map(is_foldable_value, value))
    if not isinstance(value, FOLDABLE_TYPES):
        return False
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() <= MAX_INT_BITS
    if isinstance(value, (str, bytes)):
        return len(value) <= MAX_STR_LENGTH
    return True
