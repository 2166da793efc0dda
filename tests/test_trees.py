"""backend.trees: the loop versions of `ast.fix_missing_locations` and of comparing `ast.dump`s
agree with the standard library's on real code (every module of symcompile, parsed), and leave
no reference cycle behind."""

from __future__ import annotations

import ast
import copy
import doctest
import gc
import pathlib

import pytest

import symcompile
from symcompile.backend import trees
from symcompile.ir import syntax_trees

SOURCES = sorted(pathlib.Path(symcompile.__file__).parent.rglob("*.py"))
# a few modules of every size
SAMPLE = sorted(SOURCES, key=lambda path: path.stat().st_size)[::16]


def _without_positions(tree: ast.AST) -> ast.AST:
    tree = copy.deepcopy(tree)
    for node in ast.walk(tree):
        for name in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if name in node._attributes and hasattr(node, name) and not isinstance(node, ast.stmt):
                delattr(node, name)
    return tree


@pytest.mark.parametrize("path", SAMPLE, ids=lambda path: path.name)
def test_located_fills_positions_as_fix_missing_locations(path: pathlib.Path) -> None:
    stripped = _without_positions(ast.parse(path.read_text()))
    expected = ast.fix_missing_locations(copy.deepcopy(stripped))
    got = trees.located(copy.deepcopy(stripped))
    assert ast.dump(got, include_attributes=True) == ast.dump(expected, include_attributes=True)


@pytest.mark.parametrize("path", SAMPLE, ids=lambda path: path.name)
def test_same_tree_agrees_with_comparing_dumps(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text())
    assert trees.same_tree(tree, ast.parse(ast.unparse(tree)))
    changed = copy.deepcopy(tree)
    constants = [node for node in ast.walk(changed) if isinstance(node, ast.Constant)]
    constants[-1].value = (constants[-1].value, "changed")
    assert ast.dump(changed) != ast.dump(tree)
    assert not trees.same_tree(tree, changed)


@pytest.mark.parametrize(("first", "second", "same"), [
    ("x = 1", "x = (1)", True),
    ("x = 1", "x = 1.0", False),
    ("x = 1", "x = True", False),
    ("x = 0.0", "x = -0.0", False),  # (the IR's minus zero is a constant, `-0.0` a negation)
    ("f(a, b)", "f(b, a)", False),
    ("f(a, b)", "f(a, b, c)", False),
    ("def f(x): return x", "def f(x):\n    return x", True),
    ("a.b", "a['b']", False),
])
def test_same_tree_compares_constants_by_repr_and_structure(first: str, second: str,
                                                             same: bool) -> None:
    assert trees.same_tree(ast.parse(first), ast.parse(second)) is same
    assert (ast.dump(ast.parse(first)) == ast.dump(ast.parse(second))) is same


def test_located_and_same_tree_leave_no_reference_cycle() -> None:
    tree = ast.parse(SOURCES[0].read_text())
    gc.collect()
    gc.disable()
    try:
        trees.located(_without_positions(tree))
        trees.same_tree(tree, tree)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_examples_in_the_docstrings() -> None:
    assert doctest.testmod(trees).failed == 0


def test_located_leaves_the_subtree_it_is_told_is_located() -> None:
    inner = ast.Return(ast.Name("x", ast.Load()))
    outer = ast.Module([ast.If(ast.Constant(True), [inner], [])], type_ignores=[])
    trees.located(outer, inside=inner)
    assert outer.body[0].lineno == 1 and not hasattr(inner, "lineno")
    trees.located(outer)
    assert inner.lineno == 1 and inner.value.col_offset == 0


@pytest.mark.parametrize("path", SAMPLE, ids=lambda path: path.name)
def test_walk_meets_the_nodes_ast_walk_meets(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text())
    walked = list(syntax_trees.walk(tree))
    assert walked[0] is tree
    assert sorted(map(id, walked)) == sorted(map(id, ast.walk(tree)))
