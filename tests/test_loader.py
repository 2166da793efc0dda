"""The loader: scopes, name mangling, cells, linecache entries and forwarding code."""

from __future__ import annotations

import ast
import linecache

import pytest

from symcompile.backend import loader


@pytest.mark.parametrize("qualname, expected", [
    ("f", None),
    ("C.m", "C"),
    ("Outer.Inner.m", "Inner"),
    ("C.m.<locals>.g", "C"),
    ("f.<locals>.C.m", "C"),
    ("f.<locals>.g", None),
    ("f.<locals>.C.m.<locals>.h", "C"),
])
def test_private_class_name_is_the_nearest_enclosing_class(qualname: str, expected: str | None):
    assert loader.private_class_name(qualname) == expected


def _signature(text: str) -> ast.arguments:
    node = ast.parse(text).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node.args


def test_forwarding_code_passes_every_kind_of_argument_on():
    def original(a, b=2, /, c=3, *args, d, e=5, **kwargs):
        return None

    received = []

    def target(*args, **kwargs):
        received.append((args, kwargs))
        return "result"

    scope = loader.Scope.of(original)
    code = loader.forwarding_code(_signature("def original(a, b=2, /, c=3, *args, d, e=5, **kwargs): pass"),
                                  scope, target)
    forward = loader.make_function(code, scope)
    assert forward(1, d=4) == "result"
    assert forward(1, 9, 8, 7, d=0, z=1) == "result"
    assert received == [((1, 2, 3), {"d": 4, "e": 5}), ((1, 9, 8, 7), {"d": 0, "e": 5, "z": 1})]


def test_generated_functions_share_the_originals_cells_and_defaults():
    def outer():
        seen = []

        def original(x, acc=[]):
            acc.append(x)
            seen.append(x)
            return len(acc)

        return original, seen

    original, seen = outer()
    scope = loader.Scope.of(original)
    text = "def original(x, acc=[]):\n    acc.append(x)\n    seen.append(x)\n    return len(acc)\n"
    generated, filename = loader.load(text, scope)
    assert generated(1) == 1 and original(2) == 2 and generated(3) == 3
    assert seen == [1, 2, 3]
    assert generated.__code__.co_freevars == original.__code__.co_freevars
    assert generated.__closure__[0] is original.__closure__[0]
    assert linecache.getlines(filename) == text.splitlines(keepends=True)
    loader.forget_source(filename)
    assert filename not in linecache.cache


def test_bound_objects_get_cells_of_their_own():
    def original(x):
        return x

    scope = loader.Scope.of(original)
    marker = object()
    bound_scope = loader.Scope(**{**scope.__dict__, "bindings": {"thing": marker}})
    generated, _ = loader.load("def original(x):\n    return (x, thing)\n", bound_scope)
    assert generated(1) == (1, marker)
    assert generated.__code__.co_freevars == ("thing",)
    assert "thing" not in original.__globals__


def test_a_parsed_text_handed_over_is_compiled_once_and_never_wrong_after():
    """Code generation hands the loader the text it parsed; the loader edits that tree to
    compile it, so a second load of the same tree parses the text again (same function)."""
    def original(x):
        return x

    scope = loader.Scope.of(original)
    text = "def original(x):\n    y = x * 2\n    return y + 1\n"
    parsed = ast.parse(text)
    first, _ = loader.load(text, scope, parsed=parsed)
    second, _ = loader.load(text, scope, parsed=parsed)
    assert first(3) == second(3) == 7
    assert first.__code__.co_code == second.__code__.co_code
