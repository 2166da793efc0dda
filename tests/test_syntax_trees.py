"""ir.syntax_trees.copy_tree: a deep copy of syntax trees that agrees with `copy.deepcopy` on
real code (every node, position and marker), shares no node that could be edited, and runs its
documented example."""

from __future__ import annotations

import ast
import copy
import doctest
import pathlib

import pytest

import symcompile
from symcompile.ir import syntax_trees
from symcompile.ir.syntax_trees import copy_tree

SOURCES = sorted(pathlib.Path(symcompile.__file__).parent.rglob("*.py"))
SAMPLE = sorted(SOURCES, key=lambda path: path.stat().st_size)[::16]


@pytest.mark.parametrize("path", SAMPLE, ids=lambda path: path.name)
def test_copy_tree_copies_as_deepcopy_does(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):  # a marker as the front end sets (BOUND_AS)
        if isinstance(node, ast.FunctionDef):
            node.symcompile_bound_as = "_C" + node.name  # type: ignore[attr-defined]
    copied = copy_tree(tree)
    assert ast.dump(copied, include_attributes=True) == \
        ast.dump(copy.deepcopy(tree), include_attributes=True)
    assert [getattr(node, "symcompile_bound_as", None) for node in ast.walk(copied)] == \
        [getattr(node, "symcompile_bound_as", None) for node in ast.walk(tree)]
    originals = {id(node) for node in ast.walk(tree) if node._fields}
    assert not any(id(node) in originals for node in ast.walk(copied) if node._fields)


def test_an_edit_of_the_copy_leaves_the_original_alone() -> None:
    tree = ast.parse("def f(a, b=[1]):\n    return a").body[0]
    copied = copy_tree(tree)
    copied.args.args[0].arg = "z"
    copied.args.defaults[0].elts.append(ast.Constant(2))
    assert ast.unparse(tree) == "def f(a, b=[1]):\n    return a"


def test_documented_example() -> None:
    assert doctest.testmod(syntax_trees).failed == 0
