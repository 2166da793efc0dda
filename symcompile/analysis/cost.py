"""Cost model: what one call of a version is expected to cost, construct by construct, so that
a decision that adds code to the call path (an entry check) is taken only where it pays.

An analysis for `pipeline.optimize`, which compiles a version relying on its arguments' types
(checked on entry) only when the expected saving over the version for any types exceeds the
cost of that check (`weigh_specialization`). The costs are nanoseconds on CPython 3.11-3.13,
measured construct by construct by `python -m benchmarks costs` (benchmarks/bench_costs.py,
which prints them beside the numbers below), on the 2-core VM these benchmarks run on;
docs/cost-model.md has the table and how to read it.

A call's cost is the sum over what it evaluates, the expression DAG read as the tree the code
generator writes. Where the model cannot know, it expects: both branches of an `if` equally
likely (but a check at a call of an inlined helper to hold: its fallback runs only where the
helper was rebound), a loop of unknown length `LOOP_TURNS` turns, arrays of `ARRAY_ELEMENTS` elements (array
code is written for arrays big enough to matter; on tiny ones a ufunc's dispatch dominates).
Types come from `value_types` under the argument types of the call at hand, for both versions,
so `a * b` costs an array operation in each when the arguments are arrays.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import types
from dataclasses import dataclass

import numpy as np

from .. import ir
from ..ir.names import check_fallback, falls_back
from ..ir.rewrite import nested_bodies, statement_expressions, walk_expr, walk_statements
from .value_types import TypeEnv, type_of, types_before

# --- per construct, ns (python -m benchmarks costs: CPython 3.11.7 and 3.13, 2-core VM) ---
READ = 1.0  # a local, a constant or a cell: `x`
WRITE = 2.0  # storing a local: `t = ...` (beyond the read of its value)
NUMBER_OPERATION = 8.0  # an operator on two Python numbers of one type: `x + y`
MIXED_NUMBERS = 5.0  # extra when an int meets a float: `x + 1` on a float x
DIVISION = 3.0  # extra for `/` over `*` on floats (CPython 3.11-3.13 specialize `*` only)
POWER = 8.0  # extra for `**` over `*`: `x ** 2` against `x * x` on ints
COMPARISON = 10.0  # `x < y` on numbers, `a is b`
BRANCH = 2.0  # an `if`, an `and`/`or` operand, a conditional expression's test
C_CALL = 12.0  # calling a builtin or NumPy function (the call alone, not its work)
PYTHON_CALL = 20.0  # calling a Python function
ATTRIBUTE = 10.0  # `o.a`
SUBSCRIPT = 5.0  # `xs[i]`
BUILD = 13.0  # a tuple, list, dict or slice display
LOOP_TURN = 5.0  # one turn of `for i in range(n)`
FREE = 2.0  # `del t`
OPAQUE = 20.0  # code kept as written: the same in every version
# the entry check of a version relying on argument types (see codegen's type_guard)
TYPE_CHECK = 8.0  # `type(x) is not float`, per argument
ARRAY_ATTRIBUTE_CHECK = 15.0  # `a.dtype is not float64`, `a.ndim != 1`
LAYOUT_CHECK = 35.0  # `not a.flags.c_contiguous`
SHAPE_CHECK = 70.0  # `b.shape != a.shape`
# a NumPy array operation on ARRAY_ELEMENTS float64 elements: into a new array, or into one
# the function made (`t += x`, `multiply(a, t, out=t)`)
ARRAY_ELEMENTS = 10_000
NEW_ARRAY = 1_600.0
INTO_ARRAY = 1_200.0

# Python lists of floats converted to float64 arrays for array code and back (vectorize_loops,
# `passes/vectorize_lists.py`): per element read (its exact type checked, `list(map(type,
# row)).count(float)`, and copied), per element stored back (`.tolist()`, a slice store), per
# row of a list of lists, and once per conversion (python -m benchmarks vectorize, list rows)
LIST_ELEMENT_IN = 30.0
LIST_ELEMENT_OUT = 20.0
LIST_ROW = 150.0
LIST_CONVERSION = 5_000.0

# What the model expects where it cannot know.
LOOP_TURNS = 10
# A check cheaper than this share of the call is not weighed (the passes are not run a second
# time for the version for any types): it can cost at most that share.
NEGLIGIBLE_CHECK = 0.01


@dataclass(frozen=True)
class Specialization:
    """What relying on the arguments' types is expected to gain per call, and its check cost;
    `unseen` where the version for any types calls more code the model cannot see (a Python
    function, a callable object) than the specialized one: its saving is then unknown (the
    callee's work, inlined into the specialized version, may be anything) and taken to pay."""

    saving: float  # ns per call, the version for any types minus the specialized one
    check: float  # ns per call, the entry check
    unseen: bool = False

    @property
    def pays(self) -> bool:
        return self.unseen or self.saving > self.check


def check_cost(function: ir.Function) -> float:
    """The cost of the entry check on the argument types `function` relies on."""
    cost = 0.0
    for assumption in function.assumptions:
        if not assumption.of_type:
            continue
        cost += TYPE_CHECK
        kind = assumption.value
        if isinstance(kind, ir.ArrayKind):
            cost += 2 * ARRAY_ATTRIBUTE_CHECK
            cost += LAYOUT_CHECK if kind.ndim > 1 and kind.contiguous else 0.0
            cost += SHAPE_CHECK if kind.shape_owner not in (None, assumption.name) else 0.0
    return cost


def call_cost(function: ir.Function, kinds: dict[str, ir.ArgumentType]) -> float:
    """The expected cost of running `function`'s body once for arguments of types `kinds`
    (a call of code the model cannot see counted as the call alone)."""
    return _estimate(function, kinds).block(function.body)


def weigh_specialization(general: ir.Function, specialized: ir.Function) -> Specialization:
    """The saving of `specialized` (compiled relying on its argument types) over `general`
    (the same function compiled for any types), for arguments of those types."""
    kinds = dict(specialized.argument_types)
    estimates = [_estimate(function, kinds) for function in (general, specialized)]
    general_cost, specialized_cost = (estimate.block(function.body)
                                      for estimate, function in zip(estimates, (general, specialized)))
    unseen = estimates[0].unseen_calls > estimates[1].unseen_calls
    return Specialization(general_cost - specialized_cost, check_cost(specialized), unseen)


def check_is_negligible(specialized: ir.Function) -> bool:
    """Whether the entry check costs so little beside the call that it needs no weighing."""
    cost = call_cost(specialized, dict(specialized.argument_types))
    return check_cost(specialized) <= NEGLIGIBLE_CHECK * cost


def turn_cost(body: tuple[ir.Stmt, ...], types: dict[int, TypeEnv]) -> float:
    """What one turn of a `for` loop whose body is `body` costs (`types`: `types_before`)."""
    return LOOP_TURN + WRITE + _Estimate(types, 0).block(body)


def list_element_cost(mode: str) -> float:
    """Converting one element of a list read (`r`), written (`w`) or both (`rw`)."""
    return LIST_ELEMENT_IN * ("r" in mode) + LIST_ELEMENT_OUT * ("w" in mode)


def _estimate(function: ir.Function, kinds: dict[str, ir.ArgumentType]) -> _Estimate:
    typed = dataclasses.replace(function, argument_types=kinds)
    rechecked = sum(1 for a in function.assumptions if not a.argument and not a.of_type)
    return _Estimate(types_before(typed), rechecked)


class _Estimate:
    def __init__(self, types: dict[int, TypeEnv], rechecked: int) -> None:
        self.types = types
        self.rechecked = rechecked  # the identity tests a recheck (`assumptions_hold()`) makes
        self.unseen_calls = 0  # calls of code the model cannot see, counted where written

    def block(self, body: tuple[ir.Stmt, ...]) -> float:
        return sum((self.statement(stmt) for stmt in body), 0.0)

    def statement(self, stmt: ir.Stmt) -> float:
        env = self.types.get(id(stmt), {})
        own = sum((self.expr(expr, env) for expr in statement_expressions(stmt, targets=False)), 0.0)
        bodies = nested_bodies(stmt)
        match stmt:
            case ir.Assign(targets):
                return own + sum((self.stored(target, env) for target in targets), 0.0)
            case ir.AugAssign(target, op, value):
                return own + self.stored(target, env) + self.operation(
                    ir.Op(op, (target, value)), env, into=True)
            case ir.If() if check_fallback(stmt) is not None:  # a check at a call
                return own + BRANCH + self.block(bodies[0])
            case ir.If():
                return own + BRANCH + (self.block(bodies[0]) + self.block(bodies[1])) / 2
            case ir.For():
                turns = _turns(stmt.iter, env)
                if turns == LOOP_TURNS and self._indexes_an_array(stmt):
                    turns = ARRAY_ELEMENTS
                return own + turns * (LOOP_TURN + WRITE + self.block(bodies[0])) + self.block(bodies[1])
            case ir.While():
                return own + LOOP_TURNS * (own + BRANCH + self.block(bodies[0])) + self.block(bodies[1])
            case ir.Opaque(ast.Delete(targets)):
                return FREE * len(targets)
            case ir.Opaque():
                return OPAQUE
        return own

    def _indexes_an_array(self, loop: ir.For) -> bool:
        """Whether the loop's body reads or writes an array's element by the loop variable
        (`u[i - 1]`, `out[i, j]`): such a loop is taken to run over the array's elements."""
        variables = {name.id for name in walk_expr(loop.target) if isinstance(name, ir.Name)}
        for stmt in walk_statements(loop.body):
            env = self.types.get(id(stmt), {})
            for expr in statement_expressions(stmt):
                for node in walk_expr(expr):
                    if isinstance(node, ir.Subscript) and _is_array(node.value, env) and any(
                            isinstance(name, ir.Name) and name.id in variables
                            for name in walk_expr(node.index)):
                        return True
        return False

    def stored(self, target: ir.Expr, env: TypeEnv) -> float:
        match target:
            case ir.Name():
                return WRITE
            case ir.Attribute(value):
                return self.expr(value, env) + ATTRIBUTE
            case ir.Subscript(value, index):
                return self.expr(value, env) + self.expr(index, env) + SUBSCRIPT
            case ir.Build(_, elts) | ir.Starred(ir.Build(_, elts)):
                return BUILD + sum((self.stored(elt, env) for elt in elts), 0.0)
            case ir.Starred(value):
                return self.stored(value, env)
        return WRITE

    def expr(self, expr: ir.Expr, env: TypeEnv) -> float:
        match expr:
            case ir.Const() | ir.Name():
                return READ
            case ir.Op(_, args):
                return self.operands(args, env) + self.operation(expr, env)
            case ir.Compare(ops, operands):
                return self.operands(operands, env) + self.operation(expr, env) * len(ops)
            case ir.BoolOp(_, values):
                return self.operands(values, env) + BRANCH * len(values)
            case ir.IfExp(test, body, orelse) if falls_back(test, orelse):  # a check at a call
                return self.expr(test, env) + BRANCH + self.expr(body, env)
            case ir.IfExp(test, body, orelse):
                both = self.expr(body, env) + self.expr(orelse, env)
                return self.expr(test, env) + BRANCH + both / 2
            case ir.Call() if ir.is_assumptions_hold(expr):
                return self.rechecked * (COMPARISON + 2 * READ)
            case ir.Call(func, args, keywords):
                arguments = self.operands(args, env) + self.operands(
                    tuple(keyword.value for keyword in keywords), env)
                return self.expr(func, env) + arguments + self.call(expr, env)
            case ir.Attribute(value):
                return self.expr(value, env) + ATTRIBUTE
            case ir.Subscript(value, index):
                return self.expr(value, env) + self.expr(index, env) + SUBSCRIPT
            case ir.Slice(lower, upper, step):
                parts = tuple(part for part in (lower, upper, step) if part is not None)
                return self.operands(parts, env) + BUILD
            case ir.Build(_, elts):
                return self.operands(elts, env) + BUILD
            case ir.DictDisplay(keys, values):
                present = tuple(key for key in keys if key is not None)
                return self.operands(present + values, env) + BUILD
            case ir.Starred(value):
                return self.expr(value, env)
        return OPAQUE

    def operands(self, exprs: tuple[ir.Expr, ...], env: TypeEnv) -> float:
        return sum((self.expr(expr, env) for expr in exprs), 0.0)

    def operation(self, expr: ir.Op | ir.Compare, env: TypeEnv, into: bool = False) -> float:
        """One operator: a NumPy array operation, or one on numbers (or of unknown types)."""
        known = type_of(expr, env)
        if known is not None and known.array is not None:
            return C_CALL + (INTO_ARRAY if into else NEW_ARRAY)
        operands = expr.args if isinstance(expr, ir.Op) else expr.operands
        types = {found.type for operand in operands
                 if (found := type_of(operand, env)) is not None and found.is_number}
        base = COMPARISON if isinstance(expr, ir.Compare) else NUMBER_OPERATION
        op = expr.op if isinstance(expr, ir.Op) else ""
        extra = DIVISION if op == "truediv" else POWER if op == "pow" else 0.0
        return base + extra + (MIXED_NUMBERS if {int, float} <= types else 0.0)

    def call(self, expr: ir.Call, env: TypeEnv) -> float:
        """A call alone: a ufunc into an array (`out=`) or a new one, a C function, or other."""
        if any(keyword.name == "out" for keyword in expr.keywords):
            return C_CALL + INTO_ARRAY
        known = type_of(expr, env)
        if known is not None and known.array is not None:
            return C_CALL + NEW_ARRAY
        func = expr.func.value if isinstance(expr.func, ir.Const) else None
        if isinstance(func, (types.BuiltinFunctionType, np.ufunc)) or (
                isinstance(func, type) and func.__module__ == "builtins"):
            return C_CALL
        self.unseen_calls += 1
        return PYTHON_CALL


def expected_turns(loop: ir.For | ir.While, env: TypeEnv) -> float:
    """How many turns the model expects `loop` to make (a `while`: `LOOP_TURNS`)."""
    return _turns(loop.iter, env) if isinstance(loop, ir.For) else LOOP_TURNS


def _turns(iterable: ir.Expr, env: TypeEnv) -> float:
    """How many turns a `for` over `iterable` is expected to make: a `range` of constants its
    length, a display its items, an array or a `range` up to an array's extent (`len(a)`,
    `a.shape[0]`, `a.size`) `ARRAY_ELEMENTS`, as the model expects of array operations;
    anything else `LOOP_TURNS`."""
    match iterable:
        case ir.Call(func, args, ()) if _is_builtin(func, range) and args:
            bounds = [arg.value for arg in args
                      if isinstance(arg, ir.Const) and isinstance(arg.value, int)]
            if len(bounds) == len(args):
                return len(range(*bounds))
            if any(_is_array_extent(arg, env) for arg in args):
                return ARRAY_ELEMENTS
        case ir.Build(_, elts) if not any(isinstance(elt, ir.Starred) for elt in elts):
            return len(elts)
    return ARRAY_ELEMENTS if _is_array(iterable, env) else LOOP_TURNS


def _is_builtin(func: ir.Expr, builtin: object) -> bool:
    """Whether `func` is the builtin `builtin`, bound or by its name."""
    return isinstance(func, ir.Const) and func.value is builtin or \
        func == ir.Name(getattr(builtin, "__name__", ""))


def _is_array(expr: ir.Expr, env: TypeEnv) -> bool:
    known = type_of(expr, env)
    return known is not None and known.array is not None


def _is_array_extent(expr: ir.Expr, env: TypeEnv) -> bool:
    """Whether `expr` is an array's length or size: `len(a)`, `a.shape[k]`, `a.size`."""
    match expr:
        case ir.Call(func, (value,), ()) if _is_builtin(func, len):
            return _is_array(value, env)
        case ir.Subscript(ir.Attribute(value, "shape"), _) | ir.Attribute(value, "size"):
            return _is_array(value, env)
    return False


def spelled(saving: float) -> str:
    """`~7 ns` for a saving or a cost, rounded for a note."""
    return f"~{max(0, math.floor(saving + 0.5))} ns"
