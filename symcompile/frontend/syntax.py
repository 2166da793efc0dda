"""Facts about Python's syntax that the front end and the loader share.

The front end compiles a def back where it was defined to check it is the function it was given
(with the original's `from __future__` flags); the loader compiles generated defs with the same
flags. Both build `def` and `class` nodes that must carry no type parameters, and both need the
class whose name CPython mangles `__private` names with.
"""

from __future__ import annotations
import __future__

import ast
import sys
from typing import TypeVar

_Def = TypeVar("_Def", ast.FunctionDef, ast.ClassDef)

FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


def private_class_name(qualname: str) -> str | None:
    """The class whose name mangles `__private` names in this function, if any.

    The nearest enclosing class in the qualified name: `C.m` and `C.m.<locals>.g` → `C`.
    """
    parts = qualname.split(".")[:-1]
    for index in range(len(parts) - 1, -1, -1):
        is_function = index + 1 < len(parts) and parts[index + 1] == "<locals>"
        if parts[index] != "<locals>" and not is_function:
            return parts[index]
    return None


def with_type_params(node: _Def) -> _Def:
    """`node`, a def or class built here, with no type parameters (Python 3.12 added them)."""
    if sys.version_info >= (3, 12):
        node.type_params = []
    return node
