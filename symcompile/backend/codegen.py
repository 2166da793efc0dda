"""Code generation: IR → Python AST → source text.

Last compiling stage of the pipeline, before the loader. `function_to_ast` rebuilds a Python
`def` from the IR (opaque nodes are copied back verbatim); `render` turns any Python AST into
source text through astor, or `ast.unparse` where astor cannot be imported or does not reproduce
the tree faithfully. Every rendering is checked: parsing the text must give back the same tree,
so what the user reads is exactly what runs. Output is deterministic and keeps the user's names.
"""

from __future__ import annotations

import ast
import functools
import io
import keyword
import math
import numbers
import re
import tokenize
import warnings
import dataclasses
from collections import deque
from dataclasses import dataclass
from types import EllipsisType, ModuleType
from typing import Callable, Iterator, TypeVar

import numpy as np

from .. import ir
from ..analysis.attributes import static_attribute
from ..analysis.clean_statements import kept_rechecks
from ..ir.names import bound_names, read_counts
from ..ir.ops import OPS
from ..ir.syntax_trees import copy_tree
from ..ir.verify import IRError
from .trees import located, same_tree, statement_blocks

with warnings.catch_warnings():
    # astor 0.8.1 uses AST classes deprecated since Python 3.12; that is our business, not the user's
    warnings.simplefilter("ignore")
    try:
        import astor as _astor
    except Exception:  # astor missing or broken on this Python: ast.unparse serves
        _astor = None

astor: ModuleType | None = _astor

_Op = TypeVar("_Op", ast.unaryop, ast.operator, ast.cmpop)

# the types of the constants Python spells as literals (some only with a minus sign)
_LITERAL_TYPES = (type(None), bool, int, float, complex, str, bytes, EllipsisType)


# ------------------------------------------------------------------ IR → AST


def constant_to_ast(value: object) -> ast.expr | None:
    """A literal that evaluates to exactly `value` (same type and bits), or None if none does."""
    if type(value) is tuple:
        items = [item for item in map(constant_to_ast, value) if item is not None]
        return ast.Tuple(items, ast.Load()) if len(items) == len(value) else None
    if (type(value) is int or type(value) is float) \
            and (value < 0 or (value == 0 and math.copysign(1, value) < 0)):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    if type(value) is float and math.isnan(value):
        return None
    if type(value) is complex:
        return _imaginary_literal(value)
    if isinstance(value, _LITERAL_TYPES) and type(value) in _LITERAL_TYPES:
        return ast.Constant(value)
    return None


def _is_imaginary_literal(value: complex) -> bool:
    """Whether a literal `2.5j` gives `value`: a real part of +0.0, an imaginary part with its
    sign bit clear (a literal never has one) that is no NaN (`nanj` is no literal)."""
    real, imaginary = value.real, value.imag
    return real == 0 and math.copysign(1, real) > 0 \
        and math.copysign(1, imaginary) > 0 and not math.isnan(imaginary)


def _imaginary_literal(value: complex) -> ast.expr | None:
    """`2.5j`, or `-2.5j` (the negation of one: both parts' signs flipped, `-0j` is
    complex(-0.0, -0.0)); None for any other complex number (`complex(0.0, -0.0)`, `1+2j`),
    which is bound by name."""
    if _is_imaginary_literal(value):
        return ast.Constant(value)
    if _is_imaginary_literal(-value):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return None


def _binding_base(value: object) -> str:
    """A readable variable name for an object bound into the generated function's scope."""
    if isinstance(value, np.generic):  # `float32_0_5` for np.float32(0.5)
        text = str(value).replace(".", "_").replace("-", "minus_").replace("+", "")
        return f"{type(value).__name__}_{text}" if text.replace("_", "").isalnum() else "value"
    if type(value) is float or type(value) is complex:  # `nan`, `complex_0_0_minus_0_0`
        text = _float_text(value) if type(value) is float else \
            f"complex_{_float_text(value.real)}_{_float_text(value.imag)}"
        return text if text.isidentifier() else "value"
    name = static_attribute(value, "__name__")
    if not isinstance(name, str) or not name.replace(".", "_").isidentifier():
        name = type(value).__name__.lower()
    name = name.replace(".", "_").strip("_")  # `__call__` would be mangled in a class's code
    if keyword.iskeyword(name):  # `_pass` → `pass_` (a soft keyword such as `type` is a name)
        name += "_"
    return name if name.isidentifier() else "value"


def _float_text(number: float) -> str:
    """A float as part of a name: `minus_0_0`, `nan`, `1e_300`."""
    sign = "minus_" if math.copysign(1, number) < 0 else ""
    return sign + str(abs(number)).replace(".", "_").replace("+", "_").replace("-", "_")


def identifiers(tree: ast.AST) -> set[str]:
    """Every identifier a Python tree mentions (so new names can avoid them); one pass over the
    fields of each node (`ast.walk` and `ast.iter_fields` over them again cost twice as much)."""
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        # `x.W` and `f(out=t)` bind no variable: a new `W` or `out` is free
        named = not isinstance(node, (ast.Constant, ast.keyword))
        attribute = isinstance(node, ast.Attribute)
        for field in node._fields:
            value = getattr(node, field, None)
            for item in value if isinstance(value, list) else (value,):
                if isinstance(item, ast.AST):
                    stack.append(item)
                elif named and isinstance(item, str) and item.isidentifier() \
                        and not (attribute and field == "attr"):
                    found.add(item)
    return found


class _Generator:
    """Builds the Python AST of IR nodes, binding objects that have no literal spelling."""

    def __init__(self, attribute_names: dict[int, str] | None = None,
                 rechecked: list[ir.Assumption] | None = None,
                 kept: dict[int, tuple[ir.Expr | None, frozenset[str]]] | None = None) -> None:
        # new names, each with the Name nodes that use it, named at the end so they avoid every
        # identifier in the finished tree; a name with a value is an object bound by name
        self.new_names: list[tuple[str, list[ast.Name], tuple[object, ...]]] = []
        self.bound: dict[int, list[ast.Name]] = {}  # by the id of the object (held above)
        # objects read from a compiled object's attributes, by id: the attribute's name (`W`)
        self.attribute_names = attribute_names or {}
        # what `ir.assumptions_hold()` checks (None: shown as written, for messages)
        self.rechecked = rechecked
        self.held: ast.Name | None = None  # the recheck's result, in the `if` being built
        # loops whose recheck holds until a turn runs unseen code (see `kept_rechecks`)
        self.kept = kept or {}
        self.opaque = False  # whether an opaque statement was copied (what may declare names)

    def bind(self, value: object, base: str | None = None) -> ast.Name:
        """A reference to `value`, bound in the generated function's own scope."""
        reference = ast.Name("", ast.Load())
        if id(value) in self.bound:
            self.bound[id(value)].append(reference)
            return reference
        base = base or self._attribute_name(value) or _binding_base(value)
        self.new_names.append((base, [reference], (value,)))
        self.bound[id(value)] = self.new_names[-1][1]
        return reference

    def _attribute_name(self, value: object) -> str:
        """`W` for an object read from an attribute `W`; `b_row` for a row view of `b`."""
        if isinstance(value, np.ndarray) and value.base is not None and id(value) not in self.attribute_names:
            row = self.attribute_names.get(id(value.base), "")
            return f"{row.strip('_')}_row" if row else ""
        return self.attribute_names.get(id(value), "").strip("_")

    def fresh(self, base: str, stores: int = 2, loads: int = 1) -> list[ast.Name]:
        """A new local variable: returns its (for now unnamed) Name nodes, stores then loads."""
        references = [ast.Name("", ast.Store()) for _ in range(stores)] + \
            [ast.Name("", ast.Load()) for _ in range(loads)]
        self.new_names.append((base, references, ()))
        return references

    def name_new_names(self, tree: ast.AST) -> dict[str, object]:
        """Name every new name so no other identifier in `tree` uses it; return the bindings."""
        taken = identifiers(tree)
        bindings: dict[str, object] = {}
        numbers: dict[str, int] = {}  # for a base, the number below which every name is taken
        for base, references, bound in self.new_names:
            number = numbers.get(base, 1)
            name = base if number == 1 else f"{base}_{number}"
            while name in taken:
                number += 1
                name = f"{base}_{number}"
            numbers[base] = number
            taken.add(name)
            if bound:
                bindings[name] = bound[0]
            for reference in references:
                reference.id = name
        return bindings

    def guard(self, params: ast.arguments, assumptions: list[ir.Assumption],
              recompile: Callable[..., object]) -> list[ast.stmt]:
        """On entry, check every assumption (`add is not add_2`, `dense.W is not W`); if one fails, or the name is
        gone, hand the call to `recompile`, which compiles a fresh version and runs it. (The
        `try` costs nothing when no exception happens; it makes a deleted global recompile too,
        so its NameError is raised where the original raises it.)"""
        checks = [self._fails(a) for a in assumptions]
        test = checks[0] if len(checks) == 1 else ast.BoolOp(ast.Or(), checks)
        check, load = self._caught("stale", test, True)
        stale = ast.If(load, [forwarding_call(params, self.bind(recompile, "recompile"))], [])
        return [check, stale]

    def _fails(self, assumption: ir.Assumption) -> ast.expr:
        """`add is not add_2`: true once the assumption no longer holds."""
        if assumption.fails_when is not None:
            return self.expr(assumption.fails_when)
        return ast.Compare(ast.Name(assumption.name, ast.Load()), [ast.IsNot()],
                           [self.bind(assumption.value, assumption.name)])

    def _caught(self, base: str, test: ast.expr, missing: bool) -> tuple[ast.Try, ast.Name]:
        """`try: base = test` / `except NameError: base = missing`, and a read of `base`."""
        store_check, store_missing, load = self.fresh(base)
        handler = ast.ExceptHandler(ast.Name("NameError", ast.Load()), None,
                                    [ast.Assign([store_missing], ast.Constant(missing), type_comment=None)])
        return ast.Try([ast.Assign([store_check], test, type_comment=None)], [handler], [], []), load

    def recheck(self, test: ir.Expr) -> tuple[list[ast.stmt], ir.Expr]:
        """For an `if` test ending in `ir.assumptions_hold()`: the statements computing the
        recheck before the `if` (`try: held = add is add_2 and COEFFS is COEFFS_2` /
        `except NameError: held = False`: as cheap as the check on entry, a few `is` tests),
        and the test to render, whose recheck then reads `held`. Relying on nothing (or with
        guards off) the recheck is dropped: always true."""
        if self.rechecked is None or not ir.rechecks(test):
            return [], test
        rest = test.values[:-1] if isinstance(test, ir.BoolOp) else ()
        if not self.rechecked:
            return [], (ir.BoolOp("and", rest) if len(rest) > 1 else rest[0] if rest
                        else ir.Const(True))
        check, self.held = self._caught("held", self._holds(), False)
        return [check], test

    def _holds(self, first: ast.expr | None = None) -> ast.expr:
        """`add is add_2 and COEFFS is COEFFS_2 ...`: every rechecked assumption holds."""
        holds = [] if first is None else [first]
        holds += [ast.UnaryOp(ast.Not(), self._fails(a)) if a.fails_when is not None else
                  ast.Compare(ast.Name(a.name, ast.Load()), [ast.Is()], [self.bind(a.value, a.name)])
                  for a in self.rechecked or ()]
        return holds[0] if len(holds) == 1 else ast.BoolOp(ast.And(), holds)

    def kept_loop(self, stmt: ir.For) -> ast.For | None:
        """A loop split on a recheck whose answer holds until a turn runs unseen code
        (`clean_statements.kept_rechecks`): the recheck runs on the first turn and after each turn
        through the copy as written, which clears it::

            held = False
            for x in xs:
                if not held:
                    try:
                        held = (type(xs) is list or type(xs) is tuple) and add is add_2
                    except NameError:
                        held = False
                if type(x) is float and held:
                    ...the first copy
                else:
                    held = False
                    ...the copy as written

        None where that does not apply (the recheck runs on every turn)."""
        condition, relied = self.kept.get(id(stmt), (None, None))
        if relied is None or not self.rechecked or not relied <= {a.name for a in self.rechecked}:
            return None
        split = stmt.body[0]
        assert isinstance(split, ir.If)  # (see `clean_statements.kept_rechecks`)
        init, stored, missing, cleared, unchecked, tested = self.fresh("held", 4, 2)
        handler = ast.ExceptHandler(ast.Name("NameError", ast.Load()), None,
                                    [_assign(missing, ast.Constant(False))])
        first = None if condition is None else self.expr(condition)
        check = ast.Try([_assign(stored, self._holds(first))], [handler], [], [])
        recheck = ast.If(ast.UnaryOp(ast.Not(), unchecked), [check], [])
        self.held = tested
        inner = ast.If(self.expr(split.test), self.block(split.body),
                       [_assign(cleared, ast.Constant(False)), *self.orelse(split.orelse)])
        for node in (recheck, inner):
            _mark(node, LINE, split.loc.line)
        loop = ast.For(self.target(stmt.target), self.expr(stmt.iter), [recheck, inner], [],
                       type_comment=None)
        _mark(loop, BEFORE, [_assign(init, ast.Constant(False))])
        return loop

    def type_guard(self, params: ast.arguments, assumptions: list[ir.Assumption],
                   type_miss: Callable[..., object]) -> ast.stmt:
        """After the guard above: `if type(x) is not float: return type_miss(x)`, for the
        argument types the version relies on; `type_miss` runs a version for other types.
        An array's check reads `type(a) is not ndarray or a.dtype is not float64 or
        a.ndim != 1`, then, once every type is checked, `b.shape != a.shape` where the version
        relies on b having a's shape."""
        checks: list[ast.expr] = []
        shapes: list[ast.expr] = []
        for assumption in assumptions:
            kind, name = assumption.value, assumption.name
            if isinstance(kind, ir.ArrayKind):
                checks.append(self._is_not_type(name, np.ndarray))
                checks.append(ast.Compare(_attribute(name, "dtype"), [ast.IsNot()],
                                          [self.bind(kind.dtype, str(kind.dtype))]))
                checks.append(ast.Compare(_attribute(name, "ndim"), [ast.NotEq()],
                                          [ast.Constant(kind.ndim)]))
                if kind.ndim > 1 and kind.contiguous:
                    checks.append(ast.UnaryOp(ast.Not(), ast.Attribute(
                        _attribute(name, "flags"), "c_contiguous", ast.Load())))
                if (owner := kind.shape_owner) is not None and owner != name:
                    shapes.append(ast.Compare(_attribute(name, "shape"), [ast.NotEq()],
                                              [_attribute(owner, "shape")]))
            elif isinstance(kind, type):
                checks.append(self._is_not_type(name, kind))
            else:
                raise IRError(f"{name}: not an argument type: {kind!r}")
        checks += shapes
        test = checks[0] if len(checks) == 1 else ast.BoolOp(ast.Or(), checks)
        return ast.If(test, [forwarding_call(params, self.bind(type_miss, "other_types"))], [])

    def _is_not_type(self, name: str, kind: type) -> ast.expr:
        return ast.Compare(ast.Call(self.bind(type, "type"), [ast.Name(name, ast.Load())], []),
                           [ast.IsNot()], [self.bind(kind, kind.__name__)])

    def optional(self, expr: ir.Expr | None) -> ast.expr | None:
        return None if expr is None else self.expr(expr)

    def expr(self, expr: ir.Expr) -> ast.expr:
        """The Python AST (load context) of an IR expression."""
        load = ast.Load()
        match expr:
            case ir.Const(value):
                literal = constant_to_ast(value)
                return literal if literal is not None else self.bind(value)
            case ir.Name(id):
                return ast.Name(id, load)
            case ir.Op(op, (operand,)):
                return ast.UnaryOp(_operator(op, ast.unaryop), self.expr(operand))
            case ir.Op(op, (left, right)):
                return ast.BinOp(self.expr(left), _operator(op, ast.operator), self.expr(right))
            case ir.Compare(ops, operands):
                return ast.Compare(self.expr(operands[0]), [_operator(op, ast.cmpop) for op in ops],
                                   [self.expr(operand) for operand in operands[1:]])
            case ir.BoolOp(op, values):
                return ast.BoolOp(ast.And() if op == "and" else ast.Or(),
                                  [self.expr(value) for value in values])
            case ir.IfExp(test, body, orelse):
                return ast.IfExp(self.expr(test), self.expr(body), self.expr(orelse))
            case ir.Call(ir.Const(marker), (), ()) if marker is ir.ASSUMPTIONS_HOLD:
                if self.held is not None:  # (see `recheck`)
                    held, self.held = self.held, None
                    return held
                if self.rechecked is None:  # in a message
                    return ast.Call(ast.Name("assumptions_hold", load), [], [])
                raise IRError("assumptions_hold() outside the end of an if test")
            case ir.Call(func, args, keywords):
                return ast.Call(self.expr(func), [self.expr(arg) for arg in args],
                                [ast.keyword(kw.name, self.expr(kw.value)) for kw in keywords])
            case ir.Attribute(value, attr):
                return ast.Attribute(self.expr(value), attr, load)
            case ir.Subscript(value, index):
                return ast.Subscript(self.expr(value), self.expr(index), load)
            case ir.Slice(lower, upper, step):
                return ast.Slice(self.optional(lower), self.optional(upper), self.optional(step))
            case ir.Starred(value):
                return ast.Starred(self.expr(value), load)
            case ir.Build("tuple", elts):
                return ast.Tuple([self.expr(elt) for elt in elts], load)
            case ir.Build("list", elts):
                return ast.List([self.expr(elt) for elt in elts], load)
            case ir.Build("set", elts):
                return ast.Set([self.expr(elt) for elt in elts])
            case ir.DictDisplay(keys, values):
                return ast.Dict([self.optional(key) for key in keys],
                                [self.expr(value) for value in values])
            case ir.OpaqueExpr(node):
                return copy_tree(node)
        raise IRError(f"cannot generate code for {expr!r}")

    def target(self, expr: ir.Expr) -> ast.expr:
        return _store(self.expr(expr))

    def block(self, body: tuple[ir.Stmt, ...]) -> list[ast.stmt]:
        return self.orelse(body) or [ast.Pass()]

    def orelse(self, body: tuple[ir.Stmt, ...]) -> list[ast.stmt]:
        result: list[ast.stmt] = []
        for stmt in body:
            node = self.stmt(stmt)
            result += [*getattr(node, BEFORE, ()), node]
        return result

    def stmt(self, stmt: ir.Stmt) -> ast.stmt:
        """The Python AST of an IR statement, marked with the user's line it comes from. The
        statements inside an opaque one still at its own line (not moved in from a callee)
        keep their lines too (see `user_lines`)."""
        node = self._statement(stmt)
        _mark(node, LINE, stmt.loc.line)
        for before in getattr(node, BEFORE, ()):
            _mark(before, LINE, stmt.loc.line)
        if isinstance(stmt, ir.Opaque) and getattr(stmt.node, "lineno", None) == stmt.loc.line:
            _mark(node, OWN_LINES, True)
        return node

    def _statement(self, stmt: ir.Stmt) -> ast.stmt:
        match stmt:
            case ir.Assign(targets, value):
                return ast.Assign([self.target(t) for t in targets], self.expr(value),
                                  type_comment=None)
            case ir.AugAssign(target, op, value):
                return ast.AugAssign(_augmented(self.target(target)), _operator(op, ast.operator),
                                     self.expr(value))
            case ir.If(test, body, orelse):
                before, test = self.recheck(test)
                node = ast.If(self.expr(test), self.block(body), self.orelse(orelse))
                _mark(node, BEFORE, before)
                return node
            case ir.For(target, iter_, body, orelse):
                if (kept := self.kept_loop(stmt)) is not None:
                    return kept
                return ast.For(self.target(target), self.expr(iter_), self.block(body),
                               self.orelse(orelse), type_comment=None)
            case ir.While(test, body, orelse):
                return ast.While(self.expr(test), self.block(body), self.orelse(orelse))
            case ir.Break():
                return ast.Break()
            case ir.Continue():
                return ast.Continue()
            case ir.Return(value):
                return ast.Return(self.optional(value))
            case ir.Raise(exc, cause):
                return ast.Raise(self.optional(exc), self.optional(cause))
            case ir.ExprStmt(value):
                return ast.Expr(self.expr(value))
            case ir.Opaque(node):
                self.opaque = True
                return copy_tree(node)
        raise IRError(f"cannot generate code for {stmt!r}")


def _store(node: ast.expr) -> ast.expr:
    """`node` (built in load context) turned into an assignment target."""
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        node.ctx = ast.Store()
    elif isinstance(node, (ast.Tuple, ast.List)):
        node.ctx = ast.Store()
        node.elts = [_store(elt) for elt in node.elts]
    elif isinstance(node, ast.Starred):
        node.ctx = ast.Store()
        node.value = _store(node.value)
    return node


def _attribute(name: str, attr: str) -> ast.Attribute:
    return ast.Attribute(ast.Name(name, ast.Load()), attr, ast.Load())


def _assign(target: ast.expr, value: ast.expr) -> ast.Assign:
    return ast.Assign([target], value, type_comment=None)


def _augmented(target: ast.expr) -> ast.Name | ast.Attribute | ast.Subscript:
    """`target` as the target of an augmented assignment (a name, attribute or item)."""
    if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
        return target
    raise IRError(f"cannot assign in place to {ast.unparse(target)}")


def _operator(op: str, kind: type[_Op]) -> _Op:
    """The Python AST node of the IR operator `op`, of `kind` (unary, binary, comparison)."""
    node = OPS[op].ast_class()
    if isinstance(node, kind):
        return node
    raise IRError(f"{op} is not a {kind.__name__}")


# Marks on the Python AST built here, read where it is rendered: the user's line a statement
# comes from (see `user_lines`, `Rendering.places`), the statements to put before one (see
# `orelse`), and that the lines inside an opaque statement are the user's own.
LINE, BEFORE, OWN_LINES = "symcompile_line", "symcompile_before", "symcompile_own_lines"


def _mark(node: ast.AST, mark: str, value: object) -> None:
    setattr(node, mark, value)


def forwarding_call(params: ast.arguments, callee: ast.expr) -> ast.Return:
    """`return callee(a, b, *args, k=k, **kw)`: pass a call on with the same arguments."""
    positional: list[ast.expr] = [ast.Name(a.arg, ast.Load())
                                  for a in (*params.posonlyargs, *params.args)]
    if params.vararg is not None:
        positional.append(ast.Starred(ast.Name(params.vararg.arg, ast.Load()), ast.Load()))
    keywords = [ast.keyword(a.arg, ast.Name(a.arg, ast.Load())) for a in params.kwonlyargs]
    if params.kwarg is not None:
        keywords.append(ast.keyword(None, ast.Name(params.kwarg.arg, ast.Load())))
    return ast.Return(ast.Call(callee, positional, keywords))


def _attribute_names(function: ir.Function) -> dict[int, str]:
    """The attribute each object read from a compiled object came from (`layer.W` → `W`)."""
    names: dict[int, str] = {}
    for assumption in function.assumptions:
        match assumption.fails_when:
            case ir.Compare(("isnot",), (ir.Attribute(_, attr), ir.Const(value))):
                names.setdefault(id(value), attr)
    return names


def function_to_ast(function: ir.Function, recompile: Callable[..., object] | None = None,
                    guard_globals: bool = True, type_miss: Callable[..., object] | None = None,
                    ) -> tuple[ast.FunctionDef, dict[str, object]]:
    """A Python `def` for `function` (no decorators), and the objects it binds by name.

    With `recompile`, the function starts by checking its assumptions (see `_Generator.guard`):
    always those about its arguments' values, those about globals if `guard_globals`. With
    `type_miss`, it then checks the argument types it relies on (`_Generator.type_guard`).
    """
    rechecked = [a for a in function.assumptions if guard_globals and recompile is not None
                 and not a.argument and not a.of_type]
    kept = kept_rechecks(function) if rechecked else {}
    generator = _Generator(_attribute_names(function), rechecked, kept)
    body = generator.block(function.body)
    start = int(isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str))  # after the docstring
    unbound = function.locals - bound_names(function)
    reads = read_counts(function) if unbound else {}  # counted once: it walks the whole body
    lost = sorted(name for name in unbound if reads[name])
    if lost:  # `if False: i = None` binds nothing but keeps `i` local, as in the original
        keeper = ast.Assign([ast.Name(name, ast.Store()) for name in lost], ast.Constant(None),
                            type_comment=None)
        body.insert(start, ast.If(ast.Constant(False), [keeper], []))
    checked = [a for a in function.assumptions if (a.argument or guard_globals) and not a.of_type]
    typed = [a for a in function.assumptions if a.of_type]
    if type_miss is not None and typed:
        body.insert(start, generator.type_guard(function.params, typed, type_miss))
    if recompile is not None and checked:
        body[start:start] = generator.guard(function.params, checked, recompile)
    if generator.opaque:  # (only an opaque statement declares a global or nonlocal name)
        body[start:start] = _lifted_declarations(body)  # before anything the guards read
    node = ast.FunctionDef(
        name=function.name,
        args=copy_tree(function.params),
        body=body,
        decorator_list=[],
        returns=None if function.returns is None else copy_tree(function.returns),
        type_comment=None,
    )
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12 added type parameters to defs
        setattr(node, "type_params", [])
    return node, generator.name_new_names(node)


def _lifted_declarations(body: list[ast.stmt]) -> list[ast.stmt]:
    """Take the `global` and `nonlocal` declarations out of `body` (nested defs and classes
    aside; a block left empty keeps a `pass`), one declaration per kind for the names in
    order. A declaration holds for the whole function wherever it stands, but a name read
    before it is a SyntaxError: the checks on entry, and code the passes moved, may read a
    global the function declares further down."""
    names: dict[type, list[str]] = {ast.Global: [], ast.Nonlocal: []}
    for block in statement_blocks(body, into_definitions=False):
        kept = [stmt for stmt in block if not isinstance(stmt, (ast.Global, ast.Nonlocal))]
        if len(kept) == len(block):
            continue
        for stmt in block:
            if isinstance(stmt, (ast.Global, ast.Nonlocal)):
                found = names[type(stmt)]
                found += [name for name in stmt.names if name not in found]
        block[:] = kept or [ast.Pass()]
    return [kind(found) for kind, found in names.items() if found]


# --------------------------------------------------------------- AST → text


def _readable_name(value: object) -> str:
    """How a message shows an object bound by name: its own name (`sin`, `numpy.linalg`), a
    number's repr (`nan`, `np.float64(1.5)`), else its type's name."""
    name = static_attribute(value, "__name__")
    if isinstance(name, str):
        return name
    return repr(value) if isinstance(value, numbers.Number) else _binding_base(value)


def expression_text(expr: ir.Expr, limit: int = 40) -> str:
    """An IR expression as Python text, for messages (`a + b * 2`); objects bound by name are
    shown by their names, and a text longer than `limit` is cut with `…`."""
    generator = _Generator()
    node = generator.expr(expr)
    for _, references, bound in generator.new_names:
        for reference in references:
            reference.id = _readable_name(bound[0])
    text = ast.unparse(node)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _renderers() -> list[Callable[[ast.AST], str]]:
    unparse: Callable[[ast.AST], str] = ast.unparse
    return [astor.to_source, unparse] if astor is not None else [unparse]


def render(node: ast.stmt) -> str:
    """Source text for one statement (usually a `def`), which parses back to the same tree."""
    return _rendered(node)[0]


def _rendered(node: ast.stmt) -> tuple[str, ast.Module]:
    """`render(node)` and the text parsed (its one statement: `node` again). The nodes get
    the positions they lack only for `ast.unparse`, which reads statements' lines (astor and
    the comparison read none)."""
    module = ast.Module([node], type_ignores=[])
    for renderer in _renderers():
        if renderer is ast.unparse:
            located(module)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                text = renderer(node).rstrip("\n") + "\n"
                reparsed = ast.parse(text)
            except RecursionError:
                raise
            except Exception:  # a renderer that fails on this tree: try the next one
                continue
        if same_tree(reparsed, module):
            return text, reparsed
    raise IRError(f"no renderer reproduces this tree:\n{ast.dump(node, indent=1)}")


@dataclass(frozen=True)
class Generated:
    """Generated source and the objects it names that have no literal spelling."""

    source: str
    bindings: dict[str, object]
    # for each line of `source`, the line of the user's file its code runs as (`user_lines`)
    lines: tuple[int, ...] = ()
    # the source (comments aside: at the same lines) parsed, for the loader, which edits it:
    # a Generated is loaded once
    parsed: ast.Module | None = dataclasses.field(default=None, compare=False, repr=False)


def render_function(function: ir.Function, recompile: Callable[..., object] | None = None,
                    guard_globals: bool = True, type_miss: Callable[..., object] | None = None,
                    comments: Callable[[int], str] | None = None,
                    spell_names: Callable[[ast.FunctionDef], ast.FunctionDef] | None = None,
                    ) -> Generated:
    """The generated source of an IR function, with the objects it binds by name; with
    `recompile` and `type_miss`, guarded by checks of its assumptions (see `function_to_ast`);
    with `comments`, a comment on each statement's first line saying where it came from
    (`comments(line)` for the user's line, "" for none); `spell_names` respells the def's
    names (private names as written, `frontend.unmangle_names`)."""
    node, bindings = function_to_ast(function, recompile, guard_globals, type_miss)
    node = spell_names(node) if spell_names is not None else node
    rendered = Rendering(node, *_rendered(node))
    lines = user_lines(node, rendered.text, function.loc.line, rendered.parsed)
    return Generated(rendered.commented(comments) if comments else rendered.text, bindings, lines,
                     rendered.parsed)


@dataclass(frozen=True)
class Rendering:
    """A rendered def (`render`) that takes comments: its text and the tree the text parses
    to."""

    node: ast.FunctionDef
    text: str
    parsed: ast.Module

    @functools.cached_property
    def places(self) -> tuple[tuple[int, int], ...]:
        """(line of the text, user's line) for each statement from a line of the user's, in
        the order `ast.walk` meets them, whose first line may end in a comment: not after a line
        continuation, not inside a token (a string, or an f-string's parts, spanning lines).

        Only statements carry a user's line, and only blocks of statements (bodies, `except`
        handlers, `match` cases) hold statements, so these are found walking just those,
        breadth first as `ast.walk` does (a subset of its nodes closed under "parent of" keeps
        their order); only a text that may hold a token spanning lines (`_SPANNING`) is
        tokenized, as `places_walking_every_node` does."""
        if _SPANNING.search(self.text):
            return self.places_walking_every_node()
        return tuple(_places_in_one_line_tokens(self))

    def places_walking_every_node(self) -> tuple[tuple[int, int], ...]:
        """`places`, found pairing every node of the tree with its copy parsed back and
        tokenizing the text for the lines that end inside a token."""
        lines = self.text.splitlines()
        inside = _lines_ending_inside_a_token(self.text)
        return tuple((copy_.lineno, line) for original, copy_
                     in zip(ast.walk(self.node), ast.walk(self.parsed.body[0]))
                     if (line := getattr(original, LINE, 0)) and isinstance(copy_, ast.stmt)
                     and not lines[copy_.lineno - 1].rstrip().endswith("\\")
                     and copy_.lineno not in inside)

    def commented(self, comments: Callable[[int], str]) -> str:
        """The text with `  # comment` at the end of the first line of each statement that came
        from a line of the user's (`comments(line)`, none where it is "") where a comment may
        go (`places`); checked to parse to the same tree, with one parse (were it not, each
        comment would be tried on its own, as `_commented_one_by_one` does)."""
        wanted: dict[int, str] = {}  # line number → comment
        for number, line in self.places:
            if number not in wanted and (comment := comments(line)):
                wanted[number] = comment
        lines = self.text.splitlines()
        commented = [f"{line}  # {wanted[number]}" if number in wanted else line
                     for number, line in enumerate(lines, 1)]
        if not _parses_to("\n".join(commented), self.parsed):
            commented = _commented_one_by_one(lines, wanted, self.parsed)
        return "\n".join(commented) + "\n"


_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)  # what may hold statements

# What a token spanning lines needs: triple quotes, a line ending in a backslash (inside a
# string, which it continues), or an f-string (whose fields may span lines from Python 3.12).
_SPANNING = re.compile(r"'''|\"\"\"|\\\s*$|(?<!\w)(?:[fF][rR]?|[rR][fF])['\"]", re.MULTILINE)


def _places_in_one_line_tokens(rendered: Rendering) -> Iterator[tuple[int, int]]:
    """`rendered.places` for a text whose tokens each hold on one line (so no line ends inside
    one)."""
    lines = rendered.text.splitlines()
    pending: deque[tuple[ast.AST, ast.AST]] = deque([(rendered.node, rendered.parsed.body[0])])
    while pending:
        original, copy_ = pending.popleft()
        line = getattr(original, LINE, 0)
        if line and isinstance(copy_, ast.stmt) \
                and not lines[copy_.lineno - 1].rstrip().endswith("\\"):
            yield copy_.lineno, line
        for name in original._fields:
            children = getattr(original, name, None)
            if isinstance(children, list):
                pending.extend(pair for pair in zip(children, getattr(copy_, name, None) or ())
                               if isinstance(pair[0], _HOLDERS))


def rendering(function: ir.Function) -> Rendering:
    """`function`'s generated source without checks on entry, ready to take comments (what
    `render_function(function, comments=...)` renders)."""
    node, _ = function_to_ast(function)
    return Rendering(node, *_rendered(node))


def _span(node: ast.stmt | ast.excepthandler) -> range:
    """The lines a rendered statement takes, its decorators included (0-based)."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return range(first - 1, node.end_lineno or node.lineno)


def user_lines(node: ast.FunctionDef, text: str, def_line: int,
               parsed: ast.Module | None = None) -> tuple[int, ...]:
    """For each line of `text` (rendered from `node`), the line of the user's file its code
    runs as: the line of the innermost statement around it that came from one of the user's
    (the call's line for an inlined callee's), else `def_line` (the def, the guards on entry).
    The loader compiles the code at these lines, so tracebacks, warnings and `f_lineno` point
    into the user's file. `parsed`: `text` parsed, where that is at hand."""
    lines = [def_line] * len(text.splitlines())
    stack: list[tuple[ast.AST, ast.AST, int, bool]] = [
        (node, (parsed or ast.parse(text)).body[0], def_line, False)]
    while stack:
        original, rendered, line, own = stack.pop()
        if isinstance(original, (ast.stmt, ast.excepthandler)) \
                and isinstance(rendered, (ast.stmt, ast.excepthandler)):
            # (a statement inside an opaque one that lacks a line is at its parent's)
            line = getattr(original, LINE, 0) or (getattr(original, "lineno", line) if own
                                                  else line)
            own = own or getattr(original, OWN_LINES, False)
            for index in _span(rendered):
                lines[index] = line
        for part in _BLOCKS:  # (only statements have lines to give: no expression holds one)
            inner, rendered_inner = getattr(original, part, None), getattr(rendered, part, None)
            if type(inner) is list and type(rendered_inner) is list:
                stack += [(child, rendered_child, line, own) for child, rendered_child
                          in zip(inner, rendered_inner)]
    return tuple(lines)


# the fields that hold statements, handlers or match cases
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _parses_to(text: str, tree: ast.Module) -> bool:
    """Whether `text` parses to `tree` (positions aside)."""
    try:
        return same_tree(ast.parse(text), tree)
    except SyntaxError:
        return False


def _lines_ending_inside_a_token(text: str) -> set[int]:
    """The numbers of the lines of `text` whose end falls inside a token (a string, or an
    f-string's parts, spanning lines): a comment there would be part of the token."""
    inside: set[int] = set()
    f_string_starts: list[int] = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        name = tokenize.tok_name[token.type]
        if name == "FSTRING_START":
            f_string_starts.append(token.start[0])
        elif name == "FSTRING_END":
            inside.update(range(f_string_starts.pop(), token.end[0]))
        elif token.type == tokenize.STRING:
            inside.update(range(token.start[0], token.end[0]))
    return inside


def _commented_one_by_one(lines: list[str], wanted: dict[int, str], tree: ast.Module,
                          ) -> list[str]:
    """`lines` with each wanted comment that keeps them parsing to `tree`, tried in turn."""
    for number, comment in wanted.items():
        candidate = lines[:number - 1] + [f"{lines[number - 1]}  # {comment}"] + lines[number:]
        if _parses_to("\n".join(candidate), tree):
            lines = candidate
    return lines
