"""Two walks over Python syntax trees that the back end runs on every compilation, written as
loops: the standard library's `ast.fix_missing_locations` and `ast.dump` recurse through nested
functions, and each call leaves a reference cycle (function → cell → function) that holds its
tree until the cyclic garbage collector runs.

Used by codegen (is the rendered text the tree it was rendered from? where are the `global`
declarations?) and the loader (the wrappers it builds around the generated def).
"""

from __future__ import annotations

import ast
from typing import Iterator, TypeVar

Node = TypeVar("Node", bound=ast.AST)

_LOCATIONS = (("lineno", False), ("col_offset", False), ("end_lineno", True),
              ("end_col_offset", True))


def located(node: Node, inside: ast.AST | None = None) -> Node:
    """`node` with the positions it lacks filled in from its parent's (what
    `ast.fix_missing_locations` does; the root's default is line 1, column 0). A subtree
    `inside` it that has every position already is not walked.

    >>> tree = located(ast.Expression(ast.BinOp(ast.Constant(1), ast.Add(), ast.Constant(2))))
    >>> tree.body.right.lineno, tree.body.right.col_offset
    (1, 0)
    """
    pending: list[tuple[ast.AST, tuple[int | None, ...]]] = [(node, (1, 0, 1, 0))]
    while pending:
        current, inherited = pending.pop()
        own = list(inherited)
        attributes = current._attributes
        for index, (name, optional) in enumerate(_LOCATIONS):
            if name not in attributes:
                continue
            value = getattr(current, name, None)
            # `lineno`/`col_offset` count as given once set (to anything); the end positions
            # only when not None
            given = value is not None if optional else hasattr(current, name)
            if given:
                own[index] = value
            else:
                setattr(current, name, own[index])
        children = tuple(own)
        pending.extend((child, children) for child in ast.iter_child_nodes(current)
                       if child is not inside)
    return node


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
    pending: list[tuple[object, object]] = [(first, second)]
    while pending:
        left, right = pending.pop()
        if isinstance(left, ast.AST):
            if type(left) is not type(right):
                return False
            for name in left._fields:
                pending.append((_field(left, name), _field(right, name)))
        elif isinstance(left, list):
            if not isinstance(right, list) or len(left) != len(right):
                return False
            pending.extend(zip(left, right))
        elif left is _ABSENT or right is _ABSENT:
            if left is not right:
                return False
        elif isinstance(right, (ast.AST, list)) or repr(left) != repr(right):
            return False
    return True


def _field(node: ast.AST, name: str) -> object:
    value = getattr(node, name, _ABSENT)
    if value is None and getattr(type(node), name, ...) is None or type(value) is list and not value:
        return _ABSENT
    return value


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
