"""fold_constants: evaluate pure operations whose operands are all constants.

Folding runs the real Python (or NumPy) operation, so the value is exactly what the program
would compute. An evaluation that raises, warns, would build a value larger than CPython's own
folder allows, or may cost more than a few milliseconds (priced before it runs, by
symcompile.analysis.fold_budget) is left in the code to happen at run time. It also reads global constants
(`SCALE = 2.0`, `DEBUG = False`) and constants of NumPy, math and cmath (`math.pi`); a
global it reads becomes an assumption the generated code checks on every call.

Example::

    import math

    def f(x):
        return abs(-2) * math.pi + x * (2 + 3) + (1 / 0)
    # --- after fold_constants ---
    def f(x):
        return 6.283185307179586 + x * 5 + 1 / 0
"""

from __future__ import annotations

import operator
import types
import warnings
from typing import Callable

import numpy as np

from .. import ir
from ..analysis import attributes, fold_budget, objects
from ..analysis.attributes import static_attribute
from ..analysis.clean_statements import rewrite_clean_statements
from ..analysis.constants import PURE_BUILTINS, PURE_MODULES, is_foldable_value
from ..analysis.effects import Effects
from ..analysis.trusted import TRUSTED_MODULES
from ..ir.names import written_names
from ..ir.ops import OPS
from ..ir.rewrite import map_statement_expressions, walk_statements
from . import notes


def evaluate(function: Callable[..., object], args: tuple[object, ...],
             kwargs: dict[str, object] | None = None,
             priced_as: Callable[..., object] | None = None) -> tuple[bool, object]:
    """(True, result) if `function(*args)` runs quietly and gives a foldable value, else
    (False, why): an exception, a warning or a NumPy floating-point error leaves it to run time,
    and so does a cost over the budget (the price of `priced_as` where given)."""
    refused = fold_budget.refusal(priced_as or function, args, kwargs)
    if refused is not None:
        return False, refused
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="raise"):
        warnings.simplefilter("always")
        try:
            result = function(*args, **(kwargs or {}))
        except FloatingPointError as error:
            return False, f"would warn: {error}"
        except Exception as error:
            return False, f"would raise {type(error).__name__}"
    if caught:
        return False, f"would warn {caught[0].category.__name__}"
    if not is_foldable_value(result):
        return False, "its value is no constant of bounded size"
    return True, result


def _pure_callee(func: ir.Expr, function: ir.Function, locals_: set[str],
                 ) -> tuple[Callable[..., object], ir.Assumption | None] | None:
    """The pure callable a call's function expression names, and the assumption that takes."""
    namespace = function.namespace
    if namespace is None:
        return None
    match func:
        case ir.Const(value) if callable(value) and static_attribute(value, "__module__") in \
                {module.__name__ for module in PURE_MODULES}:
            return value, None
        case ir.Name(name) if name not in locals_:
            found, value = namespace.lookup(name)
            builtin = next((pure for pure in PURE_BUILTINS if found and value is pure), None)
            if builtin is not None:
                return builtin, ir.Assumption(name, builtin, f"{name}() folded as the builtin")
        case ir.Attribute(ir.Name(module_name), attr) if module_name not in locals_:
            found, module = namespace.lookup(module_name)
            if found and any(module is pure for pure in PURE_MODULES):
                value = vars(module).get(attr)
                if callable(value):
                    return value, None
    return None


def _const_index(index: ir.Expr) -> int | slice | None:
    """The value of a constant index or slice (`1`, `1:`, `::-1`), else None."""
    if isinstance(index, ir.Const) and isinstance(index.value, int):
        return index.value
    if not isinstance(index, ir.Slice):
        return None
    bounds: list[int | None] = []
    for part in (index.lower, index.upper, index.step):
        match part:
            case None:
                bounds.append(None)
            case ir.Const(int() as value):
                bounds.append(value)
            case _:
                return None
    return slice(*bounds)


class _Folder:
    """Folds the expressions of one statement. `assumed` collects the globals read (None where
    no global may be read: unseen code may have rebound it). A global is read where that
    pays for the check on entry: where it makes an operation constant, decides a branch, or
    runs on every turn of a loop, saving a lookup per turn, or in a version for arrays (both
    `in_loop`)."""

    def __init__(self, function: ir.Function, written: set[str],
                 assumed: list[ir.Assumption] | None, in_loop: bool, loc: ir.Loc) -> None:
        self.function = function
        self.written = written
        self.assumed = assumed
        self.in_loop = in_loop
        self.loc = loc  # the statement's, for notes

    def _global_value(self, expr: ir.Expr) -> tuple[str, object] | None:
        """The global name `expr` is and the constant it holds, if it may be read here."""
        namespace = self.function.namespace
        if namespace is None or not isinstance(expr, ir.Name) or expr.id in self.written:
            return None
        if self.assumed is None and not namespace.unchanging(expr.id):
            return None  # (past unseen code only a global nothing can rebind is read)
        found, value = namespace.lookup(expr.id)
        if found and is_foldable_value(value) and not isinstance(value, np.generic):
            return expr.id, value
        return None

    def values(self, exprs: tuple[ir.Expr, ...]) -> tuple[tuple[object, ...], list[ir.Assumption]] | None:
        """The constant values of `exprs` (constants, or globals holding constants) and the
        assumptions reading those globals takes; None if some value is not constant."""
        values: list[object] = []
        assumptions: list[ir.Assumption] = []
        for expr in exprs:
            if isinstance(expr, ir.Const) and is_foldable_value(expr.value):
                values.append(expr.value)
                continue
            read = self._global_value(expr)
            if read is None:
                if self.assumed is None:
                    self._say_unseen_code(exprs)
                return None
            name, value = read
            values.append(value)
            assumptions.append(ir.Assumption(name, value, f"global {name} folded"))
        return tuple(values), assumptions

    def _say_unseen_code(self, exprs: tuple[ir.Expr, ...]) -> None:
        """Note the globals that would make `exprs` constant were it not for unseen code that
        may have rebound them since entry."""
        clean = _Folder(self.function, self.written, [], self.in_loop, self.loc).values(exprs)
        if clean is not None:
            names = ", ".join(assumption.name for assumption in clean[1])
            notes.missed("fold", "not folded {}: calls code the compiler cannot see before it",
                         names, loc=self.loc)

    def folded(self, result: ir.Expr, assumptions: list[ir.Assumption]) -> ir.Expr:
        """`result`, recording the assumptions it took."""
        if self.assumed is not None:
            self.assumed += assumptions
        return result

    def _evaluated(self, expr: ir.Expr, function: Callable[..., object],
                   exprs: tuple[ir.Expr, ...], kwargs: dict[str, object] | None = None,
                   extra: list[ir.Assumption] | None = None,
                   priced_as: Callable[..., object] | None = None) -> ir.Expr:
        """`expr` replaced by `function` of the constant values of `exprs`, if that folds."""
        found = self.values(exprs)
        if found is None:
            return expr
        ok, result = evaluate(function, found[0], kwargs, priced_as)
        if not ok:
            notes.missed("fold", "not folded {}: {}", expr, str(result), loc=self.loc)
            return expr
        return self.folded(ir.Const(result), found[1] + (extra or []))

    def fold(self, expr: ir.Expr) -> ir.Expr:
        """One folding step at `expr` (its children are already folded)."""
        match expr:
            case ir.Op(op, args):
                return self._evaluated(expr, OPS[op].evaluate, args)
            case ir.Compare((("is" | "isnot") as op,), (ir.Const(left), ir.Const(right))) \
                    if attributes.watchable(left) and attributes.watchable(right):
                # identity runs no code, whatever the objects (numbers are left alone: equal
                # ones may or may not be one object at run time)
                return ir.Const((left is right) == (op == "is"))
            case ir.Compare(ops, operands):
                # every comparison costs time linear in its operands' sizes, and so does a chain
                folded = self._evaluated(expr, _comparison_chain(ops), operands,
                                         priced_as=operator.eq)
                if folded is expr and len(ops) > 1:
                    return self._leading_comparison(ops, operands) or expr
                return folded
            case ir.BoolOp(op, values):
                return self._boolean(op, values) or expr
            case ir.Build("tuple", elts):
                found = self.values(elts)
                if found is not None and is_foldable_value(found[0]):
                    return self.folded(ir.Const(found[0]), found[1])
            case ir.Subscript(sequence, index) if (key := _const_index(index)) is not None:
                found = self.values((sequence,))
                if found is not None and isinstance(found[0][0], (tuple, str, bytes)):
                    return self._evaluated(expr, lambda items: items[key], (sequence,),
                                           priced_as=operator.getitem)
            case ir.IfExp(test, body, orelse):
                found = self.values((test,))
                if found is not None:
                    return self.folded(body if found[0][0] else orelse, found[1])
            case ir.Call(func, args, keywords) if not any(isinstance(a, ir.Starred) for a in args) \
                    and all(kw.name is not None for kw in keywords):
                return self._call(expr, func, args, keywords)
            case ir.Name() if self.in_loop:
                found = self.values((expr,))
                if found is not None:
                    return self.folded(ir.Const(found[0][0]), found[1])
            case ir.Attribute(ir.Const(owner), attr) if self.function.resolve_objects \
                    and self.assumed is not None:
                known, value = attributes.instance_attribute(owner, attr)
                if known:
                    return self.folded(ir.Const(value), [objects.attribute_fact(owner, attr, value)])
            case ir.Attribute(ir.Name(module_name), attr) if module_name not in self.written \
                    and self.function.namespace is not None:
                found_module, module = self.function.namespace.lookup(module_name)
                # constants of library modules are fixed; a module of the program's own (a
                # `config.SCALE`) may be rebound at run time, so it is read at run time
                if found_module and isinstance(module, types.ModuleType) and \
                        module.__name__.split(".")[0] in TRUSTED_MODULES:
                    value = vars(module).get(attr)
                    if is_foldable_value(value) and not isinstance(value, np.generic):
                        return ir.Const(value)
        return expr

    def _call(self, expr: ir.Expr, func: ir.Expr, args: tuple[ir.Expr, ...],
              keywords: tuple[ir.Keyword, ...]) -> ir.Expr:
        callee = _pure_callee(func, self.function, self.written)
        if callee is None or (callee[1] is not None and self.assumed is None):
            return expr
        value, assumption = callee
        found = self.values(tuple(kw.value for kw in keywords))
        if found is None:
            return expr
        kwargs = {kw.name: v for kw, v in zip(keywords, found[0]) if kw.name is not None}
        extra = found[1] + ([assumption] if assumption is not None else [])
        return self._evaluated(expr, value, args, kwargs, extra)

    def _leading_comparison(self, ops: tuple[str, ...], operands: tuple[ir.Expr, ...]) -> ir.Expr | None:
        """`1 < 2 < x` → `2 < x`; `3 < 2 < x` → `False` (x is never evaluated)."""
        found = self.values(operands[:2])
        if found is None:
            return None
        ok, result = evaluate(OPS[ops[0]].evaluate, found[0])
        if not ok:
            notes.missed("fold", "not folded {}: {}", ir.Compare(ops[:1], operands[:2]), str(result),
                         loc=self.loc)
            return None
        return self.folded(ir.Compare(ops[1:], operands[1:]) if result else ir.Const(result), found[1])

    def _boolean(self, op: str, values: tuple[ir.Expr, ...]) -> ir.Expr | None:
        """`True and x` → `x`, `0 or x` → `x`, `0 and x` → `0`: leading constants decide."""
        keep_going = op == "and"  # a truthy operand of `and` (falsy of `or`) passes control on
        assumptions: list[ir.Assumption] = []
        index = 0
        while index < len(values) - 1 and (found := self.values((values[index],))) is not None:
            assumptions += found[1]
            if bool(found[0][0]) != keep_going:
                return self.folded(ir.Const(found[0][0]), assumptions)
            index += 1
        if index == 0:
            return None
        rest = values[index:]
        return self.folded(rest[0] if len(rest) == 1 else ir.BoolOp(op, rest), assumptions)


def _comparison_chain(ops: tuple[str, ...]) -> Callable[..., object]:
    """A function computing the chain `a < b <= c` the way Python does (stopping early)."""
    def chain(*items: object) -> object:
        result: object = True
        for op, left, right in zip(ops, items, items[1:]):
            result = OPS[op].evaluate(left, right)
            if not result:
                return result
        return result
    return chain


def fold_constants(function: ir.Function) -> ir.Function:
    """Evaluate operations on constants, and read global and module constants."""
    written = written_names(function)
    assumed: list[ir.Assumption] = []
    effects = Effects(function)
    in_loops = {id(inner) for stmt in walk_statements(function.body)
                if isinstance(stmt, (ir.For, ir.While))
                for inner in walk_statements(stmt.body + stmt.orelse)}
    # in a version for arrays, a global number's type lets the array operations around it be
    # computed in place (eliminate_temporaries): reading it pays everywhere
    for_arrays = any(isinstance(kind, ir.ArrayKind) for kind in function.argument_types.values())

    def fold_statement(stmt: ir.Stmt, dirty: bool) -> ir.Stmt:
        # a global is only read where no unseen code can have rebound it since entry (nor
        # earlier in its statement: `o + 1 + SCALE` may run `o.__add__` first)
        late = set() if dirty else effects.reads(stmt)[0]
        # (the union only where it adds names: copying every written name per statement made
        # the pass quadratic in the function's length)
        folder = _Folder(function, written | late if late else written,
                         None if dirty else assumed, for_arrays or id(stmt) in in_loops, stmt.loc)
        if isinstance(stmt, (ir.If, ir.While)) and isinstance(stmt.test, ir.Name):
            found = folder.values((stmt.test,))  # a global flag: the branch not taken goes
            if found is not None:
                test = folder.folded(ir.Const(found[0][0]), found[1])
                notes.changed("fold", "fold {} → {}", stmt.test.id, test, loc=stmt.loc)
                stmt = ir.If(test, stmt.body, stmt.orelse, stmt.loc) if isinstance(stmt, ir.If) \
                    else ir.While(test, stmt.body, stmt.orelse, stmt.loc)

        def fold(expr: ir.Expr) -> ir.Expr:
            folded = folder.fold(expr)
            if folded is not expr:
                if _reads_as_its_constant(expr):
                    notes.changed("fold", "fold {} into one constant", expr, loc=stmt.loc)
                else:
                    notes.changed("fold", "fold {} → {}", expr, folded, loc=stmt.loc)
            return folded

        return map_statement_expressions(stmt, fold)

    return rewrite_clean_statements(function, fold_statement, assumed, effects)


def _reads_as_its_constant(expr: ir.Expr) -> bool:
    """Whether `expr` is an operation in the IR that Python source spells as the constant it
    folds to: `-1`, `-2.5`, `(1, 'a', -3)`."""
    match expr:
        case ir.Op("neg", (ir.Const(int() | float() as value),)):
            return type(value) in (int, float) and value == value and abs(value) != float("inf")
        case ir.Build("tuple", items):
            return all(_reads_as_its_constant(item) or
                       isinstance(item, ir.Const) and type(item.value) in (int, float, str)
                       for item in items)
    return False
