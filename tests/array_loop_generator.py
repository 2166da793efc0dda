"""Random functions whose loops index NumPy arrays, and fresh arguments to call them on.

The companion of `tests/program_generator.py` (numbers, helpers, globals) for what the
`vectorize_loops` pass works on: a module with one function ``main`` whose body is a loop (or a
nest of two or three) over ``range(...)`` reading and writing elements of array arguments, in
the shapes people write:

* element maps ``out[i] = a[i - 1] * s + b[i]`` with scalar locals and several statements;
* stencils over 2-D arrays with negative and positive offsets (``u[i - 1, j]``, ``u[i][j + 1]``),
  transposed reads, outer products;
* conditional updates (``if a[i] > s: out[i] = ... else: ...``), if/elif chains whose tests read
  what a branch writes (``if out[i] > s: out[i] = s elif out[i] < -s: ...``), counters under
  element tests (``if a[i - 1] < s <= a[i]: count += 1``);
* accumulations ``out[i] += ...``, matrix products ``c[i, j] += a[i, k] * b[k, j]`` in any loop
  order, accumulators ``acc = 0.0; for k ...: acc += ...; c[i, j] = acc``, and scalar sums;
* recurrences and in-place updates that must stay loops (``out[i + 1] = out[i] * s``), and
  those that become accumulations: running sums (``acc += f(a[i]); out[i] = acc``,
  ``out[i] = out[i - 1] + f(a[i])``) and running maxima/minima (``if f(a[i]) > acc: acc = ...``,
  ``acc = max(acc, f(a[i]))``, over ``for v in a`` too);
* indices that go out of range (offsets past the end, a bound parameter larger than the array);
* the same on Python lists of floats and lists of lists (`c[i][j] += a[i][k] * b[k][j]`), with
  items that are no float (ints, bools, NumPy scalars, a float subclass, None), rows shared by
  one list object or ragged, and an output list that is an input.

Each program comes with several *calls*: Python text that, run with `make` and `np` in its
namespace, binds ``ARGS`` (the arguments) and ``ROOTS`` (the arrays owning the memory, compared
after the call). Texts are run afresh for each side, so views keep their layout and overlap
(the oracle's deep copy would make them contiguous): strided and reversed views, transposed and
Fortran-ordered arrays, sub-blocks, the same array passed as input and output, overlapping views
of one buffer; shapes 0, 1, small and past the pass's 32-iteration threshold; float64, float32,
int8, complex128 and bool arrays, values with NaN, infinities, -0.0 and 1e308 (overflow).

`generate(seed)` gives a `LoopProgram`; `compare(original, compiled, call)` runs both on fresh
arguments and describes the first difference (value by bits and type, exception and message,
warnings in order, every root array's bits), or gives None.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from symcompile.runtime.oracle import explain_difference

DTYPES = ("float64", "float64", "float64", "float32", "float32", "int8", "complex128", "float16",
          "int64", "uint8")
SIZES_1D = (0, 1, 2, 5, 33, 40)
SHAPES_2D = ((0, 0), (1, 1), (2, 3), (3, 3), (6, 7), (7, 6))
SCALARS = ("1.5", "3", "-0.0", "0.25", "float('nan')", "np.float32(0.5)", "-2", "1e308", "True",
           "2 ** 200", "-10 ** 400", "300", "float('inf')")
SPECIALS = (np.nan, np.inf, -np.inf, 0.0, -0.0, 1e308)


@dataclass
class LoopProgram:
    family: str
    source: str
    calls: list[str] = field(default_factory=list)


def make(shape: tuple[int, ...], dtype: str, seed: int, special: bool = False) -> np.ndarray:
    """A C-ordered array of `shape` and `dtype` with values drawn from `seed` (some NaN,
    infinities, zeros and 1e308 when `special`, for floats)."""
    rng = np.random.default_rng(seed)
    if dtype in ("int8", "uint8", "int64"):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, size=shape).astype(dtype)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    values = rng.standard_normal(shape) * 3
    if special and values.size:
        flat = values.reshape(-1)
        for _ in range(1 + values.size // 8):
            flat[rng.integers(values.size)] = SPECIALS[rng.integers(len(SPECIALS))]
    if dtype == "complex128":
        return values + 1j * rng.standard_normal(shape)
    with np.errstate(over="ignore"):  # 1e308 as a float32 is inf
        return values.astype(dtype)


# ------------------------------------------------------------------------------------------
# expressions
# ------------------------------------------------------------------------------------------


def _expression(r: random.Random, leaves: list[str], depth: int = 2) -> str:
    if depth == 0 or r.random() < 0.3:
        return r.choice(leaves)
    roll = r.random()
    if roll < 0.08:
        return f"-{_expression(r, leaves, depth - 1)}"
    if roll < 0.14:
        return f"abs({_expression(r, leaves, depth - 1)})"
    if roll < 0.17:
        return f"np.sqrt({_expression(r, leaves, depth - 1)})"
    if roll < 0.19:
        return f"{_expression(r, leaves, depth - 1)} ** 2"
    if roll < 0.21:
        return f"~{_expression(r, leaves, depth - 1)}"
    if roll < 0.25:
        operator = r.choice(("&", "|", "^"))
        return f"({_expression(r, leaves, depth - 1)} {operator} {_expression(r, leaves, depth - 1)})"
    operator = r.choice(("+", "+", "-", "*", "*", "/", "//", "%", "-", "*"))
    if operator in ("//", "%") and r.random() < 0.7:
        operator = "+"
    return f"({_expression(r, leaves, depth - 1)} {operator} {_expression(r, leaves, depth - 1)})"


def _condition(r: random.Random, leaves: list[str]) -> str:
    operator = r.choice(("<", ">", "<=", ">=", "!=", "=="))
    test = f"{r.choice(leaves)} {operator} {r.choice(leaves)}"
    if r.random() < 0.2:
        test = f"({test}) {r.choice(('&', '|'))} ({r.choice(leaves)} > 0.0)"
    return test


def _offset(r: random.Random, name: str) -> str:
    k = r.choice((0, 0, 0, 1, -1, 2, -2))
    return name if k == 0 else f"{name} + {k}" if k > 0 else f"{name} - {-k}"


def _body(r: random.Random, targets: list[str], leaves: list[str], condition_leaves: list[str],
          indent: str) -> list[str]:
    """One to three statements writing `targets` (a scalar local first, sometimes, and under
    an `if`, sometimes)."""
    lines: list[str] = []
    if r.random() < 0.3:
        lines.append(f"{indent}t = {_expression(r, leaves)}")
        leaves = leaves + ["t"]
    conditional = r.random() < 0.3
    inner = indent + "    " if conditional else indent
    if conditional:
        lines.append(f"{indent}if {_condition(r, condition_leaves)}:")
    for target in r.sample(targets, k=r.randint(1, len(targets))):
        augmented = r.choice(("=", "=", "+=", "-=", "*=")) if r.random() < 0.4 else "="
        lines.append(f"{inner}{target} {augmented} {_expression(r, leaves)}")
    if conditional and r.random() < 0.5:
        lines.append(f"{indent}else:")
        lines.append(f"{inner}{targets[0]} = {_expression(r, leaves, 1)}")
    return lines


# ------------------------------------------------------------------------------------------
# program families
# ------------------------------------------------------------------------------------------


def _range_1d(r: random.Random) -> str:
    n = r.choice(("len(a)", "len(out)", "a.shape[0]", "n", "m"))
    low, high = r.choice((0, 0, 1, 2)), r.choice((0, 0, 1, 2))
    stop = n if high == 0 else f"{n} - {high}"
    if r.random() < 0.15:
        return f"range({n} - 1, {low - 1}, -1)"
    if r.random() < 0.05:
        return f"range({low}, {stop}, 2)"
    return f"range({stop})" if low == 0 else f"range({low}, {stop})"


def _map_1d(r: random.Random) -> tuple[str, str]:
    reads = [_offset(r, "i") for _ in range(3)]
    leaves = [f"a[{reads[0]}]", f"b[{reads[1]}]", f"a[{reads[2]}]", "s", "2.0", "0.5", "3"]
    if r.random() < 0.2:
        leaves.append("a[n - 1 - i]")
    if r.random() < 0.25:
        leaves.append(f"out[{_offset(r, 'i')}]")  # a recurrence or an in-place read
    if r.random() < 0.1:
        leaves.append("i")
    targets = [f"out[{_offset(r, 'i') if r.random() < 0.3 else 'i'}]"]
    if r.random() < 0.2:
        targets.append(f"a[{_offset(r, 'i') if r.random() < 0.3 else 'i'}]")
    body = _body(r, targets, leaves, leaves[:4], "        ")
    lines = ["def main(out, a, b, s, m):", "    n = len(a)", f"    for i in {_range_1d(r)}:"] + body
    if r.random() < 0.3:
        lines.append(r.choice(("    return out", "    return i", "    return s")))
    return "map_1d", "\n".join(lines)


def _in_place_1d(r: random.Random) -> tuple[str, str]:
    """Reads and writes of one array, forwards or backwards: old values or a recurrence."""
    leaves = [f"a[{_offset(r, 'i')}]", f"a[{_offset(r, 'i')}]", "b[i]", "s", "0.5"]
    if r.random() < 0.3:
        leaves.append(r.choice(("a[n - 1 - i]", "a[-1 - i]", "a[0]", "a[-1]")))
    target = r.choice(("a[i]", "a[i]", f"a[{_offset(r, 'i')}]", "a[n - 1 - i]"))
    lines = ["def main(out, a, b, s, m):", "    n = len(a)", f"    for i in {_range_1d(r)}:"]
    lines += _body(r, [target], leaves, leaves[:3], "        ")
    return "in_place_1d", "\n".join(lines)


def _test(r: random.Random, leaves: list[str]) -> str:
    """A comparison of elements, sometimes chained (`a[i - 1] < s <= a[i]`)."""
    if r.random() < 0.3:
        first, second = r.choice(("<", "<=", ">")), r.choice(("<", "<=", ">="))
        return f"{r.choice(leaves)} {first} {r.choice(leaves)} {second} {r.choice(leaves)}"
    return _condition(r, leaves)


def _branches_1d(r: random.Random) -> tuple[str, str]:
    """An if/elif(/else) chain writing elements, or counting (`count += 1`), or both."""
    reads = [f"out[{_offset(r, 'i') if r.random() < 0.2 else 'i'}]", f"a[{_offset(r, 'i')}]",
             "a[i]", "s", "0.5"]
    counting = r.random() < 0.5
    counter = r.choice(("0", "0", "0", "0.0", "m"))
    lines = ["def main(out, a, b, s, m):", "    n = len(a)"]
    if counting:
        lines.append(f"    count = {counter}")
        if r.random() < 0.1:
            reads.append("count")
    lines.append(f"    for i in {_range_1d(r)}:")
    branches = r.randint(1, 3)
    for branch in range(branches):
        lines.append(f"        {'if' if branch == 0 else 'elif'} {_test(r, reads)}:")
        if counting and r.random() < 0.6:
            lines.append(f"            count {r.choice(('+=', '+=', '-='))} {r.choice(('1', '1', '2', '1.0', 's'))}")
        if not counting or r.random() < 0.4:
            target = r.choice(("out[i]", "out[i]", "a[i]", f"out[{_offset(r, 'i')}]"))
            lines.append(f"            {target} = {_expression(r, reads, 1)}")
        if lines[-1].endswith(":"):
            lines.append("            count += 1" if counting else "            out[i] = s")
    if r.random() < 0.3:
        lines += ["        else:", f"            out[i] = {_expression(r, reads, 1)}"]
    if counting:
        lines.append("    return count")
    return "branches_1d", "\n".join(lines)


def _sum_1d(r: random.Random) -> tuple[str, str]:
    leaves = [f"a[{_offset(r, 'i')}]", "b[i]", "s", "2.0"]
    start = r.choice(("0.0", "0", "s", "a[0]"))
    lines = ["def main(out, a, b, s, m):", "    n = len(a)", f"    acc = {start}",
             f"    for i in {_range_1d(r)}:", f"        acc += {_expression(r, leaves)}",
             "    return acc"]
    return "sum_1d", "\n".join(lines)


def _recurrence_1d(r: random.Random) -> tuple[str, str]:
    """Running sums and running maxima/minima (vectorize_recurrences): `acc += f(a[i])`, `acc =
    f(a[i]) + acc`, `out[i] = out[i - 1] + f(a[i])`, `if f(a[i]) > acc: acc = f(a[i])`, `acc =
    max(acc, f(a[i]))`, over indices or the elements (`for v in a`), the running value stored
    or computed with, and sometimes returned."""
    element = "v" if r.random() < 0.2 else "a[i]"
    leaves = [element, element, "b[i]" if element == "a[i]" else "v", "s", "2.0", "0.5"]
    value = _expression(r, leaves, r.choice((0, 1, 1, 2)))
    header = "    for v in a:" if element == "v" else f"    for i in {_range_1d(r)}:"
    if element == "a[i]" and r.random() < 0.2:
        lines = ["def main(out, a, b, s, m):", "    n = len(a)", f"    for i in range(1, {r.choice(('n', 'len(out)', 'm'))}):",
                 f"        out[i] = {r.choice((f'out[i - 1] + {value}', f'{value} + out[i - 1]'))}"]
        return "recurrence_1d", "\n".join(lines)
    start = r.choice(("0.0", "-0.0", "s", "a[0]", "np.inf", "-np.inf", "0", "np.float32(0.5)"))
    operator = r.choice(("<", ">", "<=", ">="))
    update = r.choice((f"acc += {value}", f"acc = acc + {value}", f"acc = {value} + acc", f"acc -= {value}",
                       f"if {value} {operator} acc:\n            acc = {value}",
                       f"if acc {operator} {value}:\n            acc = {value}",
                       f"acc = {r.choice(('max', 'min'))}(acc, {value})",
                       f"acc = {r.choice(('max', 'min'))}({value}, acc)"))
    lines = ["def main(out, a, b, s, m):", "    n = len(a)", f"    acc = {start}", header, f"        {update}"]
    if element == "a[i]":
        lines.append(r.choice(("        out[i] = acc", "        out[i] = acc * 2.0", "        out[i] = acc - a[i]",
                               "        t = acc * s\n        out[i] = t", "        out[i] = acc")))
    if element == "v" or r.random() < 0.4:
        lines.append("    return acc")
    return "recurrence_1d", "\n".join(lines)


def _stencil_2d(r: random.Random) -> tuple[str, str]:
    def read(name: str) -> str:
        i, j = _offset(r, "i"), _offset(r, "j")
        if r.random() < 0.1:
            i, j = j, i
        elif r.random() < 0.05:
            i, j = r.choice((("i", "i"), ("j", "j"), ("i + j", "0"), ("0", "j")))
        return f"{name}[{i}][{j}]" if r.random() < 0.2 else f"{name}[{i}, {j}]"

    leaves = [read("u"), read("u"), read("u"), "x[i]", "y[j]", "s", "0.25", "2.0"]
    if r.random() < 0.2:
        leaves.append(read("out"))
    if r.random() < 0.15:
        leaves.append(read("out" if r.random() < 0.5 else "u"))
    target = r.choice(("out[i, j]", "out[i, j]", "out[i, j]", "out[i][j]", "u[i, j]",
                       f"out[{_offset(r, 'i')}, {_offset(r, 'j')}]"))
    lo, hi = r.choice((0, 1, 1)), r.choice((0, 1, 1))
    rows = r.choice(("n", "u.shape[0]", "out.shape[0]", "len(x)"))
    columns = r.choice(("m", "u.shape[1]", "len(y)"))
    i_range = f"range({lo}, {rows} - {hi})" if hi else f"range({lo}, {rows})"
    j_range = f"range({lo}, {columns} - {hi})" if hi else f"range({lo}, {columns})"
    if r.random() < 0.15:
        i_range = f"range({rows} - 1, {lo - 1}, -1)"
    if r.random() < 0.15:
        j_range = f"range({columns} - 1, {lo - 1}, -1)"
    body = _body(r, [target], leaves, leaves[:5], "            ")
    lines = ["def main(out, u, x, y, s):", "    n, m = u.shape", f"    for i in {i_range}:",
             f"        for j in {j_range}:"] + body
    if r.random() < 0.2:
        lines.append("    return out")
    return "stencil_2d", "\n".join(lines)


def _matmul(r: random.Random) -> tuple[str, str]:
    order = r.sample(["i", "j", "k"], 3)
    ranges = {"i": "a.shape[0]", "j": "b.shape[1]", "k": r.choice(("a.shape[1]", "b.shape[0]"))}
    term = r.choice(("a[i, k] * b[k, j]", "a[i][k] * b[k][j]", "a[i, k] * b[k, j] + s",
                     "(a[i, k] - b[k, j]) * (a[i, k] - b[k, j])", "a[i, k] / b[k, j]"))
    if r.random() < 0.35:
        start = r.choice(("0.0", "0", "c[i, j]", "s"))
        lines = ["def main(c, a, b, s):", "    for i in range(a.shape[0]):",
                 "        for j in range(b.shape[1]):", f"            acc = {start}",
                 f"            for k in range({ranges['k']}):"]
        if r.random() < 0.25:
            lines += ["                if a[i, k] > s:", f"                    acc += {term}"]
        else:
            lines.append(f"                acc {r.choice(('+=', '+=', '-=', '*='))} {term}")
        lines.append("            c[i, j] = acc")
        return "accumulator", "\n".join(lines)
    lines = ["def main(c, a, b, s):"]
    for depth, name in enumerate(order):
        spelled = f"{ranges[name]} - 1, -1, -1" if r.random() < 0.15 else ranges[name]
        lines.append(f"{'    ' * (depth + 1)}for {name} in range({spelled}):")
    target = r.choice(("c[i, j]", "c[i][j]", "c[i, j]", "c[i + 1, j]", "c[0, j]"))
    update = (f"{target} += {term}" if r.random() < 0.8 else f"{target} = {target} + {term}")
    if r.random() < 0.2:
        lines.append(f"{'    ' * 4}if a[i, k] > 0.0:")
        lines.append(f"{'    ' * 5}{update}")
    else:
        lines.append(f"{'    ' * 4}{update}")
    return "matmul", "\n".join(lines)


def _list_leaf(r: random.Random, name: str, loops: tuple[str, ...]) -> str:
    return name + "".join(f"[{_offset(r, var)}]" for var in loops)


def _lists(r: random.Random) -> tuple[str, str]:
    """Loops over Python lists of floats and lists of lists: matrix products (`c[i][j] +=
    a[i][k] * b[k][j]`, in any loop order, or into an accumulator), 2-D stencils and 1-D
    maps, with the bodies of the array families."""
    roll = r.random()
    if roll < 0.4:
        order = r.sample(["i", "j", "k"], 3)
        term = r.choice(("a[i][k] * b[k][j]", "a[i][k] * b[k][j] + s", "(a[i][k] - b[k][j]) * a[i][k]",
                         "a[i][k] / b[k][j]", "a[i][k] * b[k][j] * 0.5"))
        lines = ["def main(c, a, b, s, n, m, p):"]
        bounds = {"i": "n", "j": "m", "k": "p"}
        if r.random() < 0.3:
            lines += ["    for i in range(n):", "        for j in range(m):",
                      f"            acc = {r.choice(('0.0', 'c[i][j]', 's', '0'))}",
                      "            for k in range(p):", f"                acc += {term}",
                      "            c[i][j] = acc"]
            return "list_matmul", "\n".join(lines)
        for depth, name in enumerate(order):
            lines.append(f"{'    ' * (depth + 1)}for {name} in range({bounds[name]}):")
        lines.append(f"{'    ' * 4}{r.choice(('c[i][j]', 'c[i][j]', 'c[i][j + 1]'))} += {term}")
        return "list_matmul", "\n".join(lines)
    if roll < 0.7:
        leaves = [_list_leaf(r, "u", ("i", "j")) for _ in range(3)] + ["s", "0.25", "2.0", "3"]
        if r.random() < 0.15:
            leaves.append(_list_leaf(r, "out", ("i", "j")))
        lo, hi = r.choice((0, 1, 1)), r.choice((0, 1, 1))
        lines = ["def main(out, u, s, n, m):", f"    for i in range({lo}, n - {hi}):",
                 f"        for j in range({lo}, m - {hi}):"]
        lines += _body(r, [r.choice(("out[i][j]", "out[i][j]", "u[i][j]"))], leaves, leaves[:4], "            ")
        return "list_stencil", "\n".join(lines)
    leaves = [_list_leaf(r, "a", ("i",)), _list_leaf(r, "b", ("i",)), "a[i]", "s", "0.5", "2.0", "3"]
    if r.random() < 0.2:
        leaves.append(f"out[{_offset(r, 'i')}]")
    stop = r.choice(("n", "len(a)", "len(out)", "n - 1"))
    loop = f"range({stop} - 1, -1, -1)" if r.random() < 0.15 else f"range({r.choice((0, 1))}, {stop})"
    lines = ["def main(out, a, b, s, n):", f"    for i in {loop}:"]
    lines += _body(r, [r.choice(("out[i]", "out[i]", f"out[{_offset(r, 'i')}]", "a[i]"))], leaves,
                   leaves[:4], "        ")
    return "list_map", "\n".join(lines)


FAMILIES: tuple[Callable[[random.Random], tuple[str, str]], ...] = (
    _map_1d, _map_1d, _map_1d, _in_place_1d, _in_place_1d, _sum_1d, _stencil_2d, _stencil_2d,
    _matmul, _matmul, _lists, _lists)


# ------------------------------------------------------------------------------------------
# arguments
# ------------------------------------------------------------------------------------------


class _Arguments:
    """Writes the text binding ARGS and ROOTS: each array made from its own base, in a
    layout drawn for it."""

    def __init__(self, r: random.Random) -> None:
        self.r, self.lines, self.roots, self.seed = r, [], [], r.randrange(10 ** 6)

    def array(self, name: str, shape: tuple[int, ...], dtype: str) -> str:
        r = self.r
        self.seed += 1
        special = r.random() < 0.2
        layout = r.choice(("plain", "plain", "plain", "strided", "reversed", "other"))
        base = f"{name}_base"
        if len(shape) == 1:
            (n,) = shape
            made = {"plain": ((n,), base), "strided": ((2 * n,), f"{base}[::2]"),
                    "reversed": ((n,), f"{base}[::-1]"), "other": ((n, 2), f"{base}[:, 1]")}
        else:
            n, m = shape
            made = {"plain": ((n, m), base), "strided": ((n + 1, m + 2), f"{base}[1:, 1:-1]"),
                    "reversed": ((n, m), f"{base}[::-1, ::-1]"), "other": ((m, n), f"{base}.T")}
        base_shape, view = made[layout]
        self.lines.append(f"{base} = make({base_shape}, {dtype!r}, {self.seed}, {special})")
        self.roots.append(base)
        return view

    def text(self, args: list[str]) -> str:
        return "\n".join(self.lines + [f"ARGS = ({', '.join(args)},)",
                                       f"ROOTS = [{', '.join(self.roots)}]"])


def _dtype(r: random.Random) -> str:
    return r.choice(DTYPES)


def _aliased_1d(r: random.Random, n: int, dtype: str, writer: _Arguments) -> tuple[str, str]:
    """`out` and `a` sharing memory: the same array, or overlapping views of one buffer."""
    writer.seed += 1
    writer.lines.append(f"shared = make(({n + 2},), {dtype!r}, {writer.seed})")
    writer.roots.append("shared")
    shift = r.choice((1, 2, -1))
    if shift > 0:
        return "shared[:-2]", f"shared[{shift}:{n + shift}]"
    return "shared[2:]", "shared[1:-1]"


def _calls_1d(r: random.Random) -> str:
    n = r.choice(SIZES_1D)
    writer = _Arguments(r)
    dtype = _dtype(r)
    roll = r.random()
    if roll < 0.15:
        out, a = _aliased_1d(r, n, dtype, writer)
    elif roll < 0.25:
        a = writer.array("a", (n,), dtype)
        out = a
    else:
        out_n = n if r.random() < 0.85 else r.choice((0, max(n - 1, 0), n + 1))
        out = writer.array("out", (out_n,), "bool" if r.random() < 0.05 else _dtype(r))
        a = writer.array("a", (n,), dtype)
    b = writer.array("b", (n if r.random() < 0.9 else n + 1,), dtype if r.random() < 0.7 else _dtype(r))
    m = r.choice((str(n), str(n), str(max(n - 2, 0)), str(n + 1)))
    return writer.text([out, a, b, r.choice(SCALARS), m])


def _calls_2d(r: random.Random) -> str:
    n, m = r.choice(SHAPES_2D)
    writer = _Arguments(r)
    dtype = _dtype(r)
    u = writer.array("u", (n, m), dtype)
    out = u if r.random() < 0.1 else writer.array("out", (n, m), dtype if r.random() < 0.7 else _dtype(r))
    x = writer.array("x", (n,), dtype)
    y = writer.array("y", (m if r.random() < 0.9 else m + 1,), dtype)
    return writer.text([out, u, x, y, r.choice(SCALARS)])


def _calls_matmul(r: random.Random) -> str:
    n, m = r.choice(SHAPES_2D)
    p = r.choice((0, 1, 3, 8))
    writer = _Arguments(r)
    dtype = _dtype(r)
    a = writer.array("a", (n, p), dtype)
    b = writer.array("b", (p, m) if r.random() < 0.9 else (p + 1, m), dtype if r.random() < 0.7 else _dtype(r))
    c = writer.array("c", (n, m), dtype if r.random() < 0.8 else _dtype(r))
    if r.random() < 0.08 and n == p:
        c = a
    return writer.text([c, a, b, r.choice(SCALARS)])


ODD_ITEMS = ("3", "True", "np.float64(2.0)", "None", "FloatSubclass(2.0)")


class FloatSubclass(float):
    """A float whose operators are float's: the vectorizer must still run the loop for it."""


def make_list(shape: tuple[int, ...], seed: int, special: bool = False, odd: str = "") -> list[Any]:
    """A list of floats (or of rows of floats) drawn as `make` draws arrays; `odd` puts one
    item that is no float (`3`, `np.float64(2.0)`...), or makes the rows `shared` (one list
    object n times) or `ragged` (one row short)."""
    values: list[Any] = make(shape, "float64", seed, special).tolist()
    rows = values if len(shape) == 2 else [values]
    if odd == "shared" and len(shape) == 2 and values:
        return [values[0]] * len(values)
    if odd == "ragged" and len(shape) == 2 and values and values[-1]:
        values[-1].pop()
    elif odd in ODD_ITEMS and rows and rows[0]:
        row = rows[seed % len(rows)]
        row[seed % len(row)] = eval(odd, {"np": np, "FloatSubclass": FloatSubclass})  # noqa: S307 - our texts
    return values


def _list_argument(r: random.Random, writer: _Arguments, name: str, shape: tuple[int, ...]) -> str:
    writer.seed += 1
    odd = r.choice(("",) * 8 + ODD_ITEMS + ("shared", "ragged")) if r.random() < 0.35 else ""
    writer.lines.append(f"{name} = make_list({shape}, {writer.seed}, {r.random() < 0.2}, {odd!r})")
    writer.roots.append(name)
    return name


def _calls_list_matmul(r: random.Random) -> str:
    n, m = r.choice(SHAPES_2D)
    p = r.choice((0, 1, 3, 8))
    writer = _Arguments(r)
    a = _list_argument(r, writer, "a", (n, p))
    b = _list_argument(r, writer, "b", (p, m) if r.random() < 0.9 else (max(p - 1, 0), m))
    c = a if r.random() < 0.05 and n == p else _list_argument(r, writer, "c", (n, m + (r.random() < 0.1)))
    sizes = [str(n), str(m), str(p)]
    if r.random() < 0.1:
        sizes[r.randrange(3)] += " + 1"
    return writer.text([c, a, b, r.choice(SCALARS), *sizes])


def _calls_list_stencil(r: random.Random) -> str:
    n, m = r.choice(SHAPES_2D)
    writer = _Arguments(r)
    u = _list_argument(r, writer, "u", (n, m))
    out = u if r.random() < 0.1 else _list_argument(r, writer, "out", (n, m))
    return writer.text([out, u, r.choice(SCALARS), str(n), str(m if r.random() < 0.9 else m + 1)])


def _calls_list_map(r: random.Random) -> str:
    n = r.choice(SIZES_1D)
    writer = _Arguments(r)
    a = _list_argument(r, writer, "a", (n,))
    out = a if r.random() < 0.1 else _list_argument(r, writer, "out", (n if r.random() < 0.9 else n + 1,))
    b = _list_argument(r, writer, "b", (n,))
    return writer.text([out, a, b, r.choice(SCALARS), str(n if r.random() < 0.9 else n + 1)])


CALLS = {"list_matmul": _calls_list_matmul, "list_stencil": _calls_list_stencil, "list_map": _calls_list_map,
         "map_1d": _calls_1d, "sum_1d": _calls_1d, "recurrence_1d": _calls_1d, "branches_1d": _calls_1d, "in_place_1d": _calls_1d, "stencil_2d": _calls_2d,
         "matmul": _calls_matmul, "accumulator": _calls_matmul}


def generate(seed: int, calls: int = 4) -> LoopProgram:
    r = random.Random(f"array-loops:{seed}")
    # one seed in 7 an if/elif chain or a counter, one in 11 a recurrence (the others draw
    # as before those were added)
    chosen = _branches_1d if seed % 7 == 3 else _recurrence_1d if seed % 11 == 5 else r.choice(FAMILIES)
    family, function = chosen(r)
    source = f"import numpy as np\n\n\n{function}\n"
    return LoopProgram(family, source, [CALLS[family](r) for _ in range(calls)])


# ------------------------------------------------------------------------------------------
# running and comparing
# ------------------------------------------------------------------------------------------


def arguments(call: str) -> tuple[tuple[Any, ...], list[Any]]:
    """Fresh arguments and root arrays for `call`."""
    namespace: dict[str, Any] = {"make": make, "make_list": make_list, "np": np}
    exec(call, namespace)  # noqa: S102 - the generator's own text
    return namespace["ARGS"], namespace["ROOTS"]


def observe_fresh(function: Callable[..., Any], call: str) -> tuple[Any, ...]:
    """What calling `function` on fresh arguments of `call` shows: the value or the exception
    and its message, the warnings in order, and the root arrays afterwards."""
    args, roots = arguments(call)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="warn", under="ignore"):
            try:
                value: Any = ("return", function(*args))
            except Exception as error:  # noqa: BLE001 - compared
                value = ("raise", type(error).__name__, str(error))
    said = [(w.category.__name__, str(w.message)) for w in caught]
    return value, said, roots


def compare(original: Callable[..., Any], compiled: Callable[..., Any], call: str) -> str | None:
    """The first difference between the two functions called on fresh arguments of `call`."""
    value, said, roots = observe_fresh(original, call)
    fast_value, fast_said, fast_roots = observe_fresh(compiled, call)
    if value[0] == "raise" or fast_value[0] == "raise":
        if value != fast_value:
            return f"outcome differs: original {value!r}; compiled {fast_value!r}"
    else:
        found = explain_difference(value[1], fast_value[1], "returned")
        if found:
            return found
    if said != fast_said:
        return f"warnings differ: original {said}; compiled {fast_said}"
    for index, (root, fast_root) in enumerate(zip(roots, fast_roots)):
        found = explain_difference(root, fast_root, f"root array {index}")
        if found:
            return found
    return None
