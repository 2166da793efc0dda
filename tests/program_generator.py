"""Hypothesis strategies that write small random numeric *modules* as Python source text.

A generated module has a few global constants, one to three helper functions and an entry
function ``main(x, y, n)``; ``x`` and ``y`` are numbers (ints or floats), ``n`` a small
non-negative int that drives the loops.  Helpers call earlier helpers (never themselves or a
later one, so there is no recursion) and ``main`` calls helpers.  The programs use what
symcompile's passes work on: constants (NaN as ``float('nan')``, ``-0.0``, infinities, ``2 **
70``, small ints, ``0.1``...), arithmetic, comparisons, ``and``/``or``/``not``, conditional
expressions, assignments and augmented assignments (copies and swaps included), ``if/elif/else``,
``for`` and ``while`` loops, ``break``/``continue``, early ``return``\\ s (often inside a
helper's loops), tuple returns, global constants (``SCALE = 3``, ``DEBUG = False``), ``print``
calls whose order matters, and (in some programs) NumPy arrays.  Less often: loops over
constant tuples, ``else`` clauses of loops, ``try``/``except`` and lambdas reading locals
(constructs the compiler keeps opaque), locals named like the inliner's renamed variables
(``h0_a``, ``h0_result``) and locals shadowing a global.

Every generated program is valid Python and terminates quickly:

* ``for`` loops run over ``range(n)``, ``range(k)`` (a helper's count parameter, only ever
  passed ``n`` or a literal), ``range`` of a small literal or a constant tuple; ``while`` loops
  are driven by a counter that the first statement of the body increments and nothing else
  writes; loops nest at most two deep (calls of helpers with loops of their own aside);
* ints cannot grow without bound.  The generator tracks a *degree* for every value (how many
  times the inputs can have been multiplied together: ``x * y`` has degree 2, ``x ** 3``
  degree 3, a constant degree 0), keeps every expression at degree 8 or less, and inside a loop
  (where a value feeds the next turn) allows no expression of higher degree than the variables
  it reads, so a loop can add bits to an int but never square it (a lambda's body obeys the
  same rule, and a call of it counts as degree 8);
* exponents are literals (``** 2``, ``** 3``, ``** -1``, ``** 0.5``), never variables.

An operator expression is sometimes written again further on in the same function (a common
subexpression), as long as the variables it reads have not grown in degree since. They may
have been assigned in between, and then the repeat computes something else.

Run-time exceptions (ZeroDivisionError, OverflowError, TypeError, UnboundLocalError for a
variable bound on one branch only...) are part of what is compared, so they are allowed.

Choices are drawn so that hypothesis shrinks towards short, plain programs (a leaf before an
operator, fewer statements, the first constants of the pools), and the text is laid out as a
person would write it, because it is what a failing test shows.

Use :func:`programs` for a :class:`Program` and :func:`main_arguments` for ``(x, y, n)``.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

__all__ = [
    "ARGUMENT_VALUES",
    "Program",
    "main_arguments",
    "programs",
]

# the largest degree (see the module docstring) any expression may have
MAX_DEGREE = 8
# the largest number of statements in one function, nested ones and the final return included
MAX_STATEMENTS = 12
# how deep expressions and statements nest
MAX_EXPR_DEPTH = 3
MAX_BLOCK_DEPTH = 2

# literal constants, simplest first (hypothesis shrinks towards the front): text, precedence,
# degree (1 for the big ints, which count as much as an input; see the module docstring)
CONSTANTS: tuple[tuple[str, int, int], ...] = (
    ("1", 14, 0),
    ("2", 14, 0),
    ("0", 14, 0),
    ("3", 14, 0),
    ("0.5", 14, 0),
    ("-1", 12, 0),
    ("0.1", 14, 0),
    ("-0.0", 12, 0),
    ("0.0", 14, 0),
    ("1.5", 14, 0),
    ("float('nan')", 14, 0),
    ("float('inf')", 14, 0),
    ("-float('inf')", 12, 0),
    ("2 ** 70", 13, 1),
    ("-2 ** 70", 12, 1),
    ("7", 14, 0),
    ("-2.5", 12, 0),
    ("1e308", 14, 0),
    ("True", 14, 0),
    ("False", 14, 0),
    ("10 ** 20", 13, 1),
    ("5e-324", 14, 0),
)

# Python's operator precedence, lowest first, for parenthesizing generated expressions
PRECEDENCE: dict[str, int] = {
    "if": 1, "or": 2, "and": 3, "not": 4, "<": 5,
    "+": 10, "-": 10, "*": 11, "/": 11, "//": 11, "%": 11, "-x": 12, "**": 13,
}

# the global constants a module may define: (name, value text)
GLOBALS: tuple[tuple[str, str], ...] = (
    ("SCALE", "3"),
    ("DEBUG", "False"),
    ("OFFSET", "-0.0"),
    ("FACTOR", "0.1"),
    ("BIG", "2 ** 70"),
    ("NAN", "float('nan')"),
    ("INF", "float('inf')"),
    ("VERBOSE", "True"),
    ("LIMIT", "1e308"),
    ("STEP", "-2"),
)
BOOL_GLOBALS = frozenset({"DEBUG", "VERBOSE"})
BIG_GLOBALS = frozenset({"BIG"})  # degree 1, like the big int constants

# NumPy array expressions with no inputs
ARRAY_LEAVES: tuple[str, ...] = (
    "np.arange(3)",
    "np.arange(4.0)",
    "np.linspace(-1.0, 1.0, 4)",
    "np.ones(3)",
    "np.array([1.5, -0.0, 2.0])",
    "np.zeros(2)",
)
# NumPy functions of one argument (elementwise, or a reduction to a scalar)
NUMPY_ELEMENTWISE: tuple[str, ...] = ("np.sin", "np.abs", "np.sqrt", "np.exp", "np.floor", "np.cos")
NUMPY_REDUCTIONS: tuple[str, ...] = ("np.sum", "np.max", "np.mean", "np.prod")

# constant iterables for `for` loops, with the degree of their items
LOOP_TUPLES: tuple[tuple[str, int], ...] = (
    ("(1, 2)", 0), ("(0.5, -0.0, 3)", 0), ("(2 ** 70, 0.1)", 1), ("()", 0),
)
# what `except` catches
EXCEPTIONS: tuple[str, ...] = (
    "ZeroDivisionError", "ArithmeticError", "(TypeError, ValueError)", "Exception",
)
BINARY_OPERATORS: tuple[str, ...] = ("+", "-", "*", "/", "//", "%")
AUGMENTED_OPERATORS: tuple[str, ...] = ("+=", "-=", "*=", "/=", "//=", "%=")
COMPARISONS: tuple[str, ...] = ("<", ">", "==", "!=", "<=", ">=")
EXPONENTS: tuple[str, ...] = ("2", "3", "-1", "0.5", "0")

# arguments for main: interesting values first, then ordinary ones
ARGUMENT_VALUES: tuple[Any, ...] = (
    0, 1, -3, 2, 0.0, -0.0, 1.5, -2.5, 0.1, math.nan, math.inf, -math.inf,
    2 ** 70, -(2 ** 70), 1e308, 5e-324, 7, 3.0, -1,
)


# ---------------------------------------------------------------------------
# the pieces the generator passes around
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """Generated expression text, with what the generator knows about its value."""

    text: str
    degree: int = 0
    array: bool = False  # may be a NumPy array (so not usable as a condition)
    precedence: int = 14  # of its outermost operator (see PRECEDENCE); 14 for atoms and calls

    def operand(self, precedence: int, right: bool = False) -> str:
        """The text as the operand of an operator of `precedence`, parenthesized if needed
        (a right operand also when it has the same precedence: `a - (b - c)`)."""
        if self.precedence < precedence or (right and self.precedence == precedence):
            return f"({self.text})"
        return self.text


@dataclass(frozen=True)
class Var:
    degree: int
    array: bool


@dataclass
class Env:
    """The variables at one point of a function: certainly bound, and maybe bound."""

    bound: dict[str, Var]
    maybe: dict[str, Var] = field(default_factory=dict)

    def copy(self) -> Env:
        return Env(dict(self.bound), dict(self.maybe))


@dataclass(frozen=True)
class Helper:
    """A generated helper function, as callers see it."""

    name: str
    params: tuple[str, ...]  # the number parameters
    count: bool  # takes a loop count `k` after the required number parameters
    defaults: tuple[str, ...]  # default texts of the last number parameters
    factor: int  # degree of the result per degree of the arguments
    array: bool  # may return an array
    source: str


@dataclass(frozen=True)
class Program:
    """A generated module: its text, and its parts (so `main` can be replaced)."""

    prelude: str
    helpers: tuple[Helper, ...]
    main: str
    uses_numpy: bool

    @property
    def source(self) -> str:
        parts = [self.prelude, *(helper.source for helper in self.helpers), self.main]
        return "\n\n".join(part.rstrip("\n") for part in parts if part.strip()) + "\n"

    def with_main(self, main: str) -> str:
        """The module's text with `main` replaced by `main`."""
        parts = [self.prelude, *(helper.source for helper in self.helpers), main]
        return "\n\n".join(part.rstrip("\n") for part in parts if part.strip()) + "\n"

    def __str__(self) -> str:
        return self.source


# ---------------------------------------------------------------------------
# one function
# ---------------------------------------------------------------------------


class FunctionWriter:
    """Writes the body of one function from hypothesis draws."""

    def __init__(
        self,
        draw: Callable[[st.SearchStrategy[Any]], Any],
        *,
        name: str,
        params: tuple[str, ...],
        count: str | None,
        helpers: tuple[Helper, ...],
        globals_: tuple[str, ...],
        numpy: bool,
        prefix: str,
        is_main: bool,
        extra_names: tuple[str, ...] = (),
    ) -> None:
        self.draw = draw
        self.name = name
        self.params = params
        self.count = count  # the loop count parameter (`n`, `k`), or None
        self.helpers = helpers
        self.globals = globals_
        self.numpy = numpy
        self.prefix = prefix
        self.is_main = is_main
        self.extra_names = extra_names  # unusual local names (inliner prefixes, shadowed globals)
        self.budget = MAX_STATEMENTS
        self.fresh_number = 0
        self.label_number = 0
        self.readonly: set[str] = {count} if count else set()
        self.loop_limit: int | None = None  # L inside a loop (every variable counts as degree L)
        self.loop_depth = 0
        self.loop_variables: list[str] = []  # loop variables readable here
        self.loop_degrees: dict[str, int] = {}  # their degrees (0 for `range`)
        self.return_degree = 0
        self.return_array = False
        self.recent: list[str] = []  # variables in the order they were last assigned
        self.loop_outer: set[str] = set()  # variables bound before the innermost loop
        self.closures: list[str] = []  # lambdas defined so far (at the top level: always bound)
        # operator expressions written so far, to write again (common subexpressions), each
        # with the degree of every variable it read then
        self.written: list[tuple[Expr, dict[str, int]]] = []

    # ------------------------------------------------------------- choices

    def choice(self, options: int) -> int:
        """An index in range(options); hypothesis shrinks it towards 0."""
        return self.draw(st.integers(0, options - 1))

    def weighted(self, weights: list[int]) -> int:
        """An index chosen with the given integer weights (0 means never)."""
        total = sum(weights)
        pick = self.draw(st.integers(0, total - 1))
        for index, weight in enumerate(weights):
            if pick < weight:
                return index
            pick -= weight
        raise AssertionError("unreachable")

    def coin(self, percent: int) -> bool:
        """True with about `percent` % probability; hypothesis shrinks it towards False."""
        return self.draw(st.integers(0, 99)) >= 100 - percent

    # ------------------------------------------------------------- expressions

    def var_degree(self, var: Var) -> int:
        return var.degree if self.loop_limit is None else max(var.degree, self.loop_limit)

    def readable(self, env: Env, limit: int, scalar: bool, maybe: bool) -> list[tuple[str, Var]]:
        found = []
        pool = env.maybe if maybe else env.bound
        for name, var in sorted(pool.items()):
            if scalar and var.array:
                continue
            if self.var_degree(var) <= limit:
                found.append((name, var))
        return found

    def leaf(self, env: Env, limit: int, scalar: bool) -> Expr:
        variables = self.readable(env, limit, scalar, maybe=False)
        maybe = self.readable(env, limit, scalar, maybe=True)
        arrays = not scalar and self.numpy
        closures = self.closures if limit >= MAX_DEGREE else []
        constants = [c for c in CONSTANTS if c[2] <= limit]
        globals_ = [g for g in self.globals if g not in BIG_GLOBALS or limit >= 1]
        loop_variables = [v for v in self.loop_variables if self.loop_degrees[v] <= limit]
        kind = self.weighted([
            6 if variables else 0,  # a variable
            4,  # a constant
            2 if globals_ else 0,  # a global constant
            1 if maybe else 0,  # a variable bound on some paths only
            2 if arrays else 0,  # an array
            1 if loop_variables else 0,  # a loop variable
            1 if closures else 0,  # a call of a lambda defined earlier
        ])
        if kind == 0:
            latest = dict(variables).get(self.recent[-1]) if self.recent else None
            if latest is not None and self.coin(35):  # the value just computed: a def-use chain
                return Expr(self.recent[-1], self.var_degree(latest), latest.array)
            name, var = variables[self.choice(len(variables))]
            return Expr(name, self.var_degree(var), var.array)
        if kind == 1:
            text, precedence, degree = constants[self.choice(len(constants))]
            return Expr(text, degree, False, precedence)
        if kind == 2:
            name = globals_[self.choice(len(globals_))]
            return Expr(name, int(name in BIG_GLOBALS))
        if kind == 3:
            name, var = maybe[self.choice(len(maybe))]
            return Expr(name, self.var_degree(var), var.array)
        if kind == 4:
            return Expr(ARRAY_LEAVES[self.choice(len(ARRAY_LEAVES))], 0, True)
        if kind == 5:
            name = loop_variables[self.choice(len(loop_variables))]
            return Expr(name, self.loop_degrees[name])
        # a lambda reads its variables when called; its body cannot raise their degree
        return Expr(f"{closures[self.choice(len(closures))]}()", MAX_DEGREE)

    def expr(self, env: Env, depth: int = MAX_EXPR_DEPTH, limit: int | None = None,
             scalar: bool = False) -> Expr:
        """An expression of degree at most `limit` (a scalar one if `scalar`); sometimes an
        operator expression written earlier in the function, again."""
        if limit is None:
            limit = self.loop_limit if self.loop_limit is not None else MAX_DEGREE
        if depth <= 0:
            return self.leaf(env, limit, scalar)
        earlier = self.rewritable(env, limit, scalar)
        if earlier and self.coin(30):
            return earlier[self.choice(len(earlier))]
        value = self.new_expr(env, depth, limit, scalar)
        self.remember(value, env)
        return value

    def variable_degree(self, env: Env, name: str) -> tuple[int, bool] | None:
        """(degree, may be an array) of a variable readable here, None if `name` is none."""
        if name in self.loop_variables:
            return self.loop_degrees[name], False
        var = env.bound.get(name, env.maybe.get(name))
        return None if var is None else (self.var_degree(var), var.array)

    def remember(self, value: Expr, env: Env) -> None:
        """Keep `value` to write again if it is an operator expression reading variables."""
        tree = ast.parse(value.text, mode="eval")
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        read = {name: found[0] for name in sorted(names)
                if (found := self.variable_degree(env, name)) is not None}
        if read and isinstance(tree.body, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            self.written = [*self.written[-5:], (value, read)]

    def rewritable(self, env: Env, limit: int, scalar: bool) -> list[Expr]:
        """Expressions written before that may be written here: within `limit`, and each
        variable they read still readable, with no higher degree and no array where there
        was none (a variable assigned since then makes them compute something else)."""
        found = []
        for value, read in self.written:
            if value.degree > limit or (scalar and value.array):
                continue
            now = {name: self.variable_degree(env, name) for name in read}
            if all(state is not None and state[0] <= read[name] and (value.array or not state[1])
                   for name, state in now.items()):
                found.append(value)
        return found

    def new_expr(self, env: Env, depth: int, limit: int, scalar: bool) -> Expr:
        """A new expression of depth at most `depth` (more than 0)."""
        callable_helpers = [h for h in self.helpers
                            if not (scalar and h.array) and h.factor <= limit]
        numpy = self.numpy
        kind = self.weighted([
            12,  # leaf
            6,  # binary operator
            2,  # power with a literal exponent
            2,  # unary minus / not / abs
            2,  # min / max
            2,  # comparison
            1,  # and / or
            2,  # conditional expression
            4 if callable_helpers else 0,  # helper call
            2 if numpy else 0,  # numpy function
            1,  # int / float / round
        ])
        sub = depth - 1
        if kind == 0:
            return self.leaf(env, limit, scalar)
        if kind == 1:
            op = BINARY_OPERATORS[self.choice(len(BINARY_OPERATORS))]
            left = self.expr(env, sub, limit, scalar)
            if op == "*":
                right = self.expr(env, sub, limit - left.degree, scalar)
                degree = left.degree + right.degree
            else:
                right = self.expr(env, sub, limit, scalar)
                degree = 0 if op == "/" else max(left.degree, right.degree)
            precedence = PRECEDENCE[op]
            return Expr(f"{left.operand(precedence)} {op} {right.operand(precedence, True)}",
                        degree, left.array or right.array, precedence)
        if kind == 2:
            # `** 2` and `** 3` count their base as degree 1 at least: powers of powers of
            # small ints would otherwise grow unchecked
            exponents = [e for e in EXPONENTS if e not in ("2", "3") or int(e) <= limit]
            exponent = exponents[self.choice(len(exponents))]
            power = int(exponent) if exponent in ("2", "3") else 1
            base = self.expr(env, sub, limit // power, scalar)
            return Expr(f"{base.operand(PRECEDENCE['**'], True)} ** {exponent}",
                        max(base.degree, 1) * power if power > 1 else base.degree, base.array,
                        PRECEDENCE["**"])
        if kind == 3:
            which = self.choice(3)
            operand = self.expr(env, sub, limit, scalar or which == 2)
            if which == 0:
                return Expr(f"-{operand.operand(PRECEDENCE['-x'], True)}", operand.degree,
                            operand.array, PRECEDENCE["-x"])
            if which == 1:
                return Expr(f"abs({operand.text})", operand.degree, operand.array)
            return Expr(f"not {operand.operand(PRECEDENCE['not'])}", 0, False, PRECEDENCE["not"])
        if kind == 4:
            function = ("min", "max")[self.choice(2)]
            first = self.expr(env, sub, limit, True)
            second = self.expr(env, sub, limit, True)
            return Expr(f"{function}({first.text}, {second.text})",
                        max(first.degree, second.degree))
        if kind == 5:
            return self.comparison(env, sub)
        if kind == 6:
            op = ("and", "or")[self.choice(2)]
            first = self.expr(env, sub, limit, True)
            second = self.expr(env, sub, limit, scalar)
            precedence = PRECEDENCE[op]
            return Expr(f"{first.operand(precedence)} {op} {second.operand(precedence, True)}",
                        max(first.degree, second.degree), second.array, precedence)
        if kind == 7:
            test = self.condition(env, sub)
            body = self.expr(env, sub, limit, scalar)
            orelse = self.expr(env, sub, limit, scalar)
            precedence = PRECEDENCE["if"]
            text = (f"{body.operand(precedence, True)} if {test.operand(precedence, True)} "
                    f"else {orelse.operand(precedence, True)}")
            return Expr(text, max(body.degree, orelse.degree), body.array or orelse.array,
                        precedence)
        if kind == 8:
            return self.call(env, sub, limit, callable_helpers)
        if kind == 9:
            if scalar or self.coin(40):
                function = NUMPY_REDUCTIONS[self.choice(len(NUMPY_REDUCTIONS))]
                operand = self.expr(env, sub, limit, False)
                return Expr(f"{function}({operand.text})", operand.degree, False)
            function = NUMPY_ELEMENTWISE[self.choice(len(NUMPY_ELEMENTWISE))]
            operand = self.expr(env, sub, limit, False)
            return Expr(f"{function}({operand.text})", operand.degree, operand.array)
        # int(1e308) has 1024 bits: as much as an input, degree 1
        functions = ("int", "float", "round") if limit >= 1 else ("float",)
        function = functions[self.choice(len(functions))]
        operand = self.expr(env, sub, limit, True)
        degree = operand.degree if function == "float" else max(operand.degree, 1)
        return Expr(f"{function}({operand.text})", degree, False)

    def comparison(self, env: Env, depth: int) -> Expr:
        first = self.expr(env, depth, None, True)
        op = COMPARISONS[self.choice(len(COMPARISONS))]
        second = self.expr(env, depth, None, True)
        precedence = PRECEDENCE["<"]
        text = f"{first.operand(precedence, True)} {op} {second.operand(precedence, True)}"
        if self.coin(15):  # a chain: the middle operand is evaluated once
            op2 = COMPARISONS[self.choice(len(COMPARISONS))]
            third = self.expr(env, depth, None, True)
            text += f" {op2} {third.operand(precedence, True)}"
        return Expr(text, 0, False, precedence)

    def condition(self, env: Env, depth: int = 2) -> Expr:
        """A scalar test for `if`, `while` and conditional expressions."""
        kind = self.weighted([
            6,  # comparison
            2,  # truth of a scalar expression
            2 if any(g in BOOL_GLOBALS for g in self.globals) else 0,  # DEBUG
            2,  # not / and / or
            1 if self.loop_variables else 0,  # i % 2 == 0
            1 if self.numpy else 0,  # np.any(array > value)
        ])
        if kind == 0:
            return self.comparison(env, max(depth - 1, 0))
        if kind == 1:
            return self.expr(env, max(depth - 1, 0), None, True)
        if kind == 2:
            flags = [g for g in self.globals if g in BOOL_GLOBALS]
            return Expr(flags[self.choice(len(flags))])
        if kind == 3:
            which = self.choice(3)
            first = self.condition(env, depth - 1) if depth > 0 else self.comparison(env, 0)
            if which == 0:
                return Expr(f"not {first.operand(PRECEDENCE['not'])}", 0, False, PRECEDENCE["not"])
            second = self.condition(env, depth - 1) if depth > 0 else self.comparison(env, 0)
            op = ("and", "or")[which - 1]
            precedence = PRECEDENCE[op]
            return Expr(f"{first.operand(precedence)} {op} {second.operand(precedence, True)}",
                        0, False, precedence)
        if kind == 4:
            name = self.loop_variables[self.choice(len(self.loop_variables))]
            return Expr(f"{name} % 2 == 0", 0, False, PRECEDENCE["<"])
        array = self.expr(env, max(depth - 1, 0), None, False)
        value = self.expr(env, 0, None, True)
        function = ("np.any", "np.all")[self.choice(2)]
        precedence = PRECEDENCE["<"]
        return Expr(f"{function}({array.operand(precedence, True)} > {value.operand(precedence, True)})")

    def call(self, env: Env, depth: int, limit: int, helpers: list[Helper]) -> Expr:
        helper = helpers[self.choice(len(helpers))]
        argument_limit = limit // helper.factor if helper.factor > 0 else limit
        required = len(helper.params) - len(helper.defaults)
        given = required + self.choice(len(helper.defaults) + 1)
        arguments = [self.expr(env, depth, argument_limit, True) for _ in range(given)]
        texts = [argument.text for argument in arguments]
        if helper.count:  # the count parameter comes after the required ones
            texts.insert(required, self.count_text())
        if given > required and self.coin(50):  # pass the optional one by keyword
            texts[-1] = f"{helper.params[given - 1]}={texts[-1]}"
        # a helper that multiplies its arguments does so to small ones too: at least degree 1
        degree = helper.factor * max([1, *(a.degree for a in arguments)]) if helper.factor else 0
        return Expr(f"{helper.name}({', '.join(texts)})", degree, helper.array)

    def count_text(self) -> str:
        """A loop count: the function's own count parameter, or a small literal."""
        options = ([self.count] if self.count else []) + ["2", "0", "3"]
        return options[self.choice(len(options))]

    # ------------------------------------------------------------- statements

    def fresh(self) -> str:
        if self.extra_names and self.coin(8):
            name = self.extra_names[self.choice(len(self.extra_names))]
            if name not in self.readonly:
                return name
        self.fresh_number += 1
        return f"{self.prefix}{self.fresh_number}"

    def label(self) -> str:
        self.label_number += 1
        return f"'{self.name}:{self.label_number}'"

    def assign_target(self, env: Env) -> str:
        """A variable to assign: a new one, or one already bound (often the latest, or one
        bound before the loop we are in: an accumulator)."""
        existing = sorted(n for n in env.bound if n not in self.readonly and n not in self.loop_variables)
        if existing and self.coin(50):
            outer = [n for n in existing if n in self.loop_outer]
            if outer and self.coin(40):
                return outer[self.choice(len(outer))]
            if self.recent and self.recent[-1] in existing and self.coin(30):
                return self.recent[-1]
            return existing[self.choice(len(existing))]
        return self.fresh()

    def bind(self, env: Env, name: str, value: Expr) -> None:
        degree = value.degree if self.loop_limit is None else max(value.degree, self.loop_limit)
        env.bound[name] = Var(degree, value.array)
        env.maybe.pop(name, None)
        if name in self.recent:
            self.recent.remove(name)
        self.recent.append(name)

    def statement(self, env: Env, depth: int, indent: str) -> tuple[list[str], bool]:
        """One statement (maybe compound): its lines, and whether it always leaves the block."""
        self.budget -= 1
        in_loop = self.loop_depth > 0
        nested = depth < MAX_BLOCK_DEPTH and self.budget >= 2
        scalars = sorted(n for n, v in env.bound.items()
                         if not v.array and n not in self.readonly and n not in self.loop_variables)
        kind = self.weighted([
            8,  # assignment
            3 if env.bound else 0,  # augmented assignment
            3,  # print
            5 if nested else 0,  # if / elif / else
            5 if nested and self.loop_depth < 2 else 0,  # for loop
            3 if nested and self.loop_depth < 2 else 0,  # while loop
            (4 if in_loop and not self.is_main else 2) if nested else 0,  # if test: return
            1 if len(scalars) >= 2 else 0,  # swap
            2 if env.bound else 0,  # copy
            1 if self.helpers else 0,  # helper called for its effect
            4 if in_loop else 0,  # if test: break / continue
            1,  # chained assignment
            2 if depth > 0 else 0,  # return (the block ends here)
            2 if nested else 0,  # try / except
            1 if depth == 0 and not in_loop and len(self.closures) < 2 else 0,  # lambda
        ])
        if kind == 0:
            value = self.expr(env)
            target = self.assign_target(env)
            self.bind(env, target, value)
            return [f"{indent}{target} = {value.text}"], False
        if kind == 1:
            target = self.assign_target(env)
            maybe = sorted(n for n, v in env.maybe.items() if n not in self.readonly
                           and n not in self.loop_variables)
            if maybe and self.coin(10):  # reads a variable bound on some paths only
                target = maybe[self.choice(len(maybe))]
                env.bound[target] = env.maybe.pop(target)
            if target not in env.bound:
                target = sorted(env.bound)[self.choice(len(env.bound))]
                if target in self.readonly or target in self.loop_variables:
                    return self.assignment(env, indent)
            op = AUGMENTED_OPERATORS[self.choice(len(AUGMENTED_OPERATORS))]
            current = env.bound[target]
            limit = self.loop_limit if self.loop_limit is not None else MAX_DEGREE
            if op == "*=":
                value = self.expr(env, 2, limit - self.var_degree(current))
                degree = self.var_degree(current) + value.degree
            else:
                value = self.expr(env, 2, limit)
                degree = 0 if op == "/=" else max(self.var_degree(current), value.degree)
            self.bind(env, target, Expr("", degree, current.array or value.array))
            return [f"{indent}{target} {op} {value.text}"], False
        if kind == 2:
            values = [self.expr(env, 2) for _ in range(1 + self.choice(2))]
            parts = ([self.label()] if self.coin(70) else []) + [v.text for v in values]
            return [f"{indent}print({', '.join(parts)})"], False
        if kind == 3:
            return self.if_statement(env, depth, indent)
        if kind == 4:
            return self.for_loop(env, depth, indent)
        if kind == 5:
            return self.while_loop(env, depth, indent)
        if kind == 6:
            test = self.condition(env)
            value = self.return_value(env)
            return [f"{indent}if {test.text}:", f"{indent}    {value}"], False
        if kind == 7:
            first = scalars[self.choice(len(scalars))]
            second = scalars[self.choice(len(scalars))]
            if first == second:
                return self.assignment(env, indent)
            a, b = env.bound[first], env.bound[second]
            env.bound[first], env.bound[second] = b, a
            return [f"{indent}{first}, {second} = {second}, {first}"], False
        if kind == 8:
            source = sorted(env.bound)[self.choice(len(env.bound))]
            target = self.fresh() if self.coin(70) else self.assign_target(env)
            if target == source:
                return self.assignment(env, indent)
            self.bind(env, target, Expr(source, self.var_degree(env.bound[source]),
                                        env.bound[source].array))
            return [f"{indent}{target} = {source}"], False
        if kind == 9:
            call = self.call(env, 2, self.loop_limit or MAX_DEGREE, list(self.helpers))
            return [f"{indent}{call.text}"], False
        if kind == 10:
            test = self.condition(env)
            jump = ("break", "continue")[self.choice(2)]
            return [f"{indent}if {test.text}:", f"{indent}    {jump}"], False
        if kind == 12:
            return [f"{indent}{self.return_value(env)}"], True
        if kind == 13:
            return self.try_statement(env, depth, indent)
        if kind == 14:
            return self.closure(env, indent)
        value = self.expr(env)
        first, second = self.fresh(), self.fresh()
        self.bind(env, first, value)
        self.bind(env, second, value)
        return [f"{indent}{first} = {second} = {value.text}"], False

    def assignment(self, env: Env, indent: str) -> tuple[list[str], bool]:
        value = self.expr(env)
        target = self.fresh()
        self.bind(env, target, value)
        return [f"{indent}{target} = {value.text}"], False

    def return_value(self, env: Env) -> str:
        """`return ...` (a tuple in `main` sometimes), recording its degree."""
        if self.is_main and self.coin(35):
            values = [self.expr(env, 2) for _ in range(2 + self.choice(2))]
            self.note_return(values)
            return f"return ({', '.join(v.text for v in values)})"
        value = self.expr(env)
        self.note_return([value])
        return f"return {value.text}"

    def note_return(self, values: list[Expr]) -> None:
        for value in values:
            self.return_degree = max(self.return_degree, value.degree)
            self.return_array = self.return_array or value.array

    def spanned(self, make: Callable[[], Any]) -> Any:
        """`make()` with its draws grouped as one hypothesis span, which the shrinker can
        delete as a whole (a statement)."""
        return self.draw(_span(self, make))

    def block(self, env: Env, depth: int, indent: str, most: int) -> tuple[list[str], bool]:
        """Up to `most` statements (at least one, except at the top of a function, where the
        shrinker can then delete them all); (lines, whether the block always leaves)."""
        lines: list[str] = []
        for index in range(most):
            if self.budget <= 1:
                break
            odds = 4 if index > 0 else 10 if depth == 0 else 0
            step = self.spanned(lambda odds=odds: self.next_statement(env, depth, indent, odds))
            if step is None:
                break
            new, leaves = step
            lines += new
            if leaves:
                return lines, True
        return lines or [f"{indent}pass"], False

    def next_statement(self, env: Env, depth: int, indent: str, odds: int,
                       ) -> tuple[list[str], bool] | None:
        """Another statement, or (one time in `odds`; never if 0) None to end the block;
        hypothesis shrinks towards ending it."""
        if odds and self.draw(st.integers(0, odds - 1)) == 0:
            return None
        return self.statement(env, depth, indent)

    @staticmethod
    def join(before: Env, branches: list[Env]) -> Env:
        """The variables after branches that each start from `before` (and fall through)."""
        if not branches:
            return before
        names = set(branches[0].bound)
        for branch in branches[1:]:
            names &= set(branch.bound)
        merged = Env({}, dict(before.maybe))
        everything: dict[str, Var] = {}
        for branch in branches:
            for pool in (branch.maybe, branch.bound):
                for name, var in pool.items():
                    old = everything.get(name)
                    everything[name] = var if old is None else Var(max(old.degree, var.degree),
                                                                     old.array or var.array)
        for name, var in everything.items():
            (merged.bound if name in names else merged.maybe)[name] = var
        for name in names:
            merged.maybe.pop(name, None)
        return merged

    def if_statement(self, env: Env, depth: int, indent: str) -> tuple[list[str], bool]:
        lines: list[str] = []
        branches: list[tuple[Env, bool]] = []
        test = self.condition(env)
        branch_env = env.copy()
        body, leaves = self.block(branch_env, depth + 1, indent + "    ", 3)
        lines += [f"{indent}if {test.text}:", *body]
        branches.append((branch_env, leaves))
        has_else = False
        while self.budget > 2 and self.coin(30) and len(branches) < 3:  # elif
            test = self.condition(env)
            branch_env = env.copy()
            body, leaves = self.block(branch_env, depth + 1, indent + "    ", 2)
            lines += [f"{indent}elif {test.text}:", *body]
            branches.append((branch_env, leaves))
        if self.budget > 1 and self.coin(50):
            has_else = True
            branch_env = env.copy()
            body, leaves = self.block(branch_env, depth + 1, indent + "    ", 2)
            lines += [f"{indent}else:", *body]
            branches.append((branch_env, leaves))
        falling = [e for e, leaves in branches if not leaves]
        if not has_else:
            falling.append(env.copy())
        all_leave = not falling
        merged = self.join(env, falling)
        env.bound, env.maybe = merged.bound, merged.maybe
        return lines, all_leave

    def loop_body(self, env: Env, depth: int, indent: str, first: list[str] | None = None,
                  ) -> tuple[list[str], Env]:
        limit = max([1] + [self.var_degree(v) for v in env.bound.values()]
                    + [self.var_degree(v) for v in env.maybe.values()])
        saved, saved_outer = self.loop_limit, self.loop_outer
        self.loop_limit = limit if saved is None else max(saved, limit)
        self.loop_outer = set(env.bound)
        self.loop_depth += 1
        body_env = env.copy()
        lines, _ = self.block(body_env, depth + 1, indent + "    ", 3)
        self.loop_outer = saved_outer
        if first:
            lines = first + (lines if lines != [f"{indent}        pass"] else [])
        self.loop_depth -= 1
        self.loop_limit = saved
        return lines, body_env

    def after_loop(self, env: Env, body_env: Env) -> None:
        """The body may have run zero or more times: what it bound is only maybe bound."""
        merged = self.join(env, [env.copy(), body_env])
        # a variable bound before the loop stays bound, with the degree it may have reached
        env.bound, env.maybe = merged.bound, merged.maybe

    def for_loop(self, env: Env, depth: int, indent: str) -> tuple[list[str], bool]:
        variable = ("i", "j")[self.loop_depth] if "i" not in self.loop_variables else "j"
        count = self.count_text()
        header = f"{indent}for {variable} in range({count}):"
        degree = 0
        if self.coin(15):
            header = f"{indent}for {variable} in range(1, {count}):"
        elif self.coin(15):
            items, degree = LOOP_TUPLES[self.choice(len(LOOP_TUPLES))]
            header = f"{indent}for {variable} in {items}:"
        self.loop_variables.append(variable)
        self.loop_degrees[variable] = degree
        self.readonly.add(variable)
        body, body_env = self.loop_body(env, depth, indent)
        self.loop_variables.remove(variable)
        self.readonly.discard(variable)
        self.after_loop(env, body_env)
        if variable not in env.bound:
            env.maybe[variable] = Var(degree, False)
        return [header, *body, *self.loop_else(env, depth, indent)], False

    def loop_else(self, env: Env, depth: int, indent: str) -> list[str]:
        """Sometimes an `else:` clause (it runs unless the loop breaks)."""
        if self.budget <= 2 or not self.coin(12):
            return []
        else_env = env.copy()
        lines, _ = self.block(else_env, depth + 1, indent + "    ", 1)
        merged = self.join(env, [env.copy(), else_env])
        env.bound, env.maybe = merged.bound, merged.maybe
        return [f"{indent}else:", *lines]

    def while_loop(self, env: Env, depth: int, indent: str) -> tuple[list[str], bool]:
        counter = f"c{self.fresh_number + 1}"
        self.fresh_number += 1
        count = self.count_text()
        self.readonly.add(counter)
        env.bound[counter] = Var(0, False)
        test = f"{counter} < {count}"
        if self.coin(40):
            test = f"{test} and {self.condition(env).operand(PRECEDENCE['and'], True)}"
        body, body_env = self.loop_body(env, depth, indent, [f"{indent}    {counter} += 1"])
        self.after_loop(env, body_env)
        lines = [f"{indent}{counter} = 0", f"{indent}while {test}:", *body]
        return [*lines, *self.loop_else(env, depth, indent)], False

    def try_statement(self, env: Env, depth: int, indent: str) -> tuple[list[str], bool]:
        """`try:` ... `except <arithmetic errors>:` ... (kept opaque by the compiler)."""
        try_env = env.copy()
        body, body_leaves = self.block(try_env, depth + 1, indent + "    ", 2)
        caught = EXCEPTIONS[self.choice(len(EXCEPTIONS))]
        except_env = env.copy()
        handler, handler_leaves = self.block(except_env, depth + 1, indent + "    ", 2)
        falling = [e for e, leaves in ((try_env, body_leaves), (except_env, handler_leaves))
                   if not leaves]
        merged = self.join(env, falling)
        env.bound, env.maybe = merged.bound, merged.maybe
        return [f"{indent}try:", *body, f"{indent}except {caught}:", *handler], not falling

    def closure(self, env: Env, indent: str) -> tuple[list[str], bool]:
        """`f1 = lambda: ...` reading locals: they become cells the compiler cannot follow."""
        saved = self.loop_limit
        self.loop_limit = MAX_DEGREE  # every variable counts as degree 8: no products of them
        body = self.expr(env, 2, MAX_DEGREE, True)
        self.loop_limit = saved
        name = f"f{len(self.closures) + 1}"
        self.closures.append(name)
        return [f"{indent}{name} = lambda: {body.text}"], False

    # ------------------------------------------------------------- the function

    def write(self, signature: str, env: Env) -> str:
        lines, leaves = self.block(env, 0, "    ", MAX_STATEMENTS - 1)
        if lines == ["    pass"]:
            lines = []
        if not leaves:
            lines.append(f"    {self.return_value(env)}")
            if self.coin(5):  # unreachable code after the final return
                lines.append(f"    print({self.label()})")
        return "\n".join([f"def {signature}:", *lines]) + "\n"


# ---------------------------------------------------------------------------
# strategies
# ---------------------------------------------------------------------------


@st.composite
def _span(draw: Callable[[st.SearchStrategy[Any]], Any], writer: FunctionWriter,
          make: Callable[[], Any]) -> Any:
    """`make()`, drawing through `writer` from this span."""
    outer, writer.draw = writer.draw, draw
    try:
        return make()
    finally:
        writer.draw = outer


@st.composite
def programs(draw: Callable[[st.SearchStrategy[Any]], Any], numpy: bool | None = None,
             ) -> Program:
    """A random module with helpers and `main(x, y, n)`; `numpy` forces NumPy in or out."""
    uses_numpy = draw(st.booleans()) if numpy is None else numpy
    chosen = draw(st.lists(st.sampled_from(range(len(GLOBALS))), max_size=3, unique=True))
    global_names = tuple(GLOBALS[i][0] for i in sorted(chosen))
    prelude_lines = ["import numpy as np", ""] if uses_numpy else []
    prelude_lines += [f"{GLOBALS[i][0]} = {GLOBALS[i][1]}" for i in sorted(chosen)]

    helpers: list[Helper] = []
    for number in range(3):
        helper = draw(_helpers(number, tuple(helpers), global_names, uses_numpy))
        if helper is None:
            break
        helpers.append(helper)

    # main may use names the inliner makes up (h0_a, h0_result) and shadow a global
    shadowed = tuple(g for g in global_names if draw(st.integers(0, 9)) == 9)
    extra = tuple(f"{h.name}_{p}" for h in helpers for p in (*h.params, "result")) + shadowed
    writer = FunctionWriter(
        draw, name="main", params=("x", "y", "n"), count="n", helpers=tuple(helpers),
        globals_=tuple(g for g in global_names if g not in shadowed), numpy=uses_numpy,
        prefix="v", is_main=True, extra_names=extra,
    )
    env = Env({"x": Var(1, False), "y": Var(1, False), "n": Var(0, False)})
    main = writer.write("main(x, y, n)", env)
    return Program("\n".join(prelude_lines), tuple(helpers), main, uses_numpy)


@st.composite
def _helpers(draw: Callable[[st.SearchStrategy[Any]], Any], number: int,
             earlier: tuple[Helper, ...], global_names: tuple[str, ...], uses_numpy: bool,
             ) -> Helper | None:
    """Helper `h<number>`, which may call the `earlier` ones; after the first, sometimes None
    (no more helpers), which is what hypothesis shrinks towards."""
    if number > 0 and draw(st.integers(0, 2)) == 0:
        return None
    name = f"h{number}"
    params = ("a", "b")[: 1 + draw(st.integers(0, 1))]
    count = draw(st.integers(0, 3)) == 3
    defaults: tuple[str, ...] = ()
    if len(params) == 2 and draw(st.integers(0, 3)) == 3:
        defaults = (draw(st.sampled_from(["0.5", "2", "-0.0", "float('nan')"])),)
    writer = FunctionWriter(
        draw, name=name, params=params, count="k" if count else None, helpers=earlier,
        globals_=global_names, numpy=uses_numpy, prefix="t", is_main=False,
        extra_names=("x", "y", "n"),
    )
    parts = list(params)
    if defaults:
        parts[-1] = f"{parts[-1]}={defaults[0]}"
    if count:  # after the required parameters, before the one with a default
        parts.insert(len(params) - len(defaults), "k")
    env = Env({p: Var(1, False) for p in params})
    if count:
        env.bound["k"] = Var(0, False)
    source = writer.write(f"{name}({', '.join(parts)})", env)
    return Helper(name, params, count, defaults, writer.return_degree, writer.return_array,
                  source)


def argument_values() -> st.SearchStrategy[Any]:
    """One argument for `x` or `y`: an interesting number, or an ordinary int or float."""
    return st.one_of(
        st.sampled_from(ARGUMENT_VALUES),
        st.integers(-50, 50),
        st.floats(allow_nan=True, allow_infinity=True, width=64),
    )


def main_arguments() -> st.SearchStrategy[tuple[Any, Any, int]]:
    """`(x, y, n)` for `main`: two numbers and a small loop count."""
    return st.tuples(argument_values(), argument_values(), st.integers(0, 4))
