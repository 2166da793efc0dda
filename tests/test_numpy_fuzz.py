"""Random NumPy programs: array versions must compute what the original computes, bit for bit.

A deterministic generator (`random.Random(seed)`) writes small modules of NumPy code as source
text: an entry function ``main`` of one to three array arguments, up to two helpers it calls
(which keep arrays in locals, have loops and early returns, sometimes update a parameter in
place, take a default ``s=`` passed by keyword, call an earlier helper) and, in some modules,
globals (weights ``W`` for ``@``, a bias ``B``, numbers). The bodies are what the passes for
array versions work on (eliminate_temporaries, use_cheaper_numpy_calls, the array typing of
value_types, inlining of helpers into array versions):

* locals assigned from expressions and read one to three times after, sometimes several times
  in one nested expression (Horner forms ``((2 * t + 1) * t - 3) * t``);
* the operators ``+ - * / // % **`` (small literal exponents), unary ``-`` and ``+``,
  comparisons, masks (``&``, ``|``, ``^``, ``~``), shifts, ``np.where``, ``np.maximum`` and
  ``np.minimum``, ``np.abs``/``np.sqrt``/``np.exp``/``np.log`` (usually behind ``np.abs`` for
  their domains), other ufuncs (``np.ldexp``, ``np.fmod``, ``np.tanh``...), ``x @ W``, ``.sum()``;
* Python numbers mixed in: ints and floats, ``0.1``, ``-0.0``, ``1e308``, ``2 ** 70``, NaN...;
* augmented assignments to locals and to the arguments (mutation, seen through aliases);
* views stored in locals (``a[::-1]``, ``a[::2]``, ``a.T``, ``a[...]``), written through, and
  stores into arrays (``t[0] = 1``);
* ``for`` and ``while`` loops of one to three turns reassigning a local, with ``break`` and
  ``continue``; ``if`` on a shape or on values (``(t > 0).any()``), locals bound on one branch
  only, early returns; ``try``/``except``, lambdas, ``del``, ``print``, tuple assignments;
* tuple returns (of one item too), sometimes of a local together with an expression reading
  it, of an argument, or of a call with an effect (``a.fill(1)``).

The programs read globals but never write them (a global array passed to a helper that updates
its parameter is passed as ``B * 1``): a write would make the compiled function's call, which
follows the original's, start from other values.

Each program is imported from a file under pytest's tmp_path (so ``inspect.getsource`` works),
compiled afresh with ``symcompile.symbolic``, and called: first with one *kind* of input (the
dtypes, shapes and layout the array version is compiled for), then with two or three more
inputs of that kind (other values: NaN, inf, -0.0, huge; aliased arguments ``f(a, a)`` and
``f(a, a[::-1])``), then with one or two inputs of other kinds (all new, or one argument of
another dtype or shape or a Python number: the entry checks must catch it; sometimes more than
``MAX_TYPE_MISSES`` of them, which installs the version for any types), then the first kind
again. Every call is compared by the differential oracle (``symcompile.runtime.oracle``). A deep copy
of a view is no view, so non-contiguous and aliased arguments are made inside the observed call,
from base arrays (see `Layout`).

Inputs: float64, float32, int64, bool and complex128 arrays (int32, uint8 and float16 now and
then) of shapes (5,), (2, 3), (1,), (0,), (37,), (4, 9) and the broadcasting pairs (3,) with
(2, 3) and (9,) with (4, 9); strided, reversed and transposed views; Python numbers.

`test_random_numpy_programs` checks 480 programs in chunks of seeds (about 15 seconds). For a
longer hunt, outside the test suite (it prints each failure and the failing seeds)::

    python -c "import tests.test_numpy_fuzz as f; f.hunt(range(10000))"

At the end, the minimal reproductions of the miscompilations the fuzzer found, as regular
tests (``xfail(strict=True)`` while open; `AVOID` then names what the generator leaves out
meanwhile, so that the random test keeps passing).
"""

from __future__ import annotations

import copy
import itertools
import random
import re
import tempfile
import textwrap
import time
import traceback
import types
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime.api import MAX_TYPE_MISSES
from symcompile.runtime.oracle import assert_equivalent, observe
from tests.source_module import import_source

# ---------------------------------------------------------------------------------------------
# the program generator
# ---------------------------------------------------------------------------------------------

# constructs the generator leaves out while they trigger an open bug (each has its minimal
# reproduction among the regression tests at the end)
AVOID: set[str] = set()
# The workarounds (all for bugs since fixed), kept so that a bug coming back can be avoided
# again while it is open: "one_tuple" (test_one_tuple_return: no `return x,`), "ldexp"
# (test_ldexp_exponent_converted_to_float: no np.ldexp), "bool_square"
# (test_bool_array_squared_is_int8: `x ** 2` written `(x + 0) ** 2`, never of bools),
# "return_order" (test_return_tuple_evaluation_order: in a returned tuple, the items before the
# last are names certainly bound and read before, so not forwarded into it; no `a.fill(1)`),
# "unbound_in_return" (test_return_tuple_evaluation_order_unbound_name: likewise, no names
# that may be unbound), "forward_into_exit_test"
# (test_forward_into_test_of_if_holding_continue: the test of an `if` holding `break` or
# `continue` reads arguments only), "float_two" (test_int_array_to_the_float_two_is_float: no
# exponent 2.0).

# module globals a program may read (weights for `@`, a bias, numbers)
GLOBALS = """\
W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [0.0, 1.0, 3.0]])
W32 = W.astype(np.float32)
B = np.array([0.5, -0.0, 2.0])
B32 = B.astype(np.float32)
SCALE = 0.5
OFFSET = -0.0
COUNT = 3
"""
GLOBAL_ARRAYS = ("B", "B32")
GLOBAL_NUMBERS = ("SCALE", "OFFSET", "COUNT")
# ufuncs of two operands, the second usually a number
UFUNCS2 = ("np.copysign", "np.hypot", "np.arctan2", "np.fmod", "np.heaviside", "np.fmax",
           "np.fmin", "np.logaddexp", "np.nextafter", "np.ldexp")
UFUNCS1 = ("np.square", "np.negative", "np.positive", "np.floor", "np.sign", "np.reciprocal",
           "np.sin", "np.tanh", "np.log1p", "np.expm1")

PARAMS = ("a", "b", "c")
# Python numbers written into the programs, the common ones first (weights below)
NUMBERS = ("2", "3", "1", "0.5", "0.1", "-0.0", "-1", "0", "2.5", "7", "1e308", "1.5")
RARE_NUMBERS = ("float('nan')", "float('inf')", "2 ** 70", "True", "1j", "-2.5", "5e-324")
BINARY = ("+", "-", "*", "/", "//", "%")
BINARY_WEIGHTS = (6, 5, 6, 3, 1, 1)
EXPONENTS = ("2", "2", "3", "0", "1", "-1", "0.5", "2.0")
COMPARISONS = ("<", ">", "<=", ">=", "==", "!=")
AUGMENTED = ("+=", "-=", "*=", "/=", "//=", "%=", "**=")
AUGMENTED_WEIGHTS = (6, 4, 5, 2, 1, 1, 1)


@dataclass
class Scope:
    """The names a point of a function can read: each with its *shape tag*. Values of one tag
    broadcast together (the arguments and what is computed from them: tag "S"); a view that
    changes the shape (`a[::2]`, `a.T`) has a tag of its own."""

    names: dict[str, str]
    loop_var: str | None = None
    maybe: set[str] = field(default_factory=set)  # names bound on one branch only
    broken: bool = False  # the loop being written may break or continue

    def copy(self) -> Scope:
        return Scope(dict(self.names), self.loop_var, set(self.maybe))


@dataclass
class Helper:
    name: str
    arity: int
    default: bool = False  # takes `s=<number>` after its parameters


@dataclass
class Program:
    seed: int
    nparams: int
    source: str
    helpers: list[str] = field(default_factory=list)
    three_columns: bool = False  # reads W or B: inputs of shapes (3,) and (2, 3) only


class Generator:
    """Writes one module per seed (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.r = random.Random(seed)
        self.counter = itertools.count(1)
        self.helpers: list[Helper] = []
        self.globals = self.r.random() < 0.3  # reads W, B, SCALE...: inputs of 3 columns

    # ------------------------------------------------------------------ expressions

    def number(self) -> str:
        r = self.r
        if self.globals and r.random() < 0.1:
            return r.choice(GLOBAL_NUMBERS)
        if r.random() < 0.06:
            return r.choice(RARE_NUMBERS)
        return r.choices(NUMBERS, weights=(8, 6, 6, 5, 4, 3, 3, 2, 2, 1, 1, 2))[0]

    def leaf(self, scope: Scope, tag: str, arrays_only: bool = False) -> str:
        r = self.r
        names = [n for n, t in scope.names.items() if t == tag]
        if names and (arrays_only or r.random() < 0.75):
            # prefer locals to arguments: the passes work on locals
            local = [n for n in names if n not in PARAMS]
            if local and r.random() < 0.65:
                return r.choice(local)
            return r.choice(names)
        if scope.loop_var is not None and r.random() < 0.3:
            return scope.loop_var
        if self.globals and tag == "S" and r.random() < 0.25:
            return r.choice(GLOBAL_ARRAYS)
        return self.number()

    def expr(self, scope: Scope, tag: str, depth: int) -> str:
        """An expression of values of `tag` (and numbers), parenthesized where it nests."""
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return self.leaf(scope, tag)
        choice = r.choices(
            ("binary", "power", "neg", "where", "maxmin", "unary", "horner", "helper", "compare",
             "sum", "ufunc2", "ufunc1", "matmul", "mask", "bits", "masked", "lambda", "pair"),
            weights=(14, 2, 2, 2, 2, 3, 2, 2, 1, 0.3, 1, 1, 2 if self.globals else 0, 0.7, 0.5,
                     0.7, 0.2, 1))[0]
        sub = depth - 1
        if choice == "binary":
            op = r.choices(BINARY, weights=BINARY_WEIGHTS)[0]
            left = self.expr(scope, tag, sub)
            right = self.expr(scope, tag, sub)
            if r.random() < 0.5 and not any(n in left + right for n in scope.names):
                left = self.leaf(scope, tag, arrays_only=True)
            return f"({left} {op} {right})"
        if choice == "power":
            exponent = r.choice([e for e in EXPONENTS if e != "2.0" or "float_two" not in AVOID])
            if exponent == "2" and "bool_square" in AVOID:
                return f"(({self.expr(scope, tag, sub)} + 0) ** 2)"
            return f"({self.operand(scope, tag, sub)} ** {exponent})"
        if choice == "neg":
            return f"(-{self.operand(scope, tag, sub)})"
        if choice == "where":
            condition = self.comparison(scope, tag, sub)
            return f"np.where({condition}, {self.expr(scope, tag, sub)}, {self.expr(scope, tag, sub)})"
        if choice == "maxmin":
            function = r.choice(("np.maximum", "np.minimum"))
            return f"{function}({self.expr(scope, tag, sub)}, {self.expr(scope, tag, sub)})"
        if choice == "unary":
            inner = self.expr(scope, tag, sub)
            guarded = r.random() < 0.85
            return r.choice((
                f"np.abs({inner})",
                f"np.sqrt(np.abs({inner}))" if guarded else f"np.sqrt({inner})",
                f"np.exp(-np.abs({inner}))" if guarded else f"np.exp({inner})",
                f"np.log(np.abs({inner}) + 1)" if guarded else f"np.log({inner})",
            ))
        if choice == "horner":
            variable = self.leaf(scope, tag, arrays_only=True)
            text = self.number()
            for _ in range(r.randint(2, 3)):
                text = f"({text} * {variable} {r.choice(('+', '-'))} {self.number()})"
            return text
        if choice == "helper" and self.helpers and tag == "S":
            helper = r.choice(self.helpers)
            # a helper may update its parameter: never pass it a global (the original's call
            # would change what the compiled call reads)
            args = ", ".join(f"({text} * 1)" if text in GLOBAL_ARRAYS else text
                             for text in (self.expr(scope, tag, sub) for _ in range(helper.arity)))
            if helper.default and r.random() < 0.5:
                text = self.expr(scope, tag, 0)
                args += f", s=({text} * 1)" if text in GLOBAL_ARRAYS else f", s={text}"
            return f"{helper.name}({args})"
        if choice == "compare":
            return self.comparison(scope, tag, sub)
        if choice == "sum":
            return f"{self.operand(scope, tag, sub)}.sum()"
        if choice == "ufunc2":
            function = r.choice([u for u in UFUNCS2 if not (u == "np.ldexp" and "ldexp" in AVOID)])
            second = self.number() if r.random() < 0.7 else self.expr(scope, tag, sub)
            return f"{function}({self.expr(scope, tag, sub)}, {second})"
        if choice == "ufunc1":
            return f"{r.choice(UFUNCS1)}({self.expr(scope, tag, sub)})"
        if choice == "mask":
            op = r.choice(("&", "|", "^"))
            if r.random() < 0.3:
                return f"(~{self.comparison(scope, tag, sub)})"
            return f"({self.comparison(scope, tag, sub)} {op} {self.comparison(scope, tag, sub)})"
        if choice == "bits":
            operand = self.operand(scope, tag, sub)
            return r.choice((f"({operand} << 1)", f"({operand} >> 1)", f"({operand} & 3)",
                             f"({operand} | 1)", f"(~{operand})", f"(+{operand})"))
        if choice == "masked":
            operand = self.operand(scope, tag, sub)
            return f"({operand} * ({operand} {r.choice(COMPARISONS)} {self.number()}))"
        if choice == "pair":  # one local twice as the operands of one operation
            name = self.leaf(scope, tag, arrays_only=True)
            return r.choice((f"({name} {r.choice(COMPARISONS)} {name})",
                             f"({name} {r.choice(BINARY)} {name})",
                             f"{r.choice(UFUNCS2[:-1])}({name}, {name})",
                             f"np.{r.choice(('maximum', 'minimum'))}({name}, {name})"))
        if choice == "lambda":
            return f"(lambda z: z * {self.leaf(scope, tag)} + 1)({self.expr(scope, tag, sub)})"
        if choice == "matmul" and tag == "S":
            return f"({self.operand(scope, tag, sub)} @ {r.choice(('W', 'W', 'W32'))})"
        return self.leaf(scope, tag)

    def array_expr(self, scope: Scope, tag: str, depth: int) -> str:
        """An expression that reads at least one name (an array, mostly)."""
        for _ in range(6):
            text = self.expr(scope, tag, depth)
            if set(re.findall(r"[A-Za-z_]\w*", text)) & set(scope.names):
                return text
        return f"({text} {self.r.choice(('+', '*', '-'))} {self.leaf(scope, tag, arrays_only=True)})"

    def operand(self, scope: Scope, tag: str, depth: int) -> str:
        text = self.expr(scope, tag, depth)
        return text if text.startswith("(") or text.isidentifier() else f"({text})"

    def comparison(self, scope: Scope, tag: str, depth: int) -> str:
        return f"({self.expr(scope, tag, depth)} {self.r.choice(COMPARISONS)} {self.expr(scope, tag, depth)})"

    # ------------------------------------------------------------------ statements

    def fresh(self, prefix: str = "t") -> str:
        return f"{prefix}{next(self.counter)}"

    def pick_tag(self, scope: Scope) -> str:
        tags = sorted(set(scope.names.values()))
        if "S" in tags and self.r.random() < 0.8:
            return "S"
        return self.r.choice(tags)

    def statement(self, scope: Scope, lines: list[str], indent: str, loop_depth: int,
                  in_helper: bool) -> None:
        r = self.r
        before = len(lines)
        self._statement(scope, lines, indent, loop_depth, in_helper)
        if len(lines) == before:  # nothing to store into or delete
            tag = self.pick_tag(scope)
            name = self.fresh()
            lines.append(f"{indent}{name} = {self.array_expr(scope, tag, r.randint(1, 3))}")
            scope.names[name] = tag

    def _statement(self, scope: Scope, lines: list[str], indent: str, loop_depth: int,
                   in_helper: bool) -> None:
        r = self.r
        top = loop_depth == 0
        kind = r.choices(("assign", "reassign", "augment", "view", "loop", "if", "horner_local",
                          "print", "store", "unpack", "while", "try", "if_value", "del"),
                         weights=(10, 4, 5, 2 if not in_helper else 1, 3 if top else 0,
                                  1 if top else 0, 2, 0.5, 0.7, 0.7, 1 if top else 0,
                                  0.5 if top else 0, 1 if top else 0, 0.3))[0]
        locals_ = [n for n in scope.names if n not in PARAMS + ("x", "y", "s")]
        if kind == "assign" or (kind in ("reassign", "horner_local") and not locals_):
            tag = self.pick_tag(scope)
            name = self.fresh()
            lines.append(f"{indent}{name} = {self.array_expr(scope, tag, r.randint(1, 3))}")
            scope.names[name] = tag
        elif kind == "store" and locals_:
            name = r.choice(locals_)
            index = r.choice(("...", "0", "-1", ":1", "::2"))
            value = self.number() if r.random() < 0.5 else self.expr(scope, scope.names[name], 1)
            if index != "...":
                value = self.number()
            lines.append(f"{indent}{name}[{index}] = {value}")
        elif kind == "unpack":
            tag = self.pick_tag(scope)
            first, second = self.fresh(), self.fresh()
            lines.append(f"{indent}{first}, {second} = {self.array_expr(scope, tag, 2)}, "
                         f"{self.array_expr(scope, tag, 2)}")
            scope.names[first] = scope.names[second] = tag
        elif kind == "while":
            counter = self.fresh("k")
            lines.append(f"{indent}{counter} = 0")
            lines.append(f"{indent}while {counter} < {r.choice((1, 2, 3))}:")
            lines.append(f"{indent}    {counter} += 1")
            inner = scope.copy()
            for _ in range(r.randint(1, 2)):
                self.loop_statement(inner, lines, indent + "    ")
            self.after_loop(scope, inner)
        elif kind == "try":
            tag = self.pick_tag(scope)
            name = self.fresh()
            fallback = r.choice([n for n, t in scope.names.items() if t == tag])
            lines.append(f"{indent}try:")
            lines.append(f"{indent}    {name} = {self.array_expr(scope, tag, r.randint(1, 3))}")
            lines.append(f"{indent}except (ValueError, TypeError, ArithmeticError):")
            lines.append(f"{indent}    {name} = {fallback}")
            scope.names[name] = tag
        elif kind == "if_value":
            tag = self.pick_tag(scope)
            test = f"{self.comparison(scope, tag, 1)}.{r.choice(('all', 'any'))}()"
            lines.append(f"{indent}if {test}:")
            inner = scope.copy()
            for _ in range(r.randint(1, 2)):
                self.statement(inner, lines, indent + "    ", loop_depth + 1, in_helper)
            if r.random() < 0.2:  # an early return
                lines.append(f"{indent}    return {self.array_expr(inner, self.pick_tag(inner), 1)}")
            elif r.random() < 0.4:
                # names bound on one branch only: read after, they may raise UnboundLocalError
                scope.maybe |= inner.names.keys() - scope.names.keys()
                scope.names.update(inner.names)
        elif kind == "del" and locals_:
            name = r.choice(locals_)
            lines.append(f"{indent}del {name}")
            del scope.names[name]
        elif kind == "print":
            lines.append(f"{indent}print({self.expr(scope, self.pick_tag(scope), r.randint(0, 2))})")
        elif kind == "reassign":
            name = r.choice(locals_)
            tag = scope.names[name]
            lines.append(f"{indent}{name} = {self.array_expr(scope, tag, r.randint(1, 3))}")
        elif kind == "horner_local":
            name = r.choice(locals_)
            tag = scope.names[name]
            target = self.fresh()
            text = self.number()
            for _ in range(r.randint(2, 4)):
                text = f"({text} * {name} {r.choice(('+', '-'))} {self.leaf(scope, tag)})"
            lines.append(f"{indent}{target} = {text}")
            scope.names[target] = tag
        elif kind == "augment":
            names = list(scope.names)
            name = r.choice(names)
            tag = scope.names[name]
            op = r.choices(AUGMENTED, weights=AUGMENTED_WEIGHTS)[0]
            value = r.choice(EXPONENTS[:3]) if op == "**=" else self.expr(scope, tag, r.randint(0, 2))
            lines.append(f"{indent}{name} {op} {value}")
        elif kind == "view":
            source = r.choice(list(scope.names))
            tag = scope.names[source]
            view, same_shape = r.choice(((f"{source}[::-1]", True), (f"{source}[...]", True),
                                         (f"{source}[::2]", False), (f"{source}.T", False)))
            name = self.fresh("v")
            lines.append(f"{indent}{name} = {view}")
            scope.names[name] = tag if same_shape else f"{tag}/{name}"
        elif kind == "loop":
            variable = r.choice(("i", "j", "_"))
            params = [p for p in PARAMS + ("x", "y") if p in scope.names]
            count = str(r.choice((2, 3)))
            if params and r.random() < 0.25:  # not unrolled; no turn at all for an empty array
                count = f"len({r.choice(params)})"
            lines.append(f"{indent}for {variable} in range({count}):")
            inner = scope.copy()
            inner.loop_var = variable if variable != "_" else None
            inner.broken = count.startswith("len")
            for _ in range(r.randint(1, 2)):
                self.loop_statement(inner, lines, indent + "    ")
            self.after_loop(scope, inner)
        elif kind == "if":
            param = r.choice([p for p in PARAMS + ("x", "y") if p in scope.names] or ["np.ones(1)"])
            test = r.choice((f"{param}.shape[0] > 2", f"{param}.ndim == 1", f"{param}.size == 0"))
            lines.append(f"{indent}if {test}:")
            then, orelse = scope.copy(), scope.copy()
            before = len(lines)
            for _ in range(r.randint(1, 2)):
                self.statement(then, lines, indent + "    ", loop_depth + 1, in_helper)
            if len(lines) == before:
                lines.append(f"{indent}    pass")
            lines.append(f"{indent}else:")
            before = len(lines)
            for _ in range(r.randint(1, 2)):
                self.statement(orelse, lines, indent + "    ", loop_depth + 1, in_helper)
            if len(lines) == before:
                lines.append(f"{indent}    pass")
            for name in then.names.keys() & orelse.names.keys():
                if then.names[name] == orelse.names[name]:
                    scope.names[name] = then.names[name]

    @staticmethod
    def after_loop(scope: Scope, inner: Scope) -> None:
        if inner.broken:  # the loop may have left before binding its new names
            scope.maybe |= inner.maybe | (inner.names.keys() - scope.names.keys())
        else:
            scope.maybe |= inner.maybe
        scope.names.update(inner.names)

    def loop_statement(self, scope: Scope, lines: list[str], indent: str) -> None:
        """A statement that feeds the next turn: a local reassigned from itself, or updated;
        sometimes followed by a `break` or `continue` on the values."""
        self._loop_statement(scope, lines, indent)
        r = self.r
        if r.random() < 0.12:
            scope.broken = True
            tag = self.pick_tag(scope)
            if "forward_into_exit_test" in AVOID:  # the test reads no local
                tag = "S"
                scope = Scope({n: t for n, t in scope.names.items()
                               if n in PARAMS + ("x", "y", "s")}, scope.loop_var)
            lines.append(f"{indent}if {self.comparison(scope, tag, 1)}.{r.choice(('all', 'any'))}():")
            lines.append(f"{indent}    {r.choice(('break', 'continue'))}")

    def _loop_statement(self, scope: Scope, lines: list[str], indent: str) -> None:
        r = self.r
        locals_ = [n for n in scope.names if n not in PARAMS]
        if not locals_ or r.random() < 0.2:
            self.statement(scope, lines, indent, 1, False)
            return
        name = r.choice(locals_)
        tag = scope.names[name]
        if r.random() < 0.5:
            op = r.choice(("+", "-", "*"))
            lines.append(f"{indent}{name} = {name} {op} {self.expr(scope, tag, r.randint(0, 2))}")
        elif r.random() < 0.5:
            lines.append(f"{indent}{name} {r.choice(('+=', '-=', '*='))} {self.expr(scope, tag, r.randint(0, 2))}")
        else:
            lines.append(f"{indent}{name} = {self.array_expr(scope, tag, r.randint(1, 3))}")

    def returned(self, scope: Scope, in_helper: bool, lines: list[str]) -> str:
        """The text after `return` (`lines`: the function so far)."""
        r = self.r
        names = list(scope.names)
        if in_helper:
            if r.random() < 0.6:
                locals_ = [n for n in names if n not in ("x", "y", "s") and scope.names[n] == "S"]
                if locals_:
                    return r.choice(locals_)
            return self.array_expr(scope, "S", r.randint(1, 2))
        items: list[str] = []
        for _ in range(r.choices((1, 2, 3), weights=(3, 4, 2))[0]):
            roll = r.random()
            if roll < 0.03 and "return_order" not in AVOID:
                items.append(r.choice((f"{r.choice(names)}.fill(1)", "print('returning')")))
            elif roll < 0.45:
                items.append(r.choice(names))
            elif roll < 0.6 and items and items[-1] in scope.names:
                # a local returned, and read again in the same return
                name = items[-1]
                items.append(f"{name} {r.choice(('+', '*', '-'))} {self.number()}")
            else:
                items.append(self.array_expr(scope, self.pick_tag(scope), r.randint(1, 3)))
        if len(items) == 1 and (r.random() < 0.7 or "one_tuple" in AVOID):
            return items[0]
        if "return_order" in AVOID:
            text = "\n".join(lines)
            safe = [n for n in names if n not in scope.maybe and (
                n in PARAMS or len(re.findall(rf"\b{n}\b", text)) >= 2)]
            items = [item if item in safe else r.choice(safe) for item in items[:-1]] + items[-1:]
        elif "unbound_in_return" in AVOID:
            bound = [n for n in names if n not in scope.maybe]
            items = [r.choice(bound) if item in scope.maybe else item
                     for item in items[:-1]] + items[-1:]
        return ", ".join(items) + ("," if len(items) == 1 else "")

    def helper(self) -> str:
        r = self.r
        arity = r.choice((1, 2, 2))
        name = f"h{len(self.helpers) + 1}"
        params = ("x", "y")[:arity]
        scope = Scope({p: "S" for p in params})
        default = r.random() < 0.25
        signature = ", ".join(params) + (f", s={self.number()}" if default else "")
        if default:
            scope.names["s"] = "S"  # a number, or an array passed by keyword
        lines = [f"def {name}({signature}):"]
        if r.random() < 0.15:
            lines.append(f"    {params[0]} {r.choice(('+=', '*='))} {self.number()}")
        # loops, ifs and early returns in some helpers
        depth = 0 if r.random() < 0.4 else 1
        for _ in range(r.randint(1, 3)):
            self.statement(scope, lines, "    ", depth, True)
        lines.append(f"    return {self.returned(scope, True, lines)}")
        self.helpers.append(Helper(name, arity, default))
        return "\n".join(lines)

    def program(self) -> Program:
        r = self.r
        helpers = [self.helper() for _ in range(r.choices((0, 1, 2), weights=(4, 3, 2))[0])]
        nparams = r.choices((1, 2, 3), weights=(3, 4, 2))[0]
        params = PARAMS[:nparams]
        scope = Scope({p: "S" for p in params})
        lines = [f"def main({', '.join(params)}):"]
        for _ in range(r.randint(2, 6)):
            self.statement(scope, lines, "    ", 0, False)
        lines.append(f"    return {self.returned(scope, False, lines)}")
        body = "\n".join(lines)
        source = "import numpy as np\n\n" + (GLOBALS if self.globals else "") + "\n" + \
            "".join(h + "\n\n\n" for h in helpers) + body + "\n"
        return Program(self.seed, nparams, source, [h.name for h in self.helpers], self.globals)


def generate(seed: int) -> Program:
    return Generator(seed).program()


# ---------------------------------------------------------------------------------------------
# the inputs
# ---------------------------------------------------------------------------------------------

DTYPES = (np.float64, np.float32, np.int64, np.bool_, np.complex128, np.int32, np.uint8,
          np.float16)
DTYPE_WEIGHTS = (8, 4, 4, 1, 2, 0.3, 0.3, 0.3)
FLOAT_SPECIALS = (np.nan, np.inf, -np.inf, -0.0, 0.0, 1e308, 5e-324, 1.0, -1.0, 0.5, 0.1, 3.0)
INT_SPECIALS = (0, 1, -1, 2, 2 ** 62, -(2 ** 63), 7)


@dataclass(frozen=True)
class Arg:
    """How one argument is made from the base arrays: `base[index]` as it is ("plain"), or a
    view of it: "rev" (`[::-1]`), "step" (`[::2]`, of a base twice as long), "T" (`.T`, of a
    base of the transposed shape)."""

    index: int
    view: str = "plain"

    def make(self, bases: Sequence[Any]) -> Any:
        base = bases[self.index]
        if self.view == "rev":
            return base[::-1]
        if self.view == "step":
            return base[::2]
        if self.view == "T":
            return base.T
        return base


@dataclass(frozen=True)
class Layout:
    """The arguments of a call, each made from the bases (two may share one: aliasing)."""

    args: tuple[Arg, ...]

    def make(self, bases: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(arg.make(bases) for arg in self.args)

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*bases: Any) -> Any:
            return function(*self.make(bases))
        call.__qualname__ = f"{getattr(function, '__qualname__', 'main')}[{self.describe()}]"
        return call

    def describe(self) -> str:
        return ", ".join(f"base{a.index}" + ("" if a.view == "plain" else f"<{a.view}>")
                         for a in self.args)


@dataclass(frozen=True)
class Kind:
    """A kind of input: each argument's dtype and shape, and the layout."""

    dtypes: tuple[Any, ...]
    shapes: tuple[tuple[int, ...] | None, ...]  # None: a Python number instead of an array
    layout: Layout


def _values(r: random.Random, dtype: Any, size: int, special: float) -> list[Any]:
    out: list[Any] = []
    for _ in range(size):
        if dtype is np.bool_:
            out.append(r.random() < 0.5)
        elif dtype is np.int64:
            out.append(r.choice(INT_SPECIALS) if r.random() < special / 3 else r.randint(-6, 6))
        elif dtype in (np.int32, np.uint8):
            out.append(r.randint(0, 9) if dtype is np.uint8 else r.randint(-6, 6))
        else:
            def one() -> float:
                if r.random() < special:
                    return r.choice(FLOAT_SPECIALS)
                return round(r.uniform(-4, 4), r.choice((0, 1, 3, 8)))
            out.append(complex(one(), one()) if dtype is np.complex128 else one())
    return out


def base_array(r: random.Random, dtype: Any, shape: tuple[int, ...] | None, view: str,
               special: float) -> Any:
    if shape is None:  # a Python number
        value = _values(r, dtype, 1, special)[0]
        return {np.float64: float, np.float32: float, np.int64: int, np.bool_: bool,
                np.complex128: complex, np.int32: int, np.uint8: int, np.float16: float}[dtype](value)
    if view == "step":
        shape = (2 * shape[0] - 1 if shape[0] else 0, *shape[1:])
    elif view == "T":
        shape = shape[::-1]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        size = int(np.prod(shape))
        return np.array(_values(r, dtype, size, special), dtype=dtype).reshape(shape)


SHAPE_PATTERNS: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((5,),), ((2, 3),), ((1,),), ((0,),), ((3,), (2, 3)), ((2, 3), (3,)), ((37,),), ((4, 9),),
    ((9,), (4, 9)),
)
SHAPE_WEIGHTS = (6, 4, 1, 1, 2, 2, 0.5, 0.5, 0.5)


def draw_kind(r: random.Random, nparams: int, avoid: Kind | None = None,
              three_columns: bool = False) -> Kind:
    """A kind of input for `nparams` arguments (another than `avoid`, if given); with
    `three_columns`, mostly of shapes (3,) and (2, 3)."""
    for _ in range(20):
        pattern = r.choices(SHAPE_PATTERNS, weights=SHAPE_WEIGHTS)[0]
        if three_columns and r.random() < 0.9:
            pattern = r.choice((((3,),), ((2, 3),), ((3,), (2, 3)), ((2, 3), (3,))))
        if len(pattern) == 1:
            shapes = [pattern[0]] * nparams
        else:
            shapes = [r.choice(pattern) for _ in range(nparams)]
        dtype = r.choices(DTYPES, weights=DTYPE_WEIGHTS)[0]
        dtypes = [dtype] * nparams
        if nparams > 1 and r.random() < 0.2:
            dtypes[r.randrange(nparams)] = r.choices(DTYPES, weights=DTYPE_WEIGHTS)[0]
        if r.random() < (0.15 if avoid is not None else 0.05):
            shapes[r.randrange(nparams)] = None  # a Python number
        args = []
        for i in range(nparams):
            view = "plain"
            if shapes[i] is not None and r.random() < 0.15:
                view = r.choice(("rev", "step", "T") if len(shapes[i]) == 2 else ("rev", "step"))
            args.append(Arg(i, view))
        kind = Kind(tuple(dtypes), tuple(shapes), Layout(tuple(args)))
        if kind != avoid:
            return kind
    return kind


def aliased(kind: Kind, r: random.Random) -> Layout | None:
    """The kind's layout with one argument the same array as (or a reversed view of) another
    of equal dtype and shape, if any."""
    pairs = [(i, j) for i in range(len(kind.shapes)) for j in range(i + 1, len(kind.shapes))
             if kind.shapes[i] is not None and kind.shapes[i] == kind.shapes[j]
             and kind.dtypes[i] == kind.dtypes[j]]
    if not pairs:
        return None
    i, j = r.choice(pairs)
    args = list(kind.layout.args)
    first = args[i]
    view = first.view if r.random() < 0.6 else ("rev" if first.view == "plain" else "plain")
    if view != first.view and first.view != "plain":
        return None
    args[j] = Arg(first.index, view)
    return Layout(tuple(args))


def draw_bases(r: random.Random, kind: Kind, special: float) -> list[Any]:
    return [base_array(r, dtype, shape, arg.view, special)
            for dtype, shape, arg in zip(kind.dtypes, kind.shapes, kind.layout.args)]


@dataclass
class Call:
    bases: list[Any]
    layout: Layout
    note: str


def one_argument_changed(r: random.Random, kind: Kind) -> Kind:
    """`kind` with one argument of another dtype or shape, or a Python number (a version
    relying on that argument's kind must check it on entry)."""
    index = r.randrange(len(kind.shapes))
    dtypes, shapes, args = list(kind.dtypes), list(kind.shapes), list(kind.layout.args)
    change = r.choice(("dtype", "shape", "number"))
    if change == "dtype":
        dtypes[index] = r.choice([d for d in DTYPES if d is not dtypes[index]])
    elif change == "shape":
        shapes[index] = r.choice([s for s, in SHAPE_PATTERNS[:4] if s != shapes[index]])
        args[index] = Arg(args[index].index)
    else:
        shapes[index] = None
        args[index] = Arg(args[index].index)
    return Kind(tuple(dtypes), tuple(shapes), Layout(tuple(args)))


def plan_calls(program: Program) -> list[Call]:
    """The calls a program gets: the first kind (which the array version is compiled for),
    more of it, other kinds, the first kind again."""
    r = random.Random(program.seed * 7919 + 17)
    nparams = program.nparams
    first = draw_kind(r, nparams, three_columns=program.three_columns)
    calls = [Call(draw_bases(r, first, 0.1), first.layout, "first kind (compiles)")]
    for n in range(r.randint(2, 3)):
        layout = first.layout
        bases = draw_bases(r, first, 0.35)
        if n == 0:
            layout = aliased(first, r) or layout
        calls.append(Call(bases, layout, "first kind, other values" +
                          (" (aliased)" if layout != first.layout else "")))
    # sometimes more calls of other kinds than MAX_TYPE_MISSES: the version for any types is
    # then installed in place of the array version
    for _ in range(r.randint(1, 2) if r.random() < 0.9 else MAX_TYPE_MISSES + 1):
        if r.random() < 0.5:
            other = draw_kind(r, nparams, avoid=first, three_columns=program.three_columns)
        else:
            other = one_argument_changed(r, first)
        calls.append(Call(draw_bases(r, other, 0.25), other.layout, "another kind"))
    calls.append(Call(draw_bases(r, first, 0.3), first.layout, "first kind again"))
    return calls


# ---------------------------------------------------------------------------------------------
# running the programs
# ---------------------------------------------------------------------------------------------

_module_numbers = itertools.count()


def load(source: str, directory: Path) -> types.ModuleType:
    """Write `source` to a file in `directory` and import it (so `inspect.getsource` works)."""
    path = directory / f"symcompile_numpy_fuzz_{next(_module_numbers)}.py"
    return import_source(source, path, keep=False)


def _indent(text: str) -> str:
    return textwrap.indent(text.rstrip("\n"), "    ")


def _compiled_source(compiled: Callable[..., Any], args: tuple[Any, ...]) -> str:
    try:
        return sc.source(compiled, *args)
    except Exception as exc:  # noqa: BLE001 - the report shows why
        return f"<no source: {type(exc).__name__}: {exc}>"


def check_program(program: Program, directory: Path, calls: Sequence[Call] | None = None) -> None:
    """Compile `program`'s main afresh and compare every planned call with the original."""
    module = load(program.source, directory)
    compiled = sc.symbolic(module.main)
    for number, call in enumerate(calls if calls is not None else plan_calls(program)):
        try:
            assert_equivalent(call.layout.wrap(module.main), call.layout.wrap(compiled),
                              tuple(call.bases))
        except AssertionError as exc:
            args = call.layout.make(copy.deepcopy(call.bases))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                shown = _compiled_source(compiled, args)
            raise AssertionError("\n".join([
                f"seed {program.seed}: call {number} ({call.note}) differs",
                "--- generated module ---", _indent(program.source),
                f"--- arguments: {call.layout.describe()} ---",
                _indent("\n".join(f"base{i} = {b!r}" + (f"  # {b.dtype}" if isinstance(b, np.ndarray) else "")
                                  for i, b in enumerate(call.bases))),
                "--- compiled main for these arguments ---", _indent(shown),
                "--- what went wrong ---", _indent(str(exc)),
            ])) from None


def hunt(seeds: Sequence[int] | range, stop_after: int = 20, quiet: bool = False) -> list[int]:
    """Run the programs of `seeds` outside pytest, print failures; the failing seeds."""
    failed: list[int] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as name:
        for seed in seeds:
            program = None
            try:
                program = generate(seed)
                check_program(program, Path(name))
            except Exception as exc:  # noqa: BLE001 - a hunt reports everything
                failed.append(seed)
                if not quiet:
                    print("=" * 100)
                    print(str(exc) if isinstance(exc, AssertionError) else
                          f"seed {seed}: {traceback.format_exc()}\n{program and program.source}")
                if len(failed) >= stop_after:
                    break
    print(f"{len(seeds)} seeds, {len(failed)} failed ({time.perf_counter() - start:.1f} s): {failed}")
    return failed


# ---------------------------------------------------------------------------------------------
# the random test
# ---------------------------------------------------------------------------------------------

CHUNKS = 16
PER_CHUNK = 30  # 480 programs


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_numpy_programs(chunk: int, tmp_path: Path) -> None:
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        check_program(generate(seed), tmp_path)


def test_generated_programs_are_valid_and_varied(tmp_path: Path) -> None:
    """The generator writes valid Python, and enough of the first kind's calls return
    normally (rather than raise at once) for the comparison of values to mean something."""
    outcomes: Counter[str] = Counter()
    total = 100
    for seed in range(total):
        program = generate(seed)
        compile(program.source, "<generated>", "exec")
        module = load(program.source, tmp_path)
        call = plan_calls(program)[0]
        observation = observe(call.layout.wrap(module.main), tuple(call.bases))
        outcomes[observation.outcome if observation.exc_type is None else
                 observation.exc_type.__name__] += 1
    assert outcomes["return"] >= total * 3 // 5, outcomes


# ---------------------------------------------------------------------------------------------
# regressions: the minimal programs of the miscompilations the fuzzer found
# ---------------------------------------------------------------------------------------------


def check_source(tmp_path: Path, source: str, calls: Sequence[tuple[Any, ...]]) -> None:
    """Compile `main` of the module `source` afresh; the first call compiles the array version,
    and every call must be observably identical to the original's."""
    text = "import numpy as np\n\n\n" + textwrap.dedent(source).strip() + "\n"
    program = Program(-1, 0, text)
    layout = Layout(tuple(Arg(i) for i in range(len(calls[0]))))
    check_program(program, tmp_path, [Call(list(args), layout, "regression") for args in calls])


FLOATS = np.array([0.5, -1.0, 2.0, -0.0, 3.0])


# Fixed (321b491): eliminate_temporaries lowered `return x,` (a tuple of one item) to `return
# x`: _Lowering._finish rebuilds the tuple only for more than one result
def test_one_tuple_return(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a):
            return a * 2 + 1,
        """, [(FLOATS,), (FLOATS[::-1].copy(),)])


# Fixed (321b491): use_cheaper_numpy_calls converts the Python number operand of a ufunc to
# the *result* dtype (_Cheaper._operand/_converted), but ldexp's second operand is an int:
# ldexp(a, float64(2.0)) raises TypeError where ldexp(a, 2) returns a * 4
def test_ldexp_exponent_converted_to_float(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a):
            return np.ldexp(a, 2)
        """, [(FLOATS,)])


# Fixed (321b491): value_types types `b ** 2` on a bool array as int64
# (np.power.resolve_dtypes), but ndarray.__pow__ squares by np.square, which gives int8;
# eliminate_temporaries then computes the int64 sum into that int8 array (`t += t_2`): values
# wrap and the result is int8
def test_bool_array_squared_is_int8(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a, b):
            x = b ** 2
            return x + a * 1000
        """, [(np.arange(5), np.array([True, False, True, True, False]))])


# Fixed (321b491): the same mistyping of `bool_array ** 2` (int64, really int8): np.sqrt of it
# is float16, not float64, and `t *= a` keeps float16 where the original `sqrt(m) * a` is
# float32
def test_bool_array_squared_mistyped_through_sqrt(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a):
            m = (a > 0) ** 2
            return np.sqrt(m) * a
        """, [(FLOATS.astype(np.float32),)])


# Fixed (321b491): eliminate_temporaries lowers every item of a returned tuple with last=True
# (_Lowering._lowered), so an item it cannot lower (a call, an untyped operation) stays in the
# return statement while the operations of the items after it are moved before it: here
# a.fill(0) runs after a * 2 + 1 is computed
def test_return_tuple_evaluation_order(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a):
            return a.fill(0), a * 2 + 1
        """, [(FLOATS,)])


# Fixed (321b491): the same evaluation order of returned tuples: `-m` on a bool array raises
# TypeError before `a / b` is computed, but the compiled code divides first and issues its
# divide-by-zero warning
def test_return_tuple_evaluation_order_warnings(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a, b):
            m = a > b
            return -m, a / b + 1
        """, [(FLOATS, np.zeros(5))])


# Fixed (2e02826): forward_single_uses moves `t = t - a` into the test of the `if` holding
# `continue` (its only read on the way to `t = a * 3`), but `continue` skips that reassignment
# and the value is returned: _Forwarder._only_use asks whether t is live after the `if`
# statement, not on the paths that leave it by break or continue (the same with scalars, and
# with break)
@pytest.mark.parametrize("leave", ["continue", "break"])
def test_forward_into_test_of_if_holding_continue(tmp_path: Path, leave: str) -> None:
    check_source(tmp_path, f"""
        def main(a):
            t = a * 1
            for i in range(2):
                t = t - a
                if (t < 10).any():
                    {leave}
                t = a * 3
            return t
        """, [(np.arange(3.0),)])
    check_source(tmp_path, f"""
        def main(x):
            v = 0
            for i in range(2):
                v = x + i
                if v > 0:
                    {leave}
                v = 5
            return v
        """, [(1.0,), (-5.0,)])


# Fixed (2e02826): value_types types `a ** 2.0` as np.square(a) (the fix for bool ** 2 takes
# the float exponent 2.0 with the int 2), but NumPy squares by its shortcut only for the int
# 2: `int64_array ** 2.0` is np.power(int64, float), float64. eliminate_temporaries then adds
# the float64 x into the int64 `a * 3` (`t_2 += x`): UFuncTypeError
def test_int_array_to_the_float_two_is_float(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a):
            x = a ** 2.0
            return a * 3 + x
        """, [(np.arange(5),)])


# Fixed (2e02826): eliminate_temporaries keeps a Name item of a returned tuple in place
# (_Lowering._operand returns a Name as it is whatever `last`), and computes the next item's
# operations first; but reading t raises UnboundLocalError, so the original never divides: the
# compiled code issues the divide-by-zero warnings first
def test_return_tuple_evaluation_order_unbound_name(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a, b):
            if (a > 5).all():
                t = a + 1
            return t, a / b + 1
        """, [(np.arange(3.0), np.zeros(3))])


# Fixed (0b35de2): eliminate_temporaries computes `a * 0.1` into the spare array of `tanh(b)`
# (`multiply(a, 0.1, out=t)`), which rests on b being an array of a's kind, but records only
# the arguments of the operation itself (`work.relied |= known.arguments` in _Lowering.lower;
# `owned` keeps kinds, not what they rest on): b's type is not checked on entry. With b a
# float32 array, a * 0.1 is rounded to float32 (wrong bits); with b = 0.5, t is a NumPy scalar
# and the call raises TypeError
def test_spare_array_relies_on_the_argument_it_came_from(tmp_path: Path) -> None:
    a = np.array([0.1, 0.7, 2.3])
    check_source(tmp_path, """
        def main(a, b):
            return np.arctan2(np.fmod(np.tanh(b), a), a * 0.1)
        """, [(a, a), (a, np.array([0.9, 0.3, 0.7], dtype=np.float32)), (a, 0.5)])


# Fixed: `t <= t` used t twice and put it on the list of spare arrays twice; after `-2 / ...`
# was computed into it, t was still spare and written over by `a * 2` while it held -2 / ...
def test_operand_used_twice_is_spare_once(tmp_path: Path) -> None:
    check_source(tmp_path, """
        def main(a):
            t = a + 1
            u = -2 / (t <= t) + a * 2
            return u
        """, [(np.array([0.5, -1.0, 2.0]),)])
