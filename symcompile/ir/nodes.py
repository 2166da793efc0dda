"""The intermediate representation: an expression DAG inside structured statements.

The front end builds it from Python's AST, passes rewrite it (always building new nodes, never
mutating), the verifier checks it and code generation turns it back into Python. Nodes are
immutable and compare structurally, so equal subexpressions are interchangeable and may be shared
(a DAG); constants compare by type and bits, never by `==` (`1`, `1.0` and `True` differ, `0.0`
and `-0.0` differ, NaN equals itself).

What the compiler does not model is kept verbatim as an *opaque* node holding the original AST:
`Opaque` statements (try, with, nested def, ...) and `OpaqueExpr` expressions (lambda,
comprehensions, f-strings, walrus, ...). They are barriers for the passes, never errors.

`format_function` is the printer: a compact text form used by errors, tests and `explain`.
"""

from __future__ import annotations

import ast
import struct
import types
from dataclasses import dataclass, field, replace
from typing import Mapping, Union, get_args

import numpy as np

__all__ = ["const_key", "Loc", "NO_LOC", "Const", "Name", "Op", "Compare", "BoolOp", "IfExp",
           "Keyword", "Call", "Attribute", "Subscript", "Slice", "Starred", "Build",
           "DictDisplay", "OpaqueExpr", "ASSUMPTIONS_HOLD", "assumptions_hold",
           "is_assumptions_hold", "rechecks", "Expr", "EXPR_TYPES", "Assign", "AugAssign", "If",
           "For", "While", "Break", "Continue", "Return", "Raise", "ExprStmt", "Opaque", "Stmt",
           "STMT_TYPES", "Namespace", "Dim", "ArrayKind", "ArgumentType", "Assumption",
           "Function", "format_expr", "format_function"]


# constants of these types are compared by value; any other object only by identity
_VALUE_TYPES = (type(None), bool, int, str, bytes, type(Ellipsis))


def const_key(value: object) -> object:
    """A hashable key that identifies a constant by type and bits (never by `==`).

    Floats compare by bits, so `0.0` and `-0.0` differ, and so do `nan` and `-nan` (a NaN's
    sign is part of the value: `x * nan` and `x * -nan` are not one expression); other objects
    without a literal spelling (arrays, functions, modules) are the same constant only if
    identical.
    """
    kind = type(value)
    if type(value) is float:
        return (kind, struct.pack("<d", value))
    if type(value) is complex:
        return (kind, const_key(value.real), const_key(value.imag))
    if type(value) is tuple:
        return (kind, tuple(const_key(item) for item in value))
    if kind in _VALUE_TYPES:
        return (kind, value)
    return (kind, "object", id(value))


@dataclass(frozen=True, slots=True)
class Loc:
    """A position in the user's file: 1-based line, 0-based column."""

    line: int
    col: int = 0


NO_LOC = Loc(0, 0)


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True, eq=False)
class Const:
    """A constant value. Literals (numbers, strings, None, tuples of them...) are written into
    the generated code; any other object (an array, a function) is bound by name into the
    generated function's own scope."""

    value: object

    def __eq__(self, other: object) -> bool:
        return type(other) is Const and const_key(self.value) == const_key(other.value)

    def __hash__(self) -> int:
        return hash(const_key(self.value))


@dataclass(frozen=True, slots=True)
class Name:
    """A read of (or, as a target, a write to) a variable: parameter, local, global or builtin."""

    id: str


@dataclass(frozen=True, slots=True)
class Op:
    """A unary or binary operator from the op table applied to its operands."""

    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Compare:
    """A comparison chain `a < b <= c`: each middle operand is evaluated once."""

    ops: tuple[str, ...]
    operands: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class BoolOp:
    """`a and b and c` / `a or b`: short-circuit, the result is one of the operands."""

    op: str
    values: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class IfExp:
    """`body if test else orelse`: only the chosen branch is evaluated."""

    test: Expr
    body: Expr
    orelse: Expr


@dataclass(frozen=True, slots=True)
class Keyword:
    """A keyword argument of a call; `name` is None for `**mapping`."""

    name: str | None
    value: Expr


@dataclass(frozen=True, slots=True)
class Call:
    """A call. Arguments may be `Starred` (`*args`); keywords may be `**kwargs`."""

    func: Expr
    args: tuple[Expr, ...]
    keywords: tuple[Keyword, ...] = ()


@dataclass(frozen=True, slots=True)
class Attribute:
    """`value.attr`."""

    value: Expr
    attr: str


@dataclass(frozen=True, slots=True)
class Subscript:
    """`value[index]`; the index may be a `Slice` or a tuple holding slices."""

    value: Expr
    index: Expr


@dataclass(frozen=True, slots=True)
class Slice:
    """`lower:upper:step` inside a subscript; absent parts are None."""

    lower: Expr | None
    upper: Expr | None
    step: Expr | None


@dataclass(frozen=True, slots=True)
class Starred:
    """`*value` in a call, a display or an assignment target."""

    value: Expr


@dataclass(frozen=True, slots=True)
class Build:
    """A tuple, list or set display. Lists and sets are fresh mutable objects on every run."""

    kind: str
    elts: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class DictDisplay:
    """`{k: v, **m}`: a key of None means `**value`."""

    keys: tuple[Expr | None, ...]
    values: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class OpaqueExpr:
    """An expression kept verbatim (lambda, comprehension, f-string, walrus, yield, await...)."""

    node: ast.expr
    reason: str
    text: str = field(default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", ast.unparse(self.node))

    def __eq__(self, other: object) -> bool:
        return type(other) is OpaqueExpr and ast.dump(self.node) == ast.dump(other.node)

    def __hash__(self) -> int:
        return hash(ast.dump(self.node))


class _AssumptionsHold:
    """The marker `assumptions_hold()` calls (see there); never called at run time."""

    def __repr__(self) -> str:
        return "assumptions_hold"


ASSUMPTIONS_HOLD = _AssumptionsHold()


def assumptions_hold() -> Call:
    """A *recheck*: true where every global and object fact the function relies on (its
    final assumptions, those checked on entry) still holds at this point of a run. Code
    generation spells it from the final assumptions as the entry check is (`add is add_2 and
    COEFFS is COEFFS_2`; a deleted name makes it false; with guards off, or relying on
    nothing, `True`). It stands only as the last operand of an `and` (or alone) in an `if`
    test whose other operands run no user code, where the `if` body then starts as the
    function's entry does: every value checked on entry holds there (see `effects`). A call
    of a marker to the passes, so no pass moves, shares or drops it."""
    return Call(Const(ASSUMPTIONS_HOLD), ())


def is_assumptions_hold(expr: object) -> bool:
    return isinstance(expr, Call) and isinstance(expr.func, Const) \
        and expr.func.value is ASSUMPTIONS_HOLD


def rechecks(test: Expr) -> bool:
    """Whether the `if` test `test` ends in a recheck (`... and assumptions_hold()`)."""
    match test:
        case BoolOp("and", values):
            return is_assumptions_hold(values[-1])
    return is_assumptions_hold(test)


Expr = Union[
    Const, Name, Op, Compare, BoolOp, IfExp, Call, Attribute, Subscript, Slice, Starred,
    Build, DictDisplay, OpaqueExpr,
]
EXPR_TYPES: tuple[type, ...] = get_args(Expr)

# ----------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class Assign:
    """`t1 = t2 = value`: targets are Name, Attribute, Subscript, tuple/list displays, Starred."""

    targets: tuple[Expr, ...]
    value: Expr
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class AugAssign:
    """`target op= value` (in place where the type supports it, e.g. arrays)."""

    target: Expr
    op: str
    value: Expr
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class If:
    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class For:
    target: Expr
    iter: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class While:
    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class Break:
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class Continue:
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class Return:
    value: Expr | None
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class Raise:
    exc: Expr | None
    cause: Expr | None
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True)
class ExprStmt:
    """An expression evaluated for its effect (a call such as `print(x)`, or a docstring)."""

    value: Expr
    loc: Loc = field(default=NO_LOC, compare=False)


@dataclass(frozen=True, slots=True, eq=False)
class Opaque:
    """A statement kept verbatim: a barrier nothing moves across; what it touches is unknown."""

    node: ast.stmt
    reason: str
    loc: Loc = field(default=NO_LOC, compare=False)

    def __eq__(self, other: object) -> bool:
        return type(other) is Opaque and ast.dump(self.node) == ast.dump(other.node)

    def __hash__(self) -> int:
        return hash(ast.dump(self.node))


Stmt = Union[Assign, AugAssign, If, For, While, Break, Continue, Return, Raise, ExprStmt, Opaque]
STMT_TYPES: tuple[type, ...] = get_args(Stmt)


@dataclass(frozen=True, eq=False)
class Namespace:
    """What the function's free names meant when it was compiled: its module's globals and the
    builtins (only ever read), and the names it reads from enclosing functions (never resolved
    at compile time: their cells may change)."""

    globals: Mapping[str, object]
    builtins: Mapping[str, object]
    closure: frozenset[str] = frozenset()
    code: object = None  # the code object of the function being compiled (to spot recursion)
    # every global here is bound once and nothing can rebind it (a whole module optimized,
    # see `modules`): no code run since entry can change what a global name holds
    fixed: bool = False
    # globals and builtins are taken as never changing (`@symbolic(guards=False)`)
    frozen: bool = False

    def unchanging(self, name: str) -> bool:
        """Whether no code can change what the free name `name` holds, as far as the
        compiler may assume (see `fixed`, `frozen`)."""
        if name in self.closure:
            return False
        return (self.fixed or self.frozen) and name in self.globals \
            or self.frozen and name in self.builtins

    def lookup(self, name: str) -> tuple[bool, object]:
        """(True, value) for a global or builtin name; (False, None) if it means nothing."""
        if name in self.closure:
            return False, None
        for scope in (self.globals, self.builtins):
            if name in scope:
                return True, scope[name]
        return False, None


Dim = Union[int, str]


@dataclass(frozen=True, slots=True)
class ArrayKind:
    """What a version may rely on about a NumPy array: its exact type is `numpy.ndarray`, with
    this dtype, this many dimensions (at least one) and, if `contiguous`, C-contiguous. Its
    `shape`, where known, holds each extent: an int, or a symbol `a[0]` for an extent of
    argument `a` (arguments of equal shapes share symbols: `b`'s shape is `(a[0],)` when it
    equals `a`'s, which the version checks on entry)."""

    dtype: np.dtype[np.generic]
    ndim: int
    shape: tuple[Dim, ...] | None
    contiguous: bool = True

    @property
    def shape_owner(self) -> str | None:
        """The argument whose shape this one's symbols name (`a` for `(a[0], a[1])`)."""
        symbols = [dim for dim in self.shape or () if isinstance(dim, str)]
        if not symbols or len(symbols) < len(self.shape or ()):
            return None
        owners = {dim.partition("[")[0] for dim in symbols}
        return owners.pop() if len(owners) == 1 else None

    def __str__(self) -> str:
        layout = "" if self.contiguous else ", strided"
        return f"ndarray[{self.dtype}, {self.ndim}-d{layout}]"


ArgumentType = Union[type, ArrayKind]


@dataclass(frozen=True, slots=True)
class Assumption:
    """A global (or builtin) name whose value the compiled code relies on (it was inlined or
    folded), a parameter it was specialized on (its value, `static_argnames`, or its type), or
    a fact about an object (`fails_when`). Generated code checks `name is value` (or
    `type(name) is value`, or `not fails_when`) on entry; for globals and objects, unless
    guards are off."""

    name: str
    value: object = field(compare=False)
    reason: str = field(default="", compare=False)
    argument: bool = False  # a parameter specialized on (static_argnames), not a global
    of_type: bool = False  # an argument whose type is `value` (checked `type(name) is value`)
    # a fact about an object's structure (see `objects`), not a name: the test that is true
    # once it no longer holds (`layer.W is not W`); `name` then only labels it
    fails_when: Expr | None = field(default=None, compare=False)


@dataclass(frozen=True, eq=False)
class Function:
    """A whole function: its signature kept as Python AST (`params`, `returns`), its body as IR.

    `filename` and `loc` point at the `def` line in the user's file. `namespace` (None when
    the compiler must not look at globals) is what passes may resolve free names in;
    `assumptions` lists the globals they relied on; `locals` the original's local names.
    """

    name: str
    params: ast.arguments
    returns: ast.expr | None
    body: tuple[Stmt, ...]
    filename: str = "<unknown>"
    loc: Loc = NO_LOC
    namespace: Namespace | None = None
    assumptions: tuple[Assumption, ...] = ()
    # the names Python made local in the original: a pass may remove every assignment to one
    # (a loop that never runs), but a read of it must still find a local, unbound
    locals: frozenset[str] = frozenset()
    # the exact types of arguments the passes may rely on (a version compiled for them); a
    # rewrite that does records an `of_type` assumption, checked on entry
    argument_types: Mapping[str, ArgumentType] = field(default_factory=dict)
    # whether the passes may read the structure of objects held as constants (a compiled
    # object's attributes and layers; see `objects`)
    resolve_objects: bool = False
    # whether rewrites true only for real numbers are allowed (`@symbolic(fastmath=True)`)
    fastmath: bool = False
    # free variables the passes added, each sharing a cell of another function (an inlined
    # closure's): the generated code reads the cell itself, so it always sees its current value
    shared_cells: Mapping[str, types.CellType] = field(default_factory=dict)

    def with_body(self, body: tuple[Stmt, ...]) -> Function:
        """This function with a new body; `self` when the body is the same object."""
        return self if body is self.body else replace(self, body=body)

    def assuming(self, *assumptions: Assumption) -> Function:
        """This function also relying on `assumptions` (each name listed once)."""
        known = {assumption.name for assumption in self.assumptions}
        new: list[Assumption] = []
        for assumption in assumptions:
            if assumption.name not in known:
                known.add(assumption.name)
                new.append(assumption)
        return replace(self, assumptions=self.assumptions + tuple(new)) if new else self


# -------------------------------------------------------------------- printer


def format_expr(expr: Expr | None) -> str:
    """The compact prefix form of an expression: `(add a (mul b 2))`."""
    match expr:
        case None:
            return "_"
        case Const(value):
            return repr(value)
        case Name(id):
            return id
        case Op(op, args):
            return f"({op} {' '.join(map(format_expr, args))})"
        case Compare(ops, operands):
            parts = [format_expr(operands[0])]
            for op, operand in zip(ops, operands[1:]):
                parts += [op, format_expr(operand)]
            return f"(compare {' '.join(parts)})"
        case BoolOp(op, values):
            return f"({op} {' '.join(map(format_expr, values))})"
        case IfExp(test, body, orelse):
            return f"(ifexp {format_expr(test)} {format_expr(body)} {format_expr(orelse)})"
        case Call(func, args, keywords):
            parts = [format_expr(func), *map(format_expr, args)]
            parts += [f"{kw.name or '**'}={format_expr(kw.value)}" for kw in keywords]
            return f"(call {' '.join(parts)})"
        case Attribute(value, attr):
            return f"(attr {format_expr(value)} {attr})"
        case Subscript(value, index):
            return f"(item {format_expr(value)} {format_expr(index)})"
        case Slice(lower, upper, step):
            return f"(slice {format_expr(lower)} {format_expr(upper)} {format_expr(step)})"
        case Starred(value):
            return f"*{format_expr(value)}"
        case Build(kind, elts):
            return f"({kind} {' '.join(map(format_expr, elts))})".replace(" )", ")")
        case DictDisplay(keys, values):
            items = [f"{format_expr(k) if k is not None else '**'}:{format_expr(v)}"
                     for k, v in zip(keys, values)]
            return f"(dict {' '.join(items)})".replace(" )", ")")
        case OpaqueExpr(text=text):
            return f"(opaque {text!r})"
    return f"<not IR: {expr!r}>"  # the printer also serves error messages about broken IR


def _format_block(body: tuple[Stmt, ...], depth: int) -> list[str]:
    lines: list[str] = []
    if not isinstance(body, tuple):
        return ["    | " + "  " * depth + f"<not a tuple of statements: {body!r}>"]
    for stmt in body:
        lines += _format_stmt(stmt, depth)
    return lines or ["  " * depth + "pass"]


def _format_stmt(stmt: Stmt, depth: int) -> list[str]:
    pad = "  " * depth
    line = getattr(getattr(stmt, "loc", None), "line", 0)
    tag = f"{line:>4}| " if line else "    | "
    head = tag + pad
    match stmt:
        case Assign(targets, value):
            return [head + " = ".join([*map(format_expr, targets), format_expr(value)])]
        case AugAssign(target, op, value):
            return [head + f"{format_expr(target)} {op}= {format_expr(value)}"]
        case If(test, body, orelse):
            lines = [head + f"if {format_expr(test)}:", *_format_block(body, depth + 1)]
            if orelse:
                lines += ["    | " + pad + "else:", *_format_block(orelse, depth + 1)]
            return lines
        case For(target, iter_, body, orelse):
            lines = [head + f"for {format_expr(target)} in {format_expr(iter_)}:"]
            lines += _format_block(body, depth + 1)
            if orelse:
                lines += ["    | " + pad + "else:", *_format_block(orelse, depth + 1)]
            return lines
        case While(test, body, orelse):
            lines = [head + f"while {format_expr(test)}:", *_format_block(body, depth + 1)]
            if orelse:
                lines += ["    | " + pad + "else:", *_format_block(orelse, depth + 1)]
            return lines
        case Break():
            return [head + "break"]
        case Continue():
            return [head + "continue"]
        case Return(value):
            return [head + f"return {format_expr(value)}"]
        case Raise(exc, cause):
            return [head + f"raise {format_expr(exc)} from {format_expr(cause)}"]
        case ExprStmt(value):
            return [head + format_expr(value)]
        case Opaque(node, reason):
            first = ast.unparse(node).splitlines()[0]
            return [head + f"opaque[{reason}] {first}"]
    return [f"    | {pad}<not IR: {stmt!r}>"]


def format_function(function: Function) -> str:
    """The whole function in the compact text form, one statement a line, with source lines."""
    params = ast.unparse(function.params)
    header = f"{function.loc.line:>4}| func {function.name}({params}):"
    return "\n".join([header, *_format_block(function.body, 1)]) + "\n"
