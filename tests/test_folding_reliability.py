"""Folding and hoisting stay exact and cheap: every constant the folder makes is written into
the generated code bit for bit; folding never runs an operation whose cost is unbounded (in a
branch that never runs, too); hoisting never moves a costly operation out of a loop that may
not run; fastmath rewrites change float values only, never exceptions; NaN signs that the
original fixes stay fixed."""

from __future__ import annotations

import math
import struct
import types
from typing import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcompile as sc
from symcompile import codegen, frontend, ir

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def bits(value: object) -> object:
    """`value` identified by type and every bit (the sign and payload of a NaN included)."""
    if type(value) is float:
        return float, struct.pack("<d", value)
    if type(value) is complex:
        return complex, bits(value.real), bits(value.imag)
    if type(value) is tuple:
        return tuple, tuple(bits(item) for item in value)
    if isinstance(value, np.generic):
        return type(value), value.tobytes()
    return type(value), value


# ---------------------------------------------------------------- constants are spelled exactly

_FLOAT_TEXTS = ["0.0", "-0.0", "1.5", "-2.5", "float('inf')", "-float('inf')", "float('nan')",
                "-float('nan')", "1e300", "5e-324"]
_INT_TEXTS = ["0", "-1", "7", "-(2 ** 4000)", "2 ** 4000 - 1", "True"]


def _complex_texts() -> st.SearchStrategy[str]:
    part = st.sampled_from(_FLOAT_TEXTS)
    return st.builds(lambda real, imag: f"complex({real}, {imag})", part, part) | \
        st.sampled_from(["-1j * 0", "-0j", "-(0j)", "1j * -0.0", "-2.5j"])


def _constant_texts() -> st.SearchStrategy[str]:
    leaves = st.sampled_from(_FLOAT_TEXTS) | st.sampled_from(_INT_TEXTS) | _complex_texts()
    return st.recursive(leaves, lambda items: st.lists(items, min_size=1, max_size=3).map(
        lambda texts: "(" + ", ".join(texts) + ",)"), max_leaves=5)


@SETTINGS
@given(text=_constant_texts())
def test_never_wrong_every_folded_constant_is_spelled_bit_for_bit(
        make_module: Callable[[str], types.ModuleType], text: str) -> None:
    module = make_module(f"def f(x):\n    return x, {text}\n")
    compiled = sc.symbolic(module.f)
    assert bits(compiled(1)) == bits(module.f(1)), compiled.source


def test_never_wrong_negative_zero_imaginary_part_compiles(
        make_module: Callable[[str], types.ModuleType]) -> None:
    module = make_module("def f(x):\n    return x + -1j * 0\n")
    compiled = sc.symbolic(module.f)
    assert bits(compiled(1)) == bits(module.f(1)) == bits(complex(1.0, 0.0))
    assert "-1j" not in compiled.source  # folded, then written as a bound name


_TRICKY = [0.0, -0.0, math.nan, -math.nan, math.inf, -math.inf, 2 ** 4000, -(2 ** 4000), -7,
           np.float32(-0.0), np.float64(math.nan), np.float32(-math.inf), np.int8(-3)] + \
    [complex(real, imag) for real in (0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan)
     for imag in (0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, 1.0, -1.0)]


@pytest.mark.parametrize("value", _TRICKY + [tuple(_TRICKY[:8]), (complex(0.0, -0.0), (-0.0,))],
                         ids=repr)
def test_never_wrong_codegen_returns_any_constant_bit_for_bit(value: object) -> None:
    function = frontend.function_from_text("def f():\n    return None\n")
    generated = codegen.render_function(function.with_body((ir.Return(ir.Const(value)),)))
    scope = dict(generated.bindings)
    exec(generated.source, scope)
    assert bits(scope["f"]()) == bits(value), generated.source
