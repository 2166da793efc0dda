"""The kernels of the real-code benchmark (``python -m benchmarks real``, issue 11 #4).

Numeric Python written the way people write it, not the textbook's examples: loops over lists
and lists of objects, NumPy element loops, whole-array expressions, tiny helpers, code with
dicts and strings around the numbers. One module per style:

* ``lists``   - pure-Python loops over lists of floats and lists of lists;
* ``objects`` - loops over lists of objects and dicts, a small user matrix class;
* ``arrays``  - loops over the elements of NumPy arrays (stencils, scans, recurrences);
* ``whole``   - whole-array NumPy expressions on 1e5-element arrays;
* ``small``   - tiny helpers, ``math`` calls, ``functools.reduce``/``map``/``sum`` of
  generators, strings and dicts around numbers.

Each kernel is a ``Kernel``: the function as written (its docstring says what real code it
stands for), a category, ``make_args(small)`` building fresh, deterministic inputs (``small``
for the tests: a fraction of a millisecond) and, for many, ``hand``: the best bit-identical
rewrite in plain Python/NumPy (hoisting, locals, inlining, vectorizing with the same
operations in the same order; ``hand_vectorized`` says the rewrite swaps a Python loop for
whole-array NumPy). A hand reference is exact for any inputs of its kernel's types, not only
the benchmark's: a rewrite exact only for floats (``accumulate`` for ``+=``, ``zip(*rows)``,
fields summed in locals, Python floats for float64 items) runs behind type tests (one pass at
C speed: ``all_of_type``) and falls back to the code as written, and where no exact rewrite
pays the reference is the kernel's own code (tests/test_bench_real_hand_exact.py gives them
hostile inputs). The kernels copy what they mutate, so every call does the same work. This package imports numpy: only ``benchmarks.bench_real`` and the tests import it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Categories: which style of code a kernel is.
LISTS = "lists"
OBJECTS = "objects"
ARRAY_LOOPS = "array-loops"
WHOLE_ARRAY = "whole-array"
TINY = "tiny"
CALLS = "calls"
TEXT = "text"
CATEGORIES: tuple[str, ...] = (LISTS, OBJECTS, ARRAY_LOOPS, WHOLE_ARRAY, TINY, CALLS, TEXT)
#: The categories whose work is already vectorized (NumPy does it): left out of the
#: "non-vectorized" geometric mean.
VECTORIZED: frozenset[str] = frozenset({WHOLE_ARRAY})


@dataclass(frozen=True)
class Kernel:
    """One benchmark kernel: the code as written, its inputs, and its hand reference."""

    name: str
    category: str
    fn: Callable[..., object]
    make_args: Callable[[bool], tuple[object, ...]]
    hand: Callable[..., object] | None = None
    #: the hand reference replaces a Python loop by whole-array NumPy (a different style of
    #: code: its ratio is reported apart from the same-style rewrites)
    hand_vectorized: bool = False

    def __post_init__(self) -> None:
        assert self.category in CATEGORIES, self.category
        assert self.fn.__doc__, f"{self.name}: say what real code the kernel stands for"
        assert self.hand is not None or not self.hand_vectorized, self.name

    @property
    def vectorized(self) -> bool:
        return self.category in VECTORIZED

    @property
    def summary(self) -> str:
        """The first line of the kernel's docstring."""
        return (self.fn.__doc__ or "").strip().splitlines()[0]


def all_of_type(items: Sequence[object], kind: type) -> bool:
    """Whether every item is exactly of type ``kind`` (one pass at C speed, no code
    of the items runs): what a hand reference tests before a rewrite exact only for builtin
    numbers (one that takes ``+`` for ``+=``, or a C iterator that ends quietly at a
    StopIteration an item's operator raises)."""
    return list(map(type, items)).count(kind) == len(items)


def all_kernels() -> tuple[Kernel, ...]:
    """Every kernel, grouped by style (imports the kernel modules, and so numpy)."""
    from benchmarks.real import arrays, lists, objects, small, whole

    kernels = (*lists.KERNELS, *objects.KERNELS, *arrays.KERNELS, *whole.KERNELS,
               *small.KERNELS)
    names = [kernel.name for kernel in kernels]
    assert len(names) == len(set(names)), "kernel names must be unique"
    return kernels


__all__ = ["ARRAY_LOOPS", "all_of_type", "CALLS", "CATEGORIES", "LISTS", "OBJECTS", "TEXT", "TINY",
           "VECTORIZED", "WHOLE_ARRAY", "Kernel", "all_kernels"]
