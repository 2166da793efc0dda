"""Exact recurrences for vectorize_loops: running sums and running maxima/minima of one loop.

A support module of `passes/`, no pass: vectorize_loops asks it about each statement of a
one-loop body before its own rules (`recurrence`), about loops over a 1-D array's elements
(`element_level`, `iterated`) and arrays the function made (`made_arrays`); the code it
builds calls the runtime helpers at the end of this module. NumPy's `ufunc.accumulate` is a sequential loop (documented: "For a
one-dimensional array, accumulate produces results equivalent to" `t = op(t, A[i]); r[i] = t`;
verified by bits, docs/semantics.md), so

- `s = s + f(x[i])` (`s += ...`, `s -= ...`, `s = f(x[i]) + s`), where `s` is a float bound
  before the loop, becomes `s_run = running_sum(s, f(x[a:b]))`: the same additions in the same
  order (`s - t` is `s + (-t)`, exactly), each later read of `s` in the body reading `s_run`;
- `out[i] = out[i - 1] + f(x[i])` over `range(a, b)` (a constant `a >= 1`) is the same, seeded
  with `out[a - 1]`;
- `if f(x[i]) > m: m = f(x[i])` (`>=`, `<`, `<=`, either side; `m = max(m, f(x[i]))`, `min`,
  either order) becomes `m_run = running_extreme(m, f(x[a:b]), "gt")`: `np.maximum.accumulate`
  where it gives the loop's bits (no NaN, and no zeros of both signs: equal values are then the
  same bits, so which of equal values is kept does not matter), else the loop's own comparisons
  over the computed values; where the body does not read `m`, only its last value is computed
  (`final_extreme`: `np.max` of the values, or the seed where none passes the test).

The accumulated values are float32 or float64 (NumPy scalars of the elements' dtype; for
float64 the seed may be a Python float: `0.0 + float64` rounds as float64 addition); the seed's
type is checked on entry where the version does not know it. Integers are left alone: a Python
int accumulator never wraps, an int64 scalar warns on overflow, an accumulate wraps silently.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .. import ir
from ..analysis.subscripts import Affine, AtomKey
from ..analysis.value_types import Known, TypeEnv
from ..ir.names import assigned_names, assignment_counts, fresh_name, reads, stored_targets
from ..ir.rewrite import walk_expr, walk_statements
from .vectorize_nest import Final, Level, Nest, Refused, Temp

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
# `if v OP m: m = v`, as the comparison of the new value `v` with the running one `m`
_MIRRORED = {"gt": "lt", "ge": "le", "lt": "gt", "le": "ge"}


@dataclass
class Context:
    """What the vectorizer knows at a statement of the body, as callbacks into it."""

    function: ir.Function
    nest: Nest
    temps: dict[str, Known]
    env: dict[str, Known]
    bound: frozenset[str]  # the names bound before the loop
    live: frozenset[str]  # the names read after the loop
    taken: set[str]
    element: Callable[[ir.Expr], Known]  # the kind of an element expression (or Refused)
    moving: Callable[[ir.Expr], set[str]]  # the loop variables an expression moves with
    builtin: Callable[[ir.Expr, object], bool]  # whether an expression is that builtin
    write: Callable[[ir.Subscript, ir.Expr, ir.Loc], None]  # an element write step


def recurrence(stmt: ir.Stmt, context: Context) -> str | None:
    """Add the steps of `stmt` if it is a recurrence this module vectorizes; its rule's name
    (`running sum`), or None where it is none (the vectorizer's other rules then apply)."""
    if len(context.nest.levels) != 1 or context.nest.reduced:
        return None
    body = context.nest.body
    later = next((body[k + 1:] for k, each in enumerate(body) if each is stmt), ())
    rule = _recurrence(stmt, later, context)
    if rule is not None and _enclosed(context.function, context.nest.loop):
        raise Refused("a {} in an inner loop: its entry check would cost every outer turn", rule)
    return rule


def _enclosed(function: ir.Function, loop: ir.For) -> bool:
    """Whether `loop` is inside another loop of `function`."""
    return any(isinstance(outer, (ir.For, ir.While)) and outer is not loop
               and any(inner is loop for inner in walk_statements(outer.body))
               for outer in walk_statements(function.body))


def _recurrence(stmt: ir.Stmt, later: tuple[ir.Stmt, ...], context: Context) -> str | None:
    match stmt:
        case ir.Assign((ir.Name(name),), value) if _carried(name, context):
            return _running_sum(name, value, later, context) or _extreme_call(name, value, later, context)
        case ir.AugAssign(ir.Name(name), op, value) if _carried(name, context):
            return _running_sum(name, ir.Op(op, (ir.Name(name), value)), later, context)
        case ir.Assign((ir.Subscript() as target,), value):
            return _array_running_sum(target, value, context, stmt.loc)
        case ir.If(ir.Compare((op,), (left, right)), (ir.Assign((ir.Name(name),), new),), ()) \
                if op in _MIRRORED and _carried(name, context):
            if left == ir.Name(name) and right == new:
                return _extreme(name, new, _MIRRORED[op], later, context)
            if right == ir.Name(name) and left == new:
                return _extreme(name, new, op, later, context)
    return None


def recurrence_candidate(loop: ir.For) -> bool:
    """A loop over `range(...)` or over an array whose body holds a running maximum or minimum
    (`if x[i] > m: m = x[i]`, `m = max(m, x[i])`), or over an array and storing elements: one
    `recurrence` may accept (those over `range` storing elements are candidates anyway)."""
    if not isinstance(loop.iter, (ir.Call, ir.Name)):
        return False
    for stmt in loop.body:
        match stmt:
            case ir.If(ir.Compare((op,), _), (ir.Assign((ir.Name(),), _),), ()) if op in _MIRRORED:
                return True
            case ir.Assign((ir.Name(),), ir.Call(ir.Name("max" | "min"), (_, _), ())):
                return True
            case ir.Assign((ir.Subscript(),), _) if isinstance(loop.iter, ir.Name):
                return True
    return False


def element_level(loop: ir.For, env: dict[str, Known], nest: Nest, taken: set[str]) -> Level | None:
    """`for p in prices` over a 1-D array the version knows: a loop over its indices (a fresh
    variable), `p` then the element at it (`iterated`). An array's iterator yields
    `prices[0]`, `prices[1]`, ... up to its length, which nothing in the loop can change."""
    match loop:
        case ir.For(ir.Name(), ir.Name(array)):
            pass
        case _:
            return None
    known = env.get(array)
    if known is None or known.array is None or known.array.ndim != 1:
        return None
    nest.relied |= known.arguments
    extent = ir.Subscript(ir.Attribute(ir.Name(array), "shape"), ir.Const(0))
    key: AtomKey = ("dim", known.array.shape[0]) if known.array.shape is not None else ("expr", extent)
    stop = Affine(0, ((key, 1),), ((key, extent),))
    return Level(fresh_name(f"{array}_index", taken), Affine(0, ()), stop, 1, loop.iter)


def iterated(context: Context) -> None:
    """For a loop over an array's elements, `p = prices[k]` as the body's first step."""
    loop, level = context.nest.loop, context.nest.levels[0]
    if isinstance(loop.iter, ir.Name) and isinstance(loop.target, ir.Name):
        element = ir.Subscript(loop.iter, ir.Name(level.var))
        _temp(loop.target.id, element, context.element(element), context)


def made_arrays(function: ir.Function, loop: ir.For, env: TypeEnv, nest: Nest) -> TypeEnv:
    """`env`, with the arrays the loop writes that the function made itself by a call value_types
    cannot type (`out = np.zeros(len(y))`: `len` is a name that may be rebound) as 1-D arrays of
    the dtype named, each checked on entry (`type(out) is ndarray and out.dtype is float64 and
    out.ndim == 1`). Only a name bound by that one statement in the whole function."""
    written = {target.value.id for stmt in walk_statements(loop.body)
               for target in stored_targets(stmt)
               if isinstance(target, ir.Subscript) and isinstance(target.value, ir.Name)}
    counts = assignment_counts(function)
    made: dict[str, Known] = {}
    for stmt in walk_statements(function.body):
        match stmt:
            case ir.Assign((ir.Name(name),), ir.Call(ir.Const(maker), (_, *dtype), keywords)) \
                    if maker in (np.zeros, np.empty, np.ones) and name in written and name not in env \
                    and counts[name] == 1 and len(dtype) + len(keywords) <= 1:
                kind = _named_dtype((*dtype, *(kw.value for kw in keywords if kw.name == "dtype")), keywords)
                if kind is not None:
                    made[name] = Known(ir.ArrayKind(kind, 1, None, contiguous=False))
                    nest.entry_checks.append(ir.BoolOp("and", (
                        ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)), ir.Const(np.ndarray))),
                        ir.Compare(("is",), (ir.Attribute(ir.Name(name), "dtype"), ir.Const(kind))),
                        ir.Compare(("eq",), (ir.Attribute(ir.Name(name), "ndim"), ir.Const(1))))))
    return {**env, **made} if made else env


def _named_dtype(spelled: tuple[ir.Expr, ...], keywords: tuple[ir.Keyword, ...]) -> np.dtype | None:
    """The float dtype `np.zeros(shape, dtype)` names (float64 if none), or None."""
    values = [x.value for x in spelled if isinstance(x, ir.Const)]
    if any(kw.name != "dtype" for kw in keywords) or len(values) != len(spelled):
        return None
    try:
        kind: np.dtype = np.dtype(values[0] if values else np.float64)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None
    return kind if kind in _FLOATS else None


def _carried(name: str, context: Context) -> bool:
    """A local bound before the loop, assigned by this one statement of it only, and not read
    (nor assigned) earlier in the body."""
    if name in context.temps or name not in context.bound or name in context.nest.temp_names:
        return False
    loop = context.nest.loop
    return sum(name in assigned_names(stmt) for stmt in walk_statements(loop.body)) == 1


def _running_sum(name: str, value: ir.Expr, later: tuple[ir.Stmt, ...], context: Context) -> str | None:
    """`s = s + t`, where the body reads `s` after: its running values. (A sum only read after
    the loop, `s += a[i] * b[i]`, is a reduction: it stays a loop, see docs/rules.md.)"""
    found = _term(name, value)
    if found is None or not any(reads(stmt, name) for stmt in later):
        return None
    term, order = found
    kind = _moving_floats(term, context)
    _seed(name, kind, True, context)
    seed = _alias(name, "before", context)
    terms = fresh_name(f"{name}_terms", context.taken)
    _temp(terms, term, kind, context)
    _temp(name, ir.Call(ir.Const(running_sum), (ir.Name(seed), ir.Name(terms), ir.Const(order))), kind, context)
    if name in context.live:  # at least one addition was made: a NumPy scalar, as in the loop
        _final(name, ir.Call(ir.Const(last_sum), (ir.Name(seed), ir.Name(terms), ir.Name(name),
                                                  ir.Const(order))), kind, context)
    return "running sum"


def _term(name: str, value: ir.Expr) -> tuple[ir.Expr, str] | None:
    """`t` of `s + t` (`add`), `t + s` (`radd`) and `s - t` (`sub`), where `t` does not read `s`."""
    match value:
        case ir.Op("add", (ir.Name(left), term)) if left == name:
            order = "add"
        case ir.Op("add", (term, ir.Name(right))) if right == name:
            order = "radd"
        case ir.Op("sub", (ir.Name(left), term)) if left == name:
            order = "sub"
        case _:
            return None
    if any(isinstance(part, ir.Name) and part.id == name for part in walk_expr(term)):
        return None
    return term, order


def _final(name: str, value: ir.Expr, kind: Known, context: Context) -> None:
    """`name`'s value after the loop, set once the array code is committed."""
    last = fresh_name(f"{name}_last", context.taken)
    _temp(last, value, kind, context)
    context.nest.steps.append(Final(name, last))


def _moving_floats(term: ir.Expr, context: Context) -> Known:
    """The kind of the accumulated values: float32 or float64 elements, one per iteration."""
    kind = context.element(term)
    array = kind.array
    if array is None:
        raise Refused("accumulates {}, a plain number: nothing moves with the loop", term)
    if array.dtype.kind in "iub":
        raise Refused("accumulates integers {}: an accumulate wraps, int64 scalars warn", term)
    if array.dtype not in _FLOATS:
        raise Refused("accumulates {} of {}: only float32 and float64", term, str(array.dtype))
    if context.moving(term) != {context.nest.levels[0].var}:
        raise Refused("accumulates {}, which does not move with the loop", term)
    context.nest.may_raise_fp = True
    return kind


def _seed(name: str, kind: Known, plain: bool, context: Context) -> None:
    """The accumulator's value before the loop must be a NumPy scalar of the elements' dtype,
    or (with `plain`) a Python float, which meets the elements as one (NEP 50: `0.1 + float32`
    adds `float32(0.1)`): known, or checked on entry."""
    assert kind.array is not None
    dtype = kind.array.dtype
    known = context.env.get(name)
    allowed: tuple[type, ...] = (float, dtype.type) if plain else (dtype.type,)
    if known is not None and known.array is None and known.type in allowed:
        context.nest.relied |= known.arguments
        return
    if known is not None:
        raise Refused("{} starts as a {}, not a {} scalar{}", name, getattr(known.type, "__name__", "?"),
                      dtype.name, " or a float" if plain else " (a float computed with rounds apart)")
    checks = tuple(ir.Compare(("is",), (ir.Call(ir.Const(type), (ir.Name(name),)), ir.Const(each)))
                   for each in allowed)
    context.nest.entry_checks.append(checks[0] if len(checks) == 1 else ir.BoolOp("or", checks))


def _alias(name: str, purpose: str, context: Context) -> str:
    """A fresh local holding `name`'s value before the loop (the array code's seed)."""
    alias = fresh_name(f"{name}_{purpose}", context.taken)
    context.temps[alias] = Known(float)
    context.nest.steps.append(Temp(alias, ir.Name(name), Known(float)))
    return alias


def _temp(name: str, value: ir.Expr, kind: Known, context: Context) -> None:
    context.temps[name] = kind
    context.nest.steps.append(Temp(name, value, kind))


def _array_running_sum(target: ir.Subscript, value: ir.Expr, context: Context, loc: ir.Loc) -> str | None:
    """`out[i] = out[i - 1] + t` over `range(a, b)`, `a` a constant >= 1: a running sum
    seeded with `out[a - 1]` (an element the loop reads before writing any)."""
    level = context.nest.levels[0]
    if level.step != 1 or not level.start.is_const or level.start.const < 1:
        return None
    match target:
        case ir.Subscript(ir.Name(array), ir.Name(index)) if index == level.var:
            pass
        case _:
            return None
    term = None
    for before, other in ((0, 1), (1, 0)):
        if isinstance(value, ir.Op) and value.op == "add" and _previous(value.args[before], array, index):
            term = value.args[other]
    if term is None or any(isinstance(part, ir.Name) and part.id == array for part in walk_expr(term)):
        return None
    kind = _moving_floats(term, context)
    known = context.env.get(array)
    if known is None or known.array is None or known.array.ndim != 1 or known.array.dtype != kind.array.dtype:  # type: ignore[union-attr]
        raise Refused("{} is not a 1-D array of the accumulated type", ir.Name(array))
    seed = fresh_name(f"{array}_first", context.taken)
    first = ir.Subscript(ir.Name(array), ir.Const(level.start.const - 1))
    _temp(seed, ir.Call(ir.Const(_element_of), (ir.Name(array), first.index)), kind, context)
    run = fresh_name(f"{array}_run", context.taken)
    _temp(run, ir.Call(ir.Const(running_sum), (ir.Name(seed), term, ir.Const("add"))), kind, context)
    context.write(target, ir.Name(run), loc)
    return "running sum"


def _previous(expr: ir.Expr, array: str, index: str) -> bool:
    """Whether `expr` is `array[index - 1]`."""
    match expr:
        case ir.Subscript(ir.Name(name), ir.Op("sub", (ir.Name(var), ir.Const(1)))):
            return name == array and var == index
    return False


def _extreme(name: str, new: ir.Expr, op: str, later: tuple[ir.Stmt, ...], context: Context) -> str:
    """`if new OP m: m = new` (OP compares the new value with the running one). A Python float
    `m` stays one until replaced: it may start so only where the body merely stores it
    (`out[i] = m`: cast as the array's elements are), as arithmetic would round it apart."""
    if any(isinstance(part, ir.Name) and part.id == name for part in walk_expr(new)):
        raise Refused("{} compares {} with a value computed from it", name, name)
    kind = _moving_floats(new, context)
    _seed(name, kind, _only_stored(name, later), context)
    seed = _alias(name, "before", context)
    values = fresh_name(f"{name}_values", context.taken)
    _temp(values, new, kind, context)
    if not any(reads(stmt, name) for stmt in later):  # only its last value: a maximum
        if name in context.live:
            _final(name, ir.Call(ir.Const(final_extreme), (ir.Name(seed), ir.Name(values), ir.Const(op))),
                   kind, context)
        return "maximum" if op in ("gt", "ge", "nlt") else "minimum"
    _temp(name, ir.Call(ir.Const(running_extreme), (ir.Name(seed), ir.Name(values), ir.Const(op))), kind, context)
    if name in context.live:
        _final(name, ir.Call(ir.Const(last_extreme), (ir.Name(seed), ir.Name(values), ir.Name(name),
                                                      ir.Const(op))), kind, context)
    return "running maximum" if op in ("gt", "ge", "nlt") else "running minimum"


def _only_stored(name: str, later: tuple[ir.Stmt, ...]) -> bool:
    """Whether every read of `name` in `later` is the whole value of an element store."""
    return not any(reads(stmt, name) and not (
        isinstance(stmt, ir.Assign) and stmt.value == ir.Name(name) and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ir.Subscript) and not reads(ir.ExprStmt(stmt.targets[0]), name))
        for stmt in walk_statements(later))


def _extreme_call(name: str, value: ir.Expr, later: tuple[ir.Stmt, ...], context: Context) -> str | None:
    """`m = max(m, new)` is `if new > m: m = new` (max keeps the first of equal arguments);
    `m = max(new, m)` keeps `m` only where `m > new`: `if not m > new: m = new`."""
    match value:
        case ir.Call(func, (first, second), ()):
            pass
        case _:
            return None
    for which, op_first, op_second in ((builtins.max, "gt", "nlt"), (builtins.min, "lt", "ngt")):
        if context.builtin(func, which):
            if first == ir.Name(name):
                return _extreme(name, second, op_first, later, context)
            if second == ir.Name(name):
                return _extreme(name, first, op_second, later, context)
    return None


# the code's runtime helpers ------------------------------------------------------------


def _element_of(array: np.ndarray, index: int) -> object:
    return array[index]


def running_sum(seed: object, terms: np.ndarray, order: str) -> np.ndarray:
    """`[seed + t0, (seed + t0) + t1, ...]`: the loop's additions in its order, as
    `np.add.accumulate` makes them (the seed, a float or a scalar of the terms' dtype, is
    converted to that dtype as the first addition converts it; `s - t` is `s + (-t)`, exactly)."""
    values = np.empty(len(terms) + 1, dtype=terms.dtype)
    values[0] = seed
    if order == "sub":
        np.negative(terms, out=values[1:])
    else:
        values[1:] = terms
    return np.add.accumulate(values, out=values)[1:]


def last_sum(seed: object, terms: np.ndarray, running: np.ndarray, order: str) -> object:
    """The sum after the loop: the last running value, or where it is a NaN, the loop's own
    additions (which of two NaNs an addition returns, so its sign, depends on the order of
    the operands, and an accumulate may swap them)."""
    if not np.isnan(running[-1]):
        return running[-1]
    s = seed
    for t in terms:
        s = s + t if order == "add" else t + s if order == "radd" else s - t
    return s


_REPLACES: dict[str, Callable[[Any, Any], Any]] = {
    "gt": lambda new, m: new > m, "ge": lambda new, m: new >= m,
    "lt": lambda new, m: new < m, "le": lambda new, m: new <= m,
    "nlt": lambda new, m: np.logical_not(m > new), "ngt": lambda new, m: np.logical_not(m < new),
}


def running_extreme(seed: object, values: np.ndarray, op: str) -> np.ndarray:
    """The running value of `m` after each turn of `if replaces(v, m): m = v` (`op` names the
    test: `gt` is `v > m`, `nlt` is `not m > v`, as `max(v, m)` decides). `np.maximum.accumulate`
    where it keeps those bits: no NaN (a NaN would reach the last running value) and no running
    value a zero (it rises from above zero, say), or zeros of one sign only; else the loop."""
    every = np.empty(len(values) + 1, dtype=values.dtype)
    every[0] = seed
    every[1:] = values
    rising = op in ("gt", "ge", "nlt")
    running = (np.maximum if rising else np.minimum).accumulate(every, out=every)
    first, last = running[0], running[-1]
    if not np.isnan(last) and ((first > 0 or last < 0) if rising else (first < 0 or last > 0)
                               or _zeros_of_one_sign(seed, values)):
        return running[1:]
    return _replayed(seed, values, op)


def _zeros_of_one_sign(seed: object, values: np.ndarray) -> bool:
    """Whether the zeros among the seed and the values all have one sign: equal values then
    have equal bits, so which of them a test keeps does not matter."""
    signs = np.signbit(values[values == 0])
    if seed == 0:
        signs = np.append(signs, np.signbit(seed))
    return bool(signs.all() or not signs.any())


def _replayed(seed: object, values: np.ndarray, op: str) -> np.ndarray:
    """The loop's own comparisons over the computed values."""
    replaces = _REPLACES[op]
    result = np.empty(len(values), dtype=values.dtype)
    m = seed
    for k, new in enumerate(values):
        if replaces(new, m):
            m = new
        result[k] = m
    return result


def final_extreme(seed: object, values: np.ndarray, op: str) -> object:
    """`m` after the loop, where the body does not read it: the seed itself if no value passes
    the test against it, else the largest (smallest) value, `np.max` of them where that has
    the loop's bits (no NaN, and not a zero, whose sign would depend on which is kept)."""
    rising = op in ("gt", "ge", "nlt")
    top = values.max() if rising else values.min()
    if np.isnan(top) or seed != seed or top == 0:
        replayed = _replayed(seed, values, op)
        return last_extreme(seed, values, replayed, op)
    return top if _REPLACES[op](top, seed) else seed  # (no NaN: some value passes iff the top does)


def last_extreme(seed: object, values: np.ndarray, running: np.ndarray, op: str) -> object:
    """`m` after the loop: the last running value if any turn replaced it, else the seed
    itself (a Python float stays one). The first replacement is at the first value that
    passes the test against the seed (`m` is the seed until then)."""
    return running[-1] if np.any(_REPLACES[op](values, seed)) else seed
