"""Hypothesis strategies that pick test inputs by parameter name.

A function's parameter *names* choose its inputs (as in google/tangent's test
suite), so a corpus function only has to name its parameters well:

==================  =========================================================
name                values
==================  =========================================================
``x``, ``y``, ``w`` Python ``float``: includes nan (both signs), +-inf, -0.0,
                    0.0, subnormals, the largest floats, 1e200 (squares to
                    overflow), and ordinary values
``n``               small loop-driving ``int``: 0..20 (loop counts, recursion
                    depth, ``range`` bounds -- loops always terminate quickly)
``m``               small signed ``int``: -20..20 (safe for ``range``, shifts
                    and indexing; negatives exercise error paths)
``k``, ``i``, ``j`` any ``int``: 0, +-1, negatives, 2**53+1, int64 limits,
                    +-2**100 (never use these to drive a loop)
``big``             huge ``int``: magnitude at least 2**64, up to +-2**1100
                    (too large to convert to float)
``z``               ``complex``: parts drawn like ``x``
``flag``, ``p``,    ``bool``
``q``
``a``, ``b``,       a number of mixed kind: ``int``, ``float``, ``bool`` or
``c``, ``d``        ``complex``
``arr``, ``u``,     numpy ``float64`` arrays of shape (), (0,), (1,), (3,) or
``v``               (2, 3), elements drawn like ``x``; all array arguments of
                    one call usually (not always) share a shape
``ints``            numpy ``int64`` 1-d arrays of length 0..5 (int64 limits
                    included)
``xs``              ``list`` of 0..6 floats drawn like ``x``
``s``               short ``str`` (0..8 characters)
==================  =========================================================

A name not in the table is looked up again without trailing digits and
underscores (``x1``, ``x_2`` -> ``x``).  ``*args`` elements and ``**kwargs``
values use their parameter's name if it is in the table, else the mixed
numbers of ``a``.  A parameter with a default whose name is unknown is always
omitted; one without a default must be given an override.

:func:`arguments_for` builds a strategy of ``(args, kwargs)`` calls from
``inspect.signature``: defaulted parameters are sometimes omitted,
positional-or-keyword parameters are sometimes passed by keyword,
keyword-only parameters are always passed by keyword, ``*args`` gets 0-3
extra values and ``**kwargs`` 0-2 extra keys.

Overrides, strongest first:

* ``arguments_for(f, arguments=strategy)``, or a function attribute
  ``f.sc_arguments = strategy``: a strategy of complete ``(args, kwargs)``
  calls (see :func:`positional`);
* ``arguments_for(f, params={"name": strategy})``, or ``f.sc_params = {...}``:
  per-parameter strategies, used instead of the name convention.

The corpus (``tests/corpus.py``) keeps its overrides in dicts keyed by corpus
name and passes them to :func:`arguments_for`.

Random draws can miss a corner case (``-0.0`` is one float among many), so
:func:`corner_calls` also gives a fixed list of calls built from
:data:`CORNER_VALUES` -- a baseline call, each parameter varied through its
corner values one at a time, and a "diagonal" where all parameters take their
i-th corner value together.  Tests add them as explicit hypothesis examples.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
from hypothesis import strategies as st

__all__ = [
    "ARGUMENTS_ATTR",
    "ARRAY_SHAPES",
    "Call",
    "NAME_STRATEGIES",
    "PARAMS_ATTR",
    "CORNER_VALUES",
    "arguments_for",
    "corner_calls",
    "float_arrays",
    "floats",
    "positional",
    "strategy_for_name",
]

Call = tuple[tuple[Any, ...], dict[str, Any]]

#: Attribute holding a strategy of whole ``(args, kwargs)`` calls.
ARGUMENTS_ATTR = "sc_arguments"
#: Attribute holding a ``{parameter name: strategy}`` dict.
PARAMS_ATTR = "sc_params"

_NAN = math.nan
_INF = math.inf

SPECIAL_FLOATS: tuple[float, ...] = (
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.0,
    0.1,
    _NAN,
    -_NAN,
    _INF,
    -_INF,
    5e-324,  # smallest subnormal
    -5e-324,
    1e-310,  # subnormal
    2.2250738585072014e-308,  # smallest normal
    1.7976931348623157e308,  # largest finite
    -1.7976931348623157e308,
    1e200,  # squares to overflow
    -1e200,
    2.0**53,
    1e16,
)

SPECIAL_INTS: tuple[int, ...] = (
    0,
    1,
    -1,
    2,
    -2,
    3,
    7,
    -7,
    10,
    2**31,
    2**53 + 1,
    2**63 - 1,
    -(2**63),
    2**64,
    2**100,
    -(2**100),
)

SPECIAL_BIG: tuple[int, ...] = (
    2**64,
    -(2**64),
    2**100,
    -(2**100),
    2**100 + 1,
    10**30 + 7,
    -(10**30) - 7,
    2**1023,
    2**1100,
    -(2**1100),
)

_INT64_MIN = int(np.iinfo(np.int64).min)
_INT64_MAX = int(np.iinfo(np.int64).max)

#: Shapes of the float arrays drawn for ``arr``, ``u`` and ``v``.
ARRAY_SHAPES: tuple[tuple[int, ...], ...] = ((), (0,), (1,), (3,), (2, 3))

_SHARED_SHAPE_KEY = "symcompile-tests-array-shape"


def floats() -> st.SearchStrategy[float]:
    """Python floats, with the corner cases drawn often."""
    return st.one_of(
        st.sampled_from(SPECIAL_FLOATS),
        st.floats(-1e6, 1e6),
        st.floats(),
    )


def small_ints() -> st.SearchStrategy[int]:
    """Loop-driving ints, 0..20."""
    return st.integers(0, 20)


def signed_small_ints() -> st.SearchStrategy[int]:
    """Small ints that may be negative, -20..20."""
    return st.integers(-20, 20)


def ints() -> st.SearchStrategy[int]:
    """Any int, corner cases often (never use one to drive a loop)."""
    return st.one_of(st.sampled_from(SPECIAL_INTS), st.integers(-100, 100), st.integers())


def big_ints() -> st.SearchStrategy[int]:
    """Huge ints, |value| >= 2**64."""
    return st.one_of(
        st.sampled_from(SPECIAL_BIG),
        st.integers(2**64, 2**200),
        st.integers(-(2**200), -(2**64)),
    )


def complexes() -> st.SearchStrategy[complex]:
    """Complex numbers with both parts drawn like :func:`floats`."""
    return st.builds(complex, floats(), floats())


def mixed_numbers() -> st.SearchStrategy[Any]:
    """int, float, bool or complex."""
    return st.one_of(ints(), floats(), st.booleans(), complexes())


def array_shapes() -> st.SearchStrategy[tuple[int, ...]]:
    """Usually the shape shared by all arrays of one call, sometimes any shape."""
    shapes = st.sampled_from(ARRAY_SHAPES)
    return st.one_of(st.shared(shapes, key=_SHARED_SHAPE_KEY), st.shared(shapes, key=_SHARED_SHAPE_KEY), shapes)


def float_arrays(shape: Any = None) -> st.SearchStrategy[np.ndarray]:
    """float64 arrays (see :data:`ARRAY_SHAPES`) with nan, inf and -0.0 among the elements."""
    return hnp.arrays(np.float64, array_shapes() if shape is None else shape, elements=floats())


def int_arrays() -> st.SearchStrategy[np.ndarray]:
    """int64 1-d arrays of length 0..5."""
    elements = st.one_of(st.integers(-10, 10), st.sampled_from((_INT64_MIN, _INT64_MAX, -1, 0)))
    return hnp.arrays(np.int64, st.integers(0, 5).map(lambda size: (size,)), elements=elements)


def float_lists() -> st.SearchStrategy[list[float]]:
    """Lists of 0..6 floats."""
    return st.lists(floats(), max_size=6)


def short_strings() -> st.SearchStrategy[str]:
    """Short strings, mostly from a small alphabet with spaces and a non-ASCII letter."""
    return st.one_of(st.text(alphabet="ab c-1\u00e9\t", max_size=8), st.text(max_size=6))


#: The name conventions (documented at the top of this module).
NAME_STRATEGIES: dict[str, Callable[[], st.SearchStrategy[Any]]] = {
    "x": floats,
    "y": floats,
    "w": floats,
    "n": small_ints,
    "m": signed_small_ints,
    "k": ints,
    "i": ints,
    "j": ints,
    "big": big_ints,
    "z": complexes,
    "flag": st.booleans,
    "p": st.booleans,
    "q": st.booleans,
    "a": mixed_numbers,
    "b": mixed_numbers,
    "c": mixed_numbers,
    "d": mixed_numbers,
    "arr": float_arrays,
    "u": float_arrays,
    "v": float_arrays,
    "ints": int_arrays,
    "xs": float_lists,
    "s": short_strings,
}

_EXTRA_KEYWORDS: tuple[str, ...] = ("alpha", "beta", "gamma", "delta")


def strategy_for_name(name: str) -> st.SearchStrategy[Any] | None:
    """The conventional strategy for a parameter name, or ``None`` if the name is unknown."""
    for candidate in (name, re.sub(r"[_0-9]+$", "", name)):
        factory = NAME_STRATEGIES.get(candidate)
        if factory is not None:
            return factory()
    return None


def positional(*strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Call]:
    """A whole-call strategy passing one value from each strategy positionally."""
    return st.tuples(*strategies).map(lambda values: (tuple(values), {}))


def arguments_for(
    func: Callable[..., Any],
    *,
    arguments: st.SearchStrategy[Call] | None = None,
    params: Mapping[str, st.SearchStrategy[Any]] | None = None,
) -> st.SearchStrategy[Call]:
    """A strategy of ``(args, kwargs)`` calls for ``func``, from its signature
    and its parameter names (see the module docstring for the conventions and
    the override order).  Raises ``LookupError`` if a required parameter has
    neither a conventional name nor an override."""
    if arguments is None:
        arguments = getattr(func, ARGUMENTS_ATTR, None)
    if arguments is not None:
        return arguments
    overrides: dict[str, st.SearchStrategy[Any]] = dict(getattr(func, PARAMS_ATTR, None) or {})
    overrides.update(params or {})

    plan: list[tuple[inspect.Parameter, st.SearchStrategy[Any] | None]] = []
    for param in inspect.signature(func).parameters.values():
        strategy = overrides.get(param.name)
        if strategy is None:
            strategy = strategy_for_name(param.name)
        if strategy is None and param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            strategy = mixed_numbers()
        elif strategy is None and param.default is param.empty:
            raise LookupError(
                f"no strategy for parameter {param.name!r} of {getattr(func, '__qualname__', func)!r}: "
                "rename it after a convention in tests/strategies.py or give an override"
            )
        plan.append((param, strategy))
    taken = {param.name for param, _ in plan}
    extra_keywords = [key for key in _EXTRA_KEYWORDS if key not in taken]

    @st.composite
    def calls(draw: st.DrawFn) -> Call:
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        positional_open = True  # may more values still be passed positionally?
        for param, strategy in plan:
            kind = param.kind
            if kind is param.VAR_POSITIONAL:
                if positional_open:
                    args.extend(draw(strategy) for _ in range(draw(st.integers(0, 3))))
                continue
            if kind is param.VAR_KEYWORD:
                keys = draw(st.lists(st.sampled_from(extra_keywords), max_size=2, unique=True)) if extra_keywords else []
                for key in keys:
                    kwargs[key] = draw(strategy)
                continue
            modes: list[str] = []
            if strategy is not None:
                if kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD) and positional_open:
                    modes.append("positional")
                if kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
                    modes.append("keyword")
            if param.default is not param.empty:
                modes.append("omit")
            mode = draw(st.sampled_from(modes))
            if mode == "positional":
                args.append(draw(strategy))
            else:
                if mode == "keyword":
                    kwargs[param.name] = draw(strategy)
                if kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
                    positional_open = False
        return tuple(args), kwargs

    return calls()


def _corner_floats() -> list[float]:
    return [1.5, -0.0, 0.0, _NAN, _INF, -_INF, 1e200, 5e-324, -2.5, 1.7976931348623157e308]


def _corner_arrays() -> list[np.ndarray]:
    return [
        np.array([1.0, -0.0, _NAN]),
        np.array([[1e308, -_INF, 0.5], [-0.0, 2.0, _NAN]]),
        np.array(-0.0),
        np.zeros(0),
        np.array([_INF]),
        np.array([2.0, 0.0, -3.0]),
    ]


#: Fixed corner values per conventional name; the first is the "ordinary" baseline.
CORNER_VALUES: dict[str, Callable[[], list[Any]]] = {
    "x": _corner_floats,
    "y": _corner_floats,
    "w": _corner_floats,
    "n": lambda: [3, 0, 1, 20],
    "m": lambda: [2, 0, -1, -20, 20],
    "k": lambda: [7, 0, -1, -7, 2**100, -(2**100), 2**63 - 1, 2**53 + 1],
    "i": lambda: [3, 0, -1, -7, 2**100, -(2**100), 2**63 - 1, 2**53 + 1],
    "j": lambda: [5, 0, -1, -7, 2**100, -(2**100), 2**63 - 1, 2**53 + 1],
    "big": lambda: [2**100, -(2**100), 2**1100, -(2**1100), 10**30 + 7],
    "z": lambda: [complex(1.5, -2.0), 0j, complex(-0.0, -0.0), complex(_NAN, 1.0), complex(_INF, 0.0),
                  complex(1e200, 1e200)],
    "flag": lambda: [True, False],
    "p": lambda: [True, False],
    "q": lambda: [False, True],
    "a": lambda: [2, 0, -0.0, True, _NAN, 1.5, 1j, 2**100, -_INF],
    "b": lambda: [3, 0, 0.0, False, _NAN, -1.5, complex(0.0, -0.0), -(2**100), _INF],
    "c": lambda: [0.5, 0, -0.0, True, _NAN, 1, 1j, 2**1100, _INF],
    "d": lambda: [-1, 0, 0.0, False, _NAN, 1e308, 2j, -(2**100), -_INF],
    "arr": _corner_arrays,
    "u": _corner_arrays,
    "v": lambda: _corner_arrays()[::-1],
    "ints": lambda: [
        np.array([1, -3, 5], dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.array([_INT64_MAX, _INT64_MIN, -1], dtype=np.int64),
    ],
    "xs": lambda: [[1.5, -2.0, 0.5], [], [-0.0], [_NAN, 1.0], [_INF, -_INF], [1e308, 1e308], [2.0, 0.0]],
    "s": lambda: ["ab c", "", "a", "\u00e9-1", " b "],
}


def _corners_for_name(name: str) -> list[Any] | None:
    for candidate in (name, re.sub(r"[_0-9]+$", "", name)):
        factory = CORNER_VALUES.get(candidate)
        if factory is not None:
            return factory()
    return None


def corner_calls(func: Callable[..., Any], *, overridden: Collection[str] = ()) -> list[Call]:
    """Fixed ``(args, kwargs)`` calls of ``func`` through the corner values of
    its parameters' names (see the module docstring).  Parameters named in
    ``overridden`` (or in ``func.sc_params``) and parameters without a
    convention are left out if they have a default; if such a parameter is
    required, or ``func`` has an ``sc_arguments`` override, there are no
    corner calls.  ``*args`` and ``**kwargs`` get no extra values."""
    if getattr(func, ARGUMENTS_ATTR, None) is not None:
        return []
    skipped = set(overridden) | set(getattr(func, PARAMS_ATTR, None) or {})
    columns: list[tuple[inspect.Parameter, list[Any] | None]] = []
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        corners = None if param.name in skipped else _corners_for_name(param.name)
        if corners is None:
            if param.default is param.empty:
                return []
            columns.append((param, None))  # omitted
            continue
        columns.append((param, corners))

    def build(values: list[Any]) -> Call:
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        positional_open = True
        for (param, corners), value in zip(columns, values):
            if corners is None:
                if param.kind is not param.KEYWORD_ONLY:
                    positional_open = False
            elif param.kind is param.KEYWORD_ONLY or not positional_open:
                if param.kind is param.POSITIONAL_ONLY:
                    continue  # after an omitted positional-only one; it has a default too
                kwargs[param.name] = value
            else:
                args.append(value)
        return tuple(args), kwargs

    present = [(position, corners) for position, (_, corners) in enumerate(columns) if corners is not None]
    baseline = [corners[0] if corners is not None else None for _, corners in columns]
    rows: list[list[Any]] = [baseline]
    for position, corners in present:
        for value in corners[1:]:
            row = list(baseline)
            row[position] = value
            rows.append(row)
    if len(present) > 1:
        longest = max(len(corners) for _, corners in present)
        for index in range(1, longest):
            row = list(baseline)
            for position, corners in present:
                row[position] = corners[index % len(corners)]
            rows.append(row)
    return [build(row) for row in rows]
