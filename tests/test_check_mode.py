"""Check mode (`@symbolic(check=True)`): both versions run under the oracle on every call; a
difference names the first pass that changes the result."""

from __future__ import annotations

import dataclasses

import pytest

import symcompile as sc
from symcompile import ir
from symcompile.ir.rewrite import map_statement_expressions, map_statements
from symcompile.passes import pipeline


def drop_plus_zero(function: ir.Function) -> ir.Function:
    """A wrong pass, on purpose: `x + 0.0 → x` for anything (wrong for -0.0)."""
    def rewrite(expr: ir.Expr) -> ir.Expr:
        match expr:
            case ir.Op("add", (left, ir.Const(0.0))):
                return left
        return expr

    body = map_statements(function.body, lambda stmt: map_statement_expressions(stmt, rewrite))
    return function.with_body(body)


def plus_zero(x):
    return x + 0.0


def appends(items, x):
    print("appending", x)
    items.append(x * 2)
    return len(items)


def test_a_difference_names_the_first_pass_that_changes_the_result() -> None:
    checked = sc.symbolic(plus_zero, check=True, passes=[*pipeline.PASSES, drop_plus_zero])
    assert checked(1.5) == 1.5  # the same for most inputs
    with pytest.raises(sc.CheckError) as caught:
        checked(-0.0)
    message = str(caught.value)
    assert "plus_zero(-0.0) differs from the original" in message
    assert "first pass that changes the result: drop_plus_zero" in message
    assert "original: returned 0.0" in message


def test_a_correct_function_runs_once_for_the_caller(capsys: pytest.CaptureFixture[str]) -> None:
    checked = sc.symbolic(appends, check=True)
    items = [1]
    assert checked(items, 5) == 2
    assert items == [1, 10]  # the caller's list changed once
    assert capsys.readouterr().out == "appending 5\n"  # printed once


def test_the_culprit_search_reports_the_rules_a_pass_applied() -> None:
    def float_algebra(x):
        return 1.0 * x

    def unguarded(function: ir.Function) -> ir.Function:
        """Wrong on purpose: drops the type checks, so the float version runs for ints too."""
        kept = tuple(a for a in function.assumptions if not a.of_type)
        return function if kept == function.assumptions else \
            dataclasses.replace(function, assumptions=kept)

    checked = sc.symbolic(float_algebra, check=True, passes=[*pipeline.PASSES, unguarded])
    assert checked(2.0) == 2.0  # compiled for a float x: `return x`
    with pytest.raises(sc.CheckError, match="first pass that changes the result: unguarded"):
        checked(2)  # 1.0 * 2 is 2.0; the float version, unchecked, returns 2
