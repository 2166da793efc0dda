"""Walking and copying Python syntax trees, faster than the standard library's general tools:
the front end and the back end walk and copy a few trees in every compilation.

What the IR keeps of the user's code (a def's parameters, opaque statements) is a copy, so that
no later stage that edits a tree in place (code generation, the loader) can change the source
or another version. `copy.deepcopy` copies through the pickle protocol and a memo, about five
times slower than a walk that knows the shape of a tree.
"""

from __future__ import annotations

import ast
from typing import Iterator, TypeVar

Node = TypeVar("Node", bound=ast.AST)


def copy_tree(node: Node) -> Node:
    """A deep copy of the tree `node`: every node new, with all its attributes (positions and
    the markers symcompile sets), lists copied, other values (constants, names) shared, as
    immutable. Field-less nodes (`ast.Load()`, `ast.Add()`...) are shared, as the parser
    shares them.

    >>> tree = ast.parse("f(x, *ys)").body[0]
    >>> copied = copy_tree(tree)
    >>> copied is not tree and ast.dump(copied) == ast.dump(tree)
    True
    >>> copied.value.args[0] is tree.value.args[0]
    False
    """
    return _copied(node)  # type: ignore[return-value]


def _copied(value: object) -> object:
    if isinstance(value, ast.AST):
        if not value._fields and not vars(value):
            return value
        new = value.__class__.__new__(value.__class__)
        for name, part in vars(value).items():
            setattr(new, name, _copied(part))
        return new
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of the tree `node`, itself first (the nodes `ast.walk` gives, in another
    order: depth first, a node before its children; faster).

    >>> [type(part).__name__ for part in walk(ast.parse("x = 1").body[0])]
    ['Assign', 'Constant', 'Name', 'Store']
    """
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        for name in current._fields:
            value = getattr(current, name, None)
            if isinstance(value, ast.AST):
                pending.append(value)
            elif type(value) is list:
                pending += [item for item in value if isinstance(item, ast.AST)]
