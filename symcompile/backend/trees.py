"""The walks over Python syntax trees that the back end runs on every compilation, written as
loops: the standard library's `ast.fix_missing_locations` and `ast.dump` recurse through nested
functions and leave a reference cycle (function → cell → function) per call that holds its
tree until the cyclic garbage collector runs (the walk over every node, shared with the front
end, is `ir.syntax_trees.walk`).

Used by codegen (is the rendered text the tree it was rendered from? where are the `global`
declarations?) and the loader (the wrappers it builds around the generated def, the lines it
moves every node to).
"""

from __future__ import annotations

import ast
from typing import Iterator, TypeVar

Node = TypeVar("Node", bound=ast.AST)

def located(node: Node, inside: ast.AST | None = None) -> Node:
    """`node` with the positions it lacks filled in from its parent's (what
    `ast.fix_missing_locations` does; the root's default is line 1, column 0). A subtree
    `inside` it that has every position already is not walked.

    >>> tree = located(ast.Expression(ast.BinOp(ast.Constant(1), ast.Add(), ast.Constant(2))))
    >>> tree.body.right.lineno, tree.body.right.col_offset
    (1, 0)
    """
    pending: list[tuple[ast.AST, object, object, object, object]] = [(node, 1, 0, 1, 0)]
    while pending:
        current, line, column, end_line, end_column = pending.pop()
        if current._attributes:  # (the four positions, for every node that has any)
            # `lineno`/`col_offset` count as given once set (to anything); the end positions
            # only when not None
            line, column, end_line, end_column = (
                _given(current, "lineno", line), _given(current, "col_offset", column),
                _given_end(current, "end_lineno", end_line),
                _given_end(current, "end_col_offset", end_column))
        for name in current._fields:
            value = getattr(current, name, None)
            if isinstance(value, ast.AST):
                if value is not inside:
                    pending.append((value, line, column, end_line, end_column))
            elif type(value) is list:
                pending += [(item, line, column, end_line, end_column) for item in value
                            if isinstance(item, ast.AST) and item is not inside]
    return node


def _given(node: ast.AST, name: str, inherited: object) -> object:
    """`node`'s position `name` if it is set, else `inherited`, set on it."""
    try:
        return getattr(node, name)
    except AttributeError:
        setattr(node, name, inherited)
        return inherited


def _given_end(node: ast.AST, name: str, inherited: object) -> object:
    """`node`'s end position `name` unless it is None, else `inherited`, set on it."""
    value = getattr(node, name, None)
    if value is None:
        setattr(node, name, inherited)
        return inherited
    return value


_ABSENT = object()


def same_tree(first: ast.AST, second: ast.AST) -> bool:
    """Whether the two trees are equal field by field, positions aside: what comparing their
    `ast.dump`s tells (constants compared by `repr`, so `1`, `1.0`, `True` and `-0.0` differ;
    a field that is missing, None by default, or an empty list counts as absent).

    >>> same_tree(ast.parse("x = 1"), ast.parse("x  =  (1)"))
    True
    >>> same_tree(ast.parse("x = 1"), ast.parse("x = 1.0"))
    False
    """
    pending: list[tuple[ast.AST, object]] = [(first, second)]
    while pending:
        left, right = pending.pop()
        kind = type(left)
        if kind is not type(right):
            return False
        for name, optional in _FIELDS.get(kind) or _fields_of(kind):
            value, other = getattr(left, name, _ABSENT), getattr(right, name, _ABSENT)
            if type(value) is list and value and type(other) is list:
                if len(value) != len(other):
                    return False
                for item, other_item in zip(value, other):
                    if isinstance(item, ast.AST):
                        pending.append((item, other_item))
                    elif not _same_leaf(item, other_item):
                        return False
            elif isinstance(value, ast.AST):
                pending.append((value, other))
            elif not _same_leaf(_leaf(value, optional), _leaf(other, optional)):
                return False
    return True


def _leaf(value: object, optional: bool) -> object:
    """A field's value that is no node: absent if missing, None by default, or an empty list."""
    return _ABSENT if value is None and optional or type(value) is list and not value else value


def _same_leaf(left: object, right: object) -> bool:
    if type(left) is str and type(right) is str:  # (the same repr exactly when equal)
        return left == right
    if left is _ABSENT or right is _ABSENT:
        return left is right
    return not isinstance(right, (ast.AST, list)) and repr(left) == repr(right)


# for each node class, its fields, each with whether None is its default (`_fields_of`)
_FIELDS: dict[type[ast.AST], tuple[tuple[str, bool], ...]] = {}


def _fields_of(kind: type[ast.AST]) -> tuple[tuple[str, bool], ...]:
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple((name, getattr(kind, name, ...) is None)
                                       for name in kind._fields)
    return fields


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def statement_blocks(body: list[ast.stmt], into_definitions: bool = True,
                     ) -> Iterator[list[ast.stmt]]:
    r"""`body` and every block of statements inside it (`orelse`, `finalbody`, the bodies of
    handlers and match cases), outermost first; the blocks of nested defs and classes only
    `into_definitions`. A block's own blocks are found before it is given, so the caller may
    replace its statements (what replaces them is not walked).

    >>> tree = ast.parse("if a:\n    def f():\n        return 1\nelse:\n    pass")
    >>> [len(block) for block in statement_blocks(tree.body, into_definitions=False)]
    [1, 1, 1]
    """
    pending = [body]
    while pending:
        block = pending.pop()
        for stmt in block:
            if into_definitions or not isinstance(stmt, _DEFINITIONS):
                pending += _blocks_in(stmt)
        yield block


def _blocks_in(stmt: ast.stmt) -> list[list[ast.stmt]]:
    blocks = [block for part in ("body", "orelse", "finalbody")
              if isinstance(block := getattr(stmt, part, None), list)]
    for part in ("handlers", "cases"):
        blocks += [child.body for child in getattr(stmt, part, ())]
    return blocks
