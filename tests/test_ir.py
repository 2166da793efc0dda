"""The IR: constant keys by type and bits, structural equality, the printer and the verifier."""

from __future__ import annotations

import ast
import math

import numpy as np
import pytest

from symcompile import ir
from symcompile.frontend import build as frontend
from symcompile.ir.verify import IRError, verify

A, B = ir.Name("a"), ir.Name("b")


def test_constants_compare_by_type_and_bits():
    assert ir.Const(1) != ir.Const(1.0)
    assert ir.Const(1) != ir.Const(True)
    assert ir.Const(0.0) != ir.Const(-0.0)
    assert ir.Const(math.nan) != ir.Const(-math.nan)  # a NaN's sign is part of its value
    assert hash(ir.Const(math.nan)) == hash(ir.Const(float("nan")))
    assert ir.Const(1j) != ir.Const(complex(-0.0, 1))
    assert ir.Const((1, 2.0)) != ir.Const((1, 2))
    assert ir.Const((0.0,)) != ir.Const((-0.0,))
    assert ir.Const("x") == ir.Const("x")


def test_objects_without_literal_spelling_are_the_same_constant_only_if_identical():
    first, second = np.zeros(3), np.zeros(3)
    assert ir.Const(first) == ir.Const(first)
    assert ir.Const(first) != ir.Const(second)
    assert len({ir.Const(first), ir.Const(first), ir.Const(second)}) == 2


def test_expressions_are_structural_so_equal_subtrees_can_be_shared():
    left = ir.Op("add", (A, ir.Const(1)))
    right = ir.Op("add", (A, ir.Const(1)))
    assert left == right and hash(left) == hash(right)
    assert left != ir.Op("add", (A, ir.Const(1.0)))
    assert ir.Assign((A,), left, ir.Loc(3)) == ir.Assign((A,), right, ir.Loc(9))


def test_opaque_nodes_compare_by_their_code():
    first = ir.OpaqueExpr(ast.parse("[v for v in x]", mode="eval").body, "comprehension")
    second = ir.OpaqueExpr(ast.parse("[v  for v in x]", mode="eval").body, "comprehension")
    third = ir.OpaqueExpr(ast.parse("[w for w in x]", mode="eval").body, "comprehension")
    assert first == second and hash(first) == hash(second)
    assert first != third
    assert first.text == "[v for v in x]"


FANCY = '''
def fancy_func(a, b, c, d):
    e = add(a, b)
    if e > 0 and not d:
        print(f"{e}", sep="")
    for i in range(c):
        e += i
    return e
'''


def test_printer_shows_statements_with_source_lines_and_prefix_expressions():
    function = frontend.function_from_text(FANCY)
    assert ir.format_function(function) == (
        "   2| func fancy_func(a, b, c, d):\n"
        "   3|   e = (call add a b)\n"
        "   4|   if (and (compare e gt 0) (not d)):\n"
        "   5|     (call print (opaque \"f'{e}'\") sep='')\n"
        "   6|   for i in (call range c):\n"
        "   7|     e add= i\n"
        "   8|   return e\n"
    )


def test_printer_covers_every_expression_kind():
    text = "x[1:2, ::3], (y if p else -z), {**m, 'k': [*s]}, {1}, (), a is not b, f(*g, **h).t"
    expr = frontend.build_expr(ast.parse(text, mode="eval").body)
    assert ir.format_expr(expr) == (
        "(tuple (item x (tuple (slice 1 2 _) (slice _ _ 3))) (ifexp p y (neg z)) "
        "(dict **:m 'k':(list *s)) (set 1) (tuple) (compare a isnot b) "
        "(attr (call f *g **=h) t))"
    )


def _function(*body: ir.Stmt) -> ir.Function:
    return ir.Function("f", ast.arguments([], [], None, [], [], None, []), None, tuple(body))


@pytest.mark.parametrize("statement, message", [
    (ir.Break(), "break outside a loop"),
    (ir.If(A, (ir.Continue(),), ()), "continue outside a loop"),
    (ir.Return(ir.Op("add", (A,))), "add takes 2 operands"),
    (ir.Return(ir.Op("lt", (A, B))), "unknown operator"),
    (ir.Return(ir.Compare(("lt",), (A,))), "malformed comparison"),
    (ir.Return(ir.BoolOp("and", (A,))), "malformed boolean"),
    (ir.Return(ir.Slice(None, None, None)), "slice outside a subscript"),
    (ir.Return(ir.Starred(A)), "starred expression"),
    (ir.Return(ir.Name("not a name")), "bad variable name"),
    (ir.Return(ir.Name("class")), "bad variable name"),
    (ir.Assign((ir.Call(A, ()),), B), "cannot assign to"),
    (ir.Assign((ir.Build("tuple", (ir.Starred(A), ir.Starred(B))),), B), "more than one starred"),
    (ir.AugAssign(ir.Build("tuple", (A,)), "add", B), "bad augmented target"),
    (ir.AugAssign(A, "not", B), "bad augmented operator"),
    (ir.Raise(None, A), "raise ... from without an exception"),
    (ir.ExprStmt(ir.Call(A, (), (ir.Keyword("1x", B),))), "bad keyword"),
    (ir.ExprStmt(ir.Attribute(A, "")), "bad attribute name"),
    (ir.ExprStmt("a + b"), "not an IR expression"),  # type: ignore[arg-type]
])
def test_verifier_rejects_broken_ir(statement: ir.Stmt, message: str):
    with pytest.raises(IRError, match=message) as info:
        verify(_function(statement))
    assert "--- in IR ---" in str(info.value)


def test_verifier_rejects_a_body_that_is_not_a_tuple():
    function = _function()
    broken = ir.Function(function.name, function.params, None, [ir.Break()])  # type: ignore[arg-type]
    with pytest.raises(IRError, match="must be a tuple"):
        verify(broken)


def test_verifier_rejects_one_statement_object_at_two_places():
    # analyses key facts by id(stmt): a shared object would mix up the facts of both places
    shared = ir.Assign((A,), B)
    with pytest.raises(IRError, match="one statement object at two places: Assign"):
        verify(_function(shared, ir.If(A, (shared,), ())))
    assert verify(_function(shared, ir.If(A, (ir.Assign((A,), B),), ())))


def test_verifier_remembers_a_statement_only_where_it_was_checked():
    # in a compilation, statements checked once are not checked again in the next version of
    # a function; a `break` checked inside a loop (and an `if` holding one) is still refused
    # outside one
    from symcompile.ir.names import statement_facts, statement_facts_remembered
    with statement_facts_remembered():
        stop = ir.If(A, (ir.Break(),), ())
        assert verify(_function(ir.While(A, (stop,), ())))
        with pytest.raises(IRError, match="break outside a loop"):
            verify(_function(stop))
        kept = ir.Assign((A,), B)
        assert verify(_function(kept))
        with pytest.raises(IRError, match="add takes 2 operands"):
            verify(_function(kept, ir.Return(ir.Op("add", (A,)))))
        facts = statement_facts()
        assert facts is not None and facts.checked[id(kept), False] is kept
    assert statement_facts() is None  # nothing kept after the compilation


def test_verifier_accepts_loops_slices_and_stars_where_python_does():
    loop = ir.While(A, (ir.If(B, (ir.Break(),), (ir.Continue(),)),), (ir.Return(None),))
    target = ir.Build("tuple", (A, ir.Starred(B)))
    unpack = ir.Assign((target,), ir.Subscript(A, ir.Build("tuple", (ir.Slice(None, A, None), B))))
    call = ir.ExprStmt(ir.Call(A, (ir.Starred(B),), (ir.Keyword(None, A), ir.Keyword("k", B))))
    function = _function(loop, unpack, call)
    assert verify(function) is function


def _loop_function() -> ir.Function:
    source = "def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"
    return frontend.build_function(frontend.FunctionSource(ast.parse(source).body[0], "<t>",
                                                           tuple(source.splitlines(True))))


def test_node_kinds_say_which_kinds_of_node_a_function_holds():
    from symcompile.ir.names import node_kinds
    loop = _loop_function()
    assert {ir.For, ir.AugAssign, ir.Return, ir.Name} <= node_kinds(loop)
    assert ir.Call not in node_kinds(loop) and ir.While not in node_kinds(loop)
    assert node_kinds(loop) is node_kinds(loop)  # worked out once per function object


def test_remembered_name_sets_are_handed_out_as_copies():
    from symcompile.ir.names import all_names, bound_names, local_names
    loop = _loop_function()
    for query in (all_names, bound_names, local_names):
        names = query(loop)
        assert {"s", "x", "xs"} <= names
        names.add("taken_by_a_pass")  # passes add the fresh names they take
        assert "taken_by_a_pass" not in query(loop)
