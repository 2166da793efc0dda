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
from symcompile import ir
from symcompile.backend import codegen
from symcompile.frontend import build as frontend

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


# ---------------------------------------------------------------- folding never gets stuck

_BOMBS = [
    "pow(10, 10**8, None)", "pow(base=10, exp=10**8, mod=None)", "round(7, -10**7)",
    "round(number=7, ndigits=-10**7)", "'%0100000000d' % 0", "(1, 2) * 10**9", "'ab' * 10**9",
    "1 << 10**9", "10**10**8", "math.factorial(10**6)", "math.comb(10**7, 5 * 10**6)",
    "math.perm(10**6)", "pow(3, 2**4096 - 1, 2**4096 - 3)", "math.prod((2**4000,) * 200)",
    "sum(((1,) * 4000,) * 250, ())", "int('9' * 4000) ** 3", "np.ones(10**9)", "str(10**5000)",
]

_RUN_BOMBS = """
import importlib.util, json, sys, time
import symcompile as sc
results = []
for number, expression in enumerate(json.loads(sys.argv[1])):
    path = f"{sys.argv[2]}/bomb_{number}.py"
    with open(path, "w") as file:
        file.write("import math\\nimport numpy as np\\n\\n\\ndef f(x):\\n    if x > 0:\\n"
                   f"        return {expression}\\n    return x\\n")
    spec = importlib.util.spec_from_file_location(f"bomb_{number}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    start = time.perf_counter()
    compiled = sc.symbolic(module.f)
    result = compiled(-1)
    results.append((expression, time.perf_counter() - start, result, len(compiled.source)))
print(json.dumps(results))
"""


def test_never_stuck_folding_prices_every_operation_before_running_it(tmp_path: object) -> None:
    """Each bomb sits in a branch that never runs: the original returns at once, and so must
    compiling and calling the compiled function (a subprocess, so a regression fails rather
    than hangs)."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _RUN_BOMBS, json.dumps(_BOMBS), str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert [expression for expression, *_ in results] == _BOMBS
    for expression, seconds, result, source_length in results:
        assert result == -1, expression  # the original's result
        assert source_length < 5000, expression  # no folded giant written into the code
        assert seconds < 2.0, (expression, seconds)


@pytest.mark.parametrize(("expression", "value"), [
    ("2 ** 100", 2 ** 100), ("pow(3, 5, 7)", 5), ("pow(3, -1, 7)", 5), ("round(1234, -2)", 1200),
    ("math.comb(100, 50)", math.comb(100, 50)), ("math.factorial(300)", math.factorial(300)),
    ("1 << 4000", 1 << 4000), ("'ab' * 3", "ababab"), ("divmod(2 ** 4000, 7)", divmod(2 ** 4000, 7)),
    ("sum((1.5, 2.5) * 100)", 400.0), ("math.gcd(2 ** 4000, 6 ** 100)", 2 ** 100),
    ("int('9' * 1000) % 7", int("9" * 1000) % 7), ("round(2.675, 2)", 2.67),
])
def test_never_slower_cheap_operations_still_fold(make_module: Callable[[str], types.ModuleType],
                                                  expression: str, value: object) -> None:
    module = make_module(f"import math\n\n\ndef f(x):\n    return x, {expression}\n")
    compiled = sc.symbolic(module.f)
    assert bits(compiled(0)) == bits(module.f(0)) == bits((0, value))
    assert expression not in compiled.source, compiled.source


def test_never_stuck_every_operation_the_folder_runs_is_priced() -> None:
    from symcompile.analysis import fold_budget
    from symcompile.ir.ops import OPS
    from symcompile.analysis.constants import PURE_BUILTINS, PURE_MODULES

    unpriced = [name for name, info in OPS.items() if fold_budget.refusal(info.evaluate, (1, 1))]
    assert unpriced == ["matmul"]  # no constant has a matrix product
    callables = list(PURE_BUILTINS) + [value for module in PURE_MODULES
                                       for value in vars(module).values() if callable(value)]
    for function in callables:  # any arguments, even too few: a price, never a crash
        for args in ((), (2,), (1.5, 2), (2, 3, 5)):
            assert fold_budget.refusal(function, args) is None, (function, args)


# ---------------------------------------------------------------- hoisting never costs

_HOISTING = """
def product_in_loop(a, b, n):
    total = 0
    for i in range(n):
        total += a * b
    return total


def product_in_sure_loop(a, b, n):
    total = 0
    for i in range(100):
        total += a * b + n
    return total


def product_in_branch_of_sure_loop(a, b, n):
    total = 0
    for i in range(100):
        if n > i:
            total += a * b
    return total


def sum_in_loop(a, b, n):
    total = 0
    for i in range(n):
        total += a + b
    return total
"""


def _hoisted(source: str, expression: str) -> bool:
    """Whether `source` computes `expression` into a temporary before its loop."""
    before_loop = source.split("    for ")[0]
    return f"= {expression}\n" in before_loop


def test_never_slower_product_of_huge_ints_not_hoisted_out_of_a_loop_that_may_not_run(
        make_module: Callable[[str], types.ModuleType]) -> None:
    import time

    module = make_module(_HOISTING)
    compiled = sc.symbolic(module.product_in_loop)
    a = (1 << 5_000_000) - 1
    b = a - 2
    assert compiled(a, b, 0) == 0  # compiles the version for ints
    assert not _hoisted(sc.source(compiled, a, b, 0), "a * b")
    timings = []
    for function in (module.product_in_loop, compiled):
        start = time.perf_counter()
        function(a, b, 0)
        timings.append(time.perf_counter() - start)
    assert timings[1] <= timings[0] + 0.2, timings


@pytest.mark.parametrize(("name", "expression", "hoisted"), [
    ("product_in_sure_loop", "a * b + n", True),  # the first turn computes it anyway
    ("product_in_branch_of_sure_loop", "a * b", False),  # the branch may never be taken
    ("sum_in_loop", "a + b", True),  # linear in the operands' sizes
])
def test_never_slower_products_of_ints_hoisted_only_where_the_loop_computes_them(
        make_module: Callable[[str], types.ModuleType], name: str, expression: str,
        hoisted: bool) -> None:
    module = make_module(_HOISTING)
    original = getattr(module, name)
    compiled = sc.symbolic(original)
    for args in ((3, 4, 5), (3, 4, 0), (2 ** 70, -5, 200)):
        assert compiled(*args) == original(*args)
    assert _hoisted(sc.source(compiled, 3, 4, 5), expression) == hoisted, sc.source(compiled, 3, 4, 5)


# ---------------------------------------------------------------- fastmath changes values only

# an expression in which each rule of simplify_algebra fires, and the type of its operands
_RULE_EXAMPLES: dict[str, tuple[str, type]] = {
    "x * 1.0 → x": ("x * 1.0", float), "x / 1.0 → x": ("x / 1.0", float),
    "x - 0.0 → x": ("x - 0.0", float), "x + -0.0 → x": ("x + -0.0", float),
    "3 * x → 3.0 * x": ("3 * x + x // 2 + x % 3 + 2 ** x", float),
    "x + 0 → x": ("x + 0", int), "x - 0 → x": ("x - 0", int), "x * 1 → x": ("x * 1", int),
    "x // 1 → x": ("x // 1", int), "x ** 1 → x": ("x ** 1", int),
    "x ** 2 → x * x": ("x ** 2", int), "x * 0 → 0": ("x * 0", int), "x - x → 0": ("x - x", int),
    "-(-x) → x": ("-(-x)", float), "not (a == b) → a != b": ("not (x == y)", float),
    "not (a < b) → a >= b": ("not (x < y)", int), "x + 0.0 → x": ("x + 0.0", float),
    "x * 0.0 → 0.0": ("x * 0.0", float), "x - x → 0.0": ("x - x", float),
    "not (a < b) → a >= b (floats)": ("not (x < y)", float),
}
_SPECIAL = {float: [0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, 1.5, 1e308],
            int: [0, -1, 3, 2 ** 1100, -(2 ** 70)]}


def _outcome(function: Callable[..., object], *args: object) -> object:
    try:
        function(*args)
    except Exception as error:
        return type(error)
    return "returned"


@SETTINGS
@given(data=st.data())
def test_never_wrong_fastmath_never_changes_exceptions(
        make_module: Callable[[str], types.ModuleType], data: st.DataObject) -> None:
    from symcompile.passes.algebra import RULES

    assert set(_RULE_EXAMPLES) == {rule.identity for rule in RULES}  # a new rule needs a line
    identity = data.draw(st.sampled_from(sorted(_RULE_EXAMPLES)))
    expression, kind = _RULE_EXAMPLES[identity]
    module = make_module(f"def f(x, y):\n    return {expression}, x / y, y / x\n")
    compiled = sc.symbolic(fastmath=True)(module.f)
    compiled(kind(2), kind(3))  # compiles the version for these types, where the rule fires
    x, y = data.draw(st.sampled_from(_SPECIAL[kind])), data.draw(st.sampled_from(_SPECIAL[kind]))
    assert _outcome(compiled, x, y) == _outcome(module.f, x, y), (identity, x, y, compiled.source)


def test_never_wrong_fastmath_self_quotient_still_raises(
        make_module: Callable[[str], types.ModuleType]) -> None:
    module = make_module("def f(x):\n    return x / x\n")
    compiled = sc.symbolic(fastmath=True)(module.f)
    assert compiled(2.0) == 1.0
    with pytest.raises(ZeroDivisionError):
        compiled(0.0)


# ---------------------------------------------------------------- NaN signs and payloads

def test_never_wrong_nan_signs_keep_expressions_apart(
        make_module: Callable[[str], types.ModuleType]) -> None:
    """`x * nan` and `x * -nan` are two expressions: one computed for both gave `nan` twice."""
    module = make_module("def f(x):\n    return x * float('nan') + 1.0, x * -float('nan') + 1.0\n")
    compiled = sc.symbolic(module.f)
    for x in (2.0, -0.0, math.inf):
        assert bits(compiled(x)) == bits(module.f(x))
    assert [math.copysign(1.0, value) for value in compiled(2.0)] == [1.0, -1.0]


def test_never_wrong_oracle_compares_nan_signs_the_original_fixes() -> None:
    from symcompile.runtime.oracle import assert_equivalent

    def negated(x: float) -> float:
        return -x

    def same(x: float) -> float:
        return x

    with pytest.raises(AssertionError, match="sign of NaN"):
        assert_equivalent(negated, same, (math.nan,))


def test_never_wrong_oracle_accepts_either_nan_sign_where_cpython_gives_either() -> None:
    """`a * b` of two NaNs gives b's sign until the adaptive interpreter specializes the
    multiplication (CPython 3.11 and 3.13), a's after: the original fixes no sign there."""
    from symcompile.runtime.oracle import assert_equivalent

    def product(a: float, b: float) -> float:
        return a * b

    def left_sign(a: float, b: float) -> float:
        return a

    assert_equivalent(product, left_sign, (math.nan, -math.nan))
    assert_equivalent(product, lambda a, b: b, (math.nan, -math.nan))


def test_never_wrong_float_identities_leave_numpy_values_alone(
        make_module: Callable[[str], types.ModuleType]) -> None:
    """`x * 1.0 → x` fires for Python floats only: a NumPy array (or scalar) holding a
    signalling NaN comes back quieted from the multiplication, as in the original."""
    module = make_module("def f(x):\n    return x * 1.0\n")
    signalling = np.array([1.5]).view(np.uint64)
    signalling[0] = 0x7FF0_0000_0000_0001
    for value in (signalling.view(np.float64), signalling.view(np.float64)[0]):
        compiled = sc.symbolic(module.f)
        with np.errstate(invalid="ignore"):  # a signalling NaN is an invalid operand
            assert compiled(value).tobytes() == module.f(value).tobytes() != value.tobytes()
        assert "return x * " in sc.source(compiled, value)
