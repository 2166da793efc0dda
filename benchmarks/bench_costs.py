"""Benchmark case "costs": what each construct of the cost model costs on this Python.

symcompile/analysis/cost.py weighs a specialization's saving against its entry check with a
table of per-construct costs (ns). This case measures each one and prints it beside the
model's constant, so the table can be checked on CPython 3.11-3.13 (run it with each) and
updated when they drift. A construct's cost is the difference between two functions, timed
round-robin in one process (``benchmarks.timing``): one whose body repeats the construct
``REPEATS_IN_BODY`` times and one that repeats the same code without it (``z = x + y`` against
``z = x``), divided by the count; the array rows time one operation on ``cost.ARRAY_ELEMENTS``
float64 elements. Names the generated code binds (``type``, ``float``, ``ndarray``, ``add``)
are closure cells here too, as the loader makes them.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks.timing import BenchConfig, measure, print_header
from symcompile.analysis import cost
from symcompile.passes.vectorize_lists import lists_as_arrays

NAME = "costs"
DESCRIPTION = "the cost model's per-construct costs (ns), measured beside symcompile's table"
SINGLE_THREADED_BLAS = True

REPEATS_IN_BODY = 50


@dataclass(frozen=True)
class Construct:
    """One row: `line` against `baseline`, each repeated `count` times in a body taking
    `params`; `cells` are the names the body reads from its closure."""

    name: str
    model: float
    line: str
    baseline: str
    params: str = "x, y"
    count: int = REPEATS_IN_BODY


class _Thing:
    a = 1.0


def _helper(value: object) -> object:
    return value


def cells() -> dict[str, object]:
    """What the bodies read besides their arguments, bound as closure cells."""
    return {"type": type, "T": float, "abs": abs, "helper": _helper, "D": np.dtype(np.float64),
            "ndarray": np.ndarray, "multiply": np.multiply, "lists_as_arrays": lists_as_arrays}


CONSTRUCTS: tuple[Construct, ...] = (
    Construct("READ", cost.READ, "x", "pass"),
    Construct("WRITE", cost.WRITE, "z = x", "x"),
    Construct("NUMBER_OPERATION", cost.NUMBER_OPERATION, "z = x + y", "z = x"),
    Construct("MIXED_NUMBERS", cost.MIXED_NUMBERS, "z = x + 1", "z = x + 1.0"),
    Construct("DIVISION", cost.DIVISION, "z = x / y", "z = x * y"),
    Construct("POWER", cost.POWER, "z = y ** 2", "z = y * y"),
    Construct("COMPARISON", cost.COMPARISON, "z = x < y", "z = x"),
    Construct("BRANCH", cost.BRANCH, "if x: z = x", "z = x"),
    Construct("C_CALL", cost.C_CALL, "z = abs(x)", "z = x"),
    Construct("PYTHON_CALL", cost.PYTHON_CALL, "z = helper(x)", "z = x"),
    Construct("ATTRIBUTE", cost.ATTRIBUTE, "z = y.a", "z = y"),
    Construct("SUBSCRIPT", cost.SUBSCRIPT, "z = y[0]", "z = y"),
    Construct("BUILD", cost.BUILD, "z = (x, x)", "z = x"),
    Construct("LOOP_TURN", cost.LOOP_TURN, "for z in y: pass", "pass", count=1),
    Construct("FREE", cost.FREE, "z = x\ndel z", "z = x"),
    Construct("TYPE_CHECK", cost.TYPE_CHECK, "if type(x) is not T: return", "pass"),
    Construct("ARRAY_ATTRIBUTE_CHECK", cost.ARRAY_ATTRIBUTE_CHECK,
              "if x.dtype is not D: return", "pass"),
    Construct("LAYOUT_CHECK", cost.LAYOUT_CHECK, "if not x.flags.c_contiguous: return", "pass"),
    Construct("SHAPE_CHECK", cost.SHAPE_CHECK, "if x.shape != y.shape: return", "pass"),
    Construct("NEW_ARRAY", cost.NEW_ARRAY, "z = x * y", "pass", count=1),
    Construct("INTO_ARRAY", cost.INTO_ARRAY, "multiply(x, y, out=x)", "pass", count=1),
    # converting lists for array code (vectorize_loops): the call on an empty list (the model
    # adds the array code's own fixed cost, ~4 µs: errstate, bounds, slices), per row of a
    # list of lists, per element read (type scan and copy), per element stored back
    Construct("LIST_CONVERSION", cost.LIST_CONVERSION, "lists_as_arrays(1e18, ((x, 1, 'r'),))", "pass", count=1),
    Construct("LIST_ROW", cost.LIST_ROW, "lists_as_arrays(1e18, ((y, 2, 'r'),))",
              "lists_as_arrays(1e18, ((x, 2, 'r'),))", count=1),
    Construct("LIST_ELEMENT_IN", cost.LIST_ELEMENT_IN, "lists_as_arrays(1e18, ((y, 1, 'r'),))",
              "lists_as_arrays(1e18, ((x, 1, 'r'),))", count=1),
    Construct("LIST_ELEMENT_OUT", cost.LIST_ELEMENT_OUT, "y[0:] = x.tolist()", "pass", count=1),
)


def arguments(construct: Construct) -> tuple[object, object]:
    """What a construct's bodies are called with."""
    name = construct.name
    if name in ("ARRAY_ATTRIBUTE_CHECK", "LAYOUT_CHECK", "SHAPE_CHECK"):
        return np.zeros((4, 4)), np.zeros((4, 4))
    if name in ("NEW_ARRAY", "INTO_ARRAY"):
        # ones: multiplying them in place keeps the values (and the time) the same
        return np.ones(cost.ARRAY_ELEMENTS), np.ones(cost.ARRAY_ELEMENTS)
    if name in ("LIST_CONVERSION", "LIST_ELEMENT_IN"):
        return [], [1.5] * cost.ARRAY_ELEMENTS
    if name == "LIST_ROW":
        return [], [[1.5] for _ in range(1000)]
    if name == "LIST_ELEMENT_OUT":
        return np.ones(cost.ARRAY_ELEMENTS), [0.0] * cost.ARRAY_ELEMENTS
    if name == "ATTRIBUTE":
        return 1.5, _Thing()
    if name == "SUBSCRIPT":
        return 1.5, [1.5]
    if name == "POWER":
        return 1.5, 12345
    if name == "LOOP_TURN":
        return 1.5, range(100)
    return 1.5, 2.5


def body_function(line: str, count: int, params: str) -> Callable[..., object]:
    """`def f(params): line; line; ...; return None`, its free names closure cells."""
    names = cells()
    body = "".join(f"    {part}\n" for _ in range(count) for part in line.split("\n"))
    source = (f"def make({', '.join(names)}):\n  def f({params}):\n{body}    return None\n"
              f"  return f\n")
    namespace: dict[str, object] = {}
    exec(compile(source, "<cost construct>", "exec"), namespace)
    return namespace["make"](*names.values())  # type: ignore[operator,no-any-return]


def measured(construct: Construct, config: BenchConfig) -> float:
    """The construct's cost in ns: (with - without) / count, each the fastest of its repeats
    (on a shared machine, the least disturbed)."""
    args = arguments(construct)
    variants = {"with": body_function(construct.line, construct.count, construct.params),
                "without": body_function(construct.baseline, construct.count, construct.params)}
    samples = measure(variants, config.repeats, args=args, target_ns=config.target_ns)
    per_item = ("LOOP_TURN", "LIST_ROW", "LIST_ELEMENT_IN", "LIST_ELEMENT_OUT")
    turns = len(args[1]) if construct.name in per_item else 1  # type: ignore[arg-type]
    return (min(samples["with"]) - min(samples["without"])) / construct.count / turns


def run(config: BenchConfig) -> int:
    """Measure every construct; print measured and model costs side by side."""
    if not print_header(NAME, DESCRIPTION):
        return 1
    print()
    print(f"{'construct':<24}{'measured ns':>12}{'model ns':>10}{'measured/model':>16}")
    try:
        for construct in CONSTRUCTS:
            value = measured(construct, config)
            ratio = value / construct.model if construct.model else float("nan")
            print(f"{construct.name:<24}{value:>12.1f}{construct.model:>10.1f}{ratio:>16.2f}")
    except Exception:  # a construct that cannot be measured fails the case, not the run
        traceback.print_exc()
        return 1
    print(f"\n(array rows: {cost.ARRAY_ELEMENTS} float64 elements; a specialization pays when "
          f"its saving exceeds its entry check: TYPE_CHECK per argument, plus the array checks)")
    return 0
