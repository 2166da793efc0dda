"""The op table: the single source of truth for every operator the IR knows.

The front end maps Python's operator AST classes to op names through this table, code generation
maps them back, the IR printer uses the spelling, and later passes use the evaluator (the real
Python operation, so a folded value is bit-identical to what the program would compute) and the
purity flag. Nothing else in symcompile lists operators.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass
from typing import Callable, Literal

OpKind = Literal["unary", "binary", "compare"]


@dataclass(frozen=True)
class OpInfo:
    """One operator: `name` in the IR, its `spelling` in Python, its AST class, its arity kind,
    the real Python `evaluate` function, and whether it is `pure` on numbers and arrays (no side
    effects; it may still raise)."""

    name: str
    spelling: str
    ast_class: type[ast.AST]
    kind: OpKind
    evaluate: Callable[..., object]
    pure: bool = True

    @property
    def arity(self) -> int:
        return 1 if self.kind == "unary" else 2


def _is_not(a: object, b: object) -> bool:
    return a is not b


def _not_in(a: object, b: object) -> bool:
    return a not in b  # type: ignore[operator]  # any object: Python raises the TypeError


def _contains(a: object, b: object) -> bool:
    return a in b  # type: ignore[operator]  # any object: Python raises the TypeError


_TABLE: tuple[OpInfo, ...] = (
    # binary arithmetic and bitwise operators
    OpInfo("add", "+", ast.Add, "binary", operator.add),
    OpInfo("sub", "-", ast.Sub, "binary", operator.sub),
    OpInfo("mul", "*", ast.Mult, "binary", operator.mul),
    OpInfo("truediv", "/", ast.Div, "binary", operator.truediv),
    OpInfo("floordiv", "//", ast.FloorDiv, "binary", operator.floordiv),
    OpInfo("mod", "%", ast.Mod, "binary", operator.mod),
    OpInfo("pow", "**", ast.Pow, "binary", operator.pow),
    OpInfo("matmul", "@", ast.MatMult, "binary", operator.matmul),
    OpInfo("lshift", "<<", ast.LShift, "binary", operator.lshift),
    OpInfo("rshift", ">>", ast.RShift, "binary", operator.rshift),
    OpInfo("bitor", "|", ast.BitOr, "binary", operator.or_),
    OpInfo("bitxor", "^", ast.BitXor, "binary", operator.xor),
    OpInfo("bitand", "&", ast.BitAnd, "binary", operator.and_),
    # unary operators
    OpInfo("neg", "-", ast.USub, "unary", operator.neg),
    OpInfo("pos", "+", ast.UAdd, "unary", operator.pos),
    OpInfo("invert", "~", ast.Invert, "unary", operator.invert),
    OpInfo("not", "not ", ast.Not, "unary", operator.not_),
    # comparisons (a chain `a < b < c` is one Compare node holding two of these)
    OpInfo("eq", "==", ast.Eq, "compare", operator.eq),
    OpInfo("ne", "!=", ast.NotEq, "compare", operator.ne),
    OpInfo("lt", "<", ast.Lt, "compare", operator.lt),
    OpInfo("le", "<=", ast.LtE, "compare", operator.le),
    OpInfo("gt", ">", ast.Gt, "compare", operator.gt),
    OpInfo("ge", ">=", ast.GtE, "compare", operator.ge),
    OpInfo("is", "is", ast.Is, "compare", operator.is_),
    OpInfo("isnot", "is not", ast.IsNot, "compare", _is_not),
    OpInfo("in", "in", ast.In, "compare", _contains),
    OpInfo("notin", "not in", ast.NotIn, "compare", _not_in),
)

OPS: dict[str, OpInfo] = {info.name: info for info in _TABLE}
OP_BY_AST_CLASS: dict[type[ast.AST], OpInfo] = {info.ast_class: info for info in _TABLE}


# the binary operators whose special method is not named after the op (`__or__` for "bitor")
_METHOD_STEMS = {"bitor": "or", "bitxor": "xor", "bitand": "and"}


def binary_methods(name: str) -> tuple[str, str] | None:
    """The special methods `a <op> b` calls, `type(a)`'s and the reflected one of `type(b)`
    (`__add__` and `__radd__` for "add"), or None where `name` is not a binary operator."""
    if name not in OPS or OPS[name].kind != "binary":
        return None
    stem = _METHOD_STEMS.get(name, name)
    return f"__{stem}__", f"__r{stem}__"


def op_for_ast(node: ast.AST) -> OpInfo:
    """The table entry for an operator AST node such as `ast.Add()`."""
    return OP_BY_AST_CLASS[type(node)]
