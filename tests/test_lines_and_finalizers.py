"""Where compiled code says it runs, and when the objects it drops die.

Lines: the generated code is compiled as code of the user's file, each statement at the user's
line it came from (an inlined callee's at the call's line, the checks on entry at the def), so
warnings, tracebacks, `f_lineno` and `inspect` point into the user's file — and a warning
printed once per location by Python's default filter is printed as often as by the original.

Finalizers: dropping a dead store, or forwarding a value, must not move the moment an object
with a `__del__` dies (CPython frees an object when its last reference goes), so the order of
what finalizers print stays the original's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import traceback
import types
import warnings
from pathlib import Path
from typing import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent
from tests.corpus import CORPUS_BY_NAME, CORPUS_NAMES, corners

# ------------------------------------------------------------------ lines and warnings

Shown = tuple[type[Warning], str, str, int, str]


def _shown_warnings(call: Callable[[], object], times: int) -> list[Shown]:
    """What Python's default warning filter shows while `call()` runs `times` times: category,
    message, file, line and source line of each warning printed."""
    shown: list[Shown] = []

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: object = None, line: str | None = None) -> None:
        import linecache
        shown.append((category, str(message), filename, lineno,
                      linecache.getline(filename, lineno).strip()))

    with warnings.catch_warnings():
        warnings.resetwarnings()
        warnings.simplefilter("default")
        warnings.showwarning = show
        for _ in range(times):
            call()
    return shown


ZEROS = np.zeros(3)

WARNING_BODIES = {
    "two divisions on one line": """\
        def f(a, b):
            return a / b + a / b
        """,
    "one division on each of two lines": """\
        def f(a, b):
            x = a / b
            y = a / b
            return x + y + x * y
        """,
    "a dead division still warns": """\
        def f(a, b):
            unused = a / b
            return a + b
        """,
    "a division in a loop": """\
        def f(a, b):
            total = a
            i = 0
            while i < 3:
                total = total + a / b
                i += 1
            return total
        """,
    "a division in a try block": """\
        def f(a, b):
            try:
                x = a / b
                y = b / a
            finally:
                z = 1
            return x + y
        """,
}


@pytest.mark.parametrize("arguments", [(ZEROS, ZEROS), (np.float64(0.0), np.float64(0.0))],
                         ids=["arrays", "numpy scalars"])
@pytest.mark.parametrize("body", WARNING_BODIES, ids=list(WARNING_BODIES))
def test_never_wrong_default_filter_shows_the_originals_warnings(make_module, body, arguments):
    source = "import symcompile as sc\n\n@sc.symbolic\n" + textwrap.dedent(WARNING_BODIES[body])
    original_module, compiled_module = make_module(source), make_module(source)
    original = original_module.f.original
    compiled = compiled_module.f
    expected = _shown_warnings(lambda: original(*arguments), times=3)
    shown = _shown_warnings(lambda: compiled(*arguments), times=3)
    assert expected, "the example must warn"
    assert [(c, m, n, line) for c, m, _, n, line in shown] == \
        [(c, m, n, line) for c, m, _, n, line in expected]
    assert {filename for _, _, filename, _, _ in shown} == {compiled_module.__file__}


@pytest.mark.slow  # randomized functions, or a subprocess
def test_never_wrong_python_default_filter_prints_the_same_stderr(tmp_path: Path):
    script = tmp_path / "divide.py"
    script.write_text(textwrap.dedent("""\
        import numpy as np
        import symcompile as sc

        @sc.symbolic
        def f(a, b):
            x = a * 2.0
            return a / b + a / b

        for _ in range(3):
            f(np.zeros(3), np.zeros(3))
        """))

    def stderr(disable: str) -> str:
        env = {**os.environ, "SYMCOMPILE_DISABLE": disable}
        result = subprocess.run([sys.executable, "-W", "default", str(script)], env=env,
                                capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        return result.stderr

    expected = stderr("1")
    assert expected.count("RuntimeWarning") == 1 and "return a / b + a / b" in expected
    assert stderr("0") == expected


def test_always_explainable_code_runs_at_the_users_lines(make_module):
    module = make_module("""\
        import sys
        import symcompile as sc

        @sc.symbolic
        def f(x):
            y = x + 1
            line = sys._getframe().f_lineno
            return y * 2, line
        """)
    assert module.f(1.0) == (4.0, 7)
    original, code = module.f.original.__code__, module.f.__code__
    assert code is not original
    assert (code.co_filename, code.co_firstlineno) == (original.co_filename, original.co_firstlineno)
    assert _code_lines(code) <= {4, 5, 6, 7, 8}


def test_always_explainable_traceback_shows_the_users_line_without_carets(make_module):
    module = make_module("""\
        import symcompile as sc

        @sc.symbolic
        def f(x, y):
            z = x + 1
            w = z * 2
            return w / y
        """)
    module.f(1, 2)
    with pytest.raises(ZeroDivisionError) as info:
        module.f(1, 0)
    frame = traceback.extract_tb(info.tb)[-1]
    assert (frame.filename, frame.lineno, frame.name) == (module.__file__, 7, "f")
    assert frame.line == "return w / y"
    text = "".join(traceback.format_exception(info.value))
    assert text.endswith('line 7, in f\n    return w / y\nZeroDivisionError: division by zero\n')


def test_always_explainable_inlined_code_runs_at_the_call_line(make_module):
    module = make_module("""\
        import symcompile as sc

        def half(v):
            return v / 2

        @sc.symbolic
        def f(x):
            y = x * 2
            return half(x) + y
        """)
    assert module.f(3.0) == 7.5
    assert "x / 2" in module.f.source  # inlined (behind a check at the call: x * 2 may run code)
    with pytest.raises(TypeError) as info:
        module.f("a")
    frame = traceback.extract_tb(info.tb)[-1]
    assert (frame.name, frame.lineno, frame.line) == ("f", 9, "return half(x) + y")
    assert _code_lines(module.f.__code__) <= {6, 7, 8, 9}


def test_always_explainable_opaque_blocks_keep_their_own_lines(make_module):
    module = make_module("""\
        import symcompile as sc

        @sc.symbolic
        def f(x):
            with open(__file__) as handle:
                first = handle.readline()
                second = x / 0
            return first, second
        """)
    with pytest.raises(ZeroDivisionError) as info:
        module.f(1.0)
    assert traceback.extract_tb(info.tb)[-1].lineno == 7


def _compiled_corpus_entry(name: str) -> tuple[types.FunctionType, types.FunctionType]:
    original = CORPUS_BY_NAME[name]
    calls = corners(name)
    if not calls:
        pytest.skip("no fixed call for this entry")
    args, kwargs = calls[0]
    return original, sc.compiled_function(sc.symbolic(original), *args, **kwargs)


def _code_lines(code: types.CodeType) -> set[int]:
    return {line for _, _, line in code.co_lines() if line is not None}


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_always_explainable_compiled_corpus_runs_only_at_the_originals_lines(name: str):
    original, compiled = _compiled_corpus_entry(name)
    code = original.__code__
    assert compiled.__code__.co_filename == code.co_filename
    assert compiled.__code__.co_firstlineno == code.co_firstlineno
    assert _code_lines(compiled.__code__) <= _code_lines(code) | {code.co_firstlineno}


# ------------------------------------------------------------------ finalizers

FINALIZER_MODULE = """\
    class Resource:
        def __init__(self, tag="r"):
            self.tag = tag

        def __del__(self):
            print("del", self.tag)

    def dead_store():
        d = Resource()
        d = 0
        print("after")
        return 1

    def rebind_in_branch(flag):
        d = Resource()
        if flag:
            d = 0
        print("after")
        return 1

    def rebind_in_loop(n):
        d = Resource()
        for i in range(n):
            d = i
            print("turn", i)
        return 1

    def rebind_at_the_end_of_a_turn(n):
        d = Resource()
        for i in range(n):
            print("turn", i)
            d = 0
        return 1

    def rebind_after_the_loop_else(n):
        for i in range(n):
            d = Resource(i)
        else:
            d = None
        print("after")
        return 1

    def rebind_by_float_arithmetic(n):
        h = 0.25 if n > 5 else 0.5
        for i in range(n):
            d = Resource(i)
            print("turn", i)
            h = h * 0.5 + 0.125
            d = 0.0
            d = (h * h + 1.0) * -h
            print("rebound", d, d)
        return 1

    def rebind_by_a_division(zero):
        h = 0.0 if zero else 0.5
        d = Resource()
        d = 0.0
        d = 1.0 / h
        print("after", d)
        return 1

    def _helper():
        r = Resource("helper")
        return 1

    def inlined_helper():
        x = _helper()
        print("after")
        return x

    def forwarded(a):
        t = Resource(a)
        y = t.tag
        print("after")
        return y
    """

FINALIZER_CALLS = {
    "dead_store": (), "rebind_in_branch": (True,), "rebind_in_loop": (2,),
    "rebind_at_the_end_of_a_turn": (2,), "rebind_after_the_loop_else": (2,),
    "rebind_by_float_arithmetic": (3,), "rebind_by_a_division": (True,),
}


@pytest.mark.parametrize("name", FINALIZER_CALLS)
def test_never_wrong_dead_store_keeps_the_finalizer_where_it_runs(make_module, name):
    module = make_module(FINALIZER_MODULE)
    original = getattr(module, name)
    assert_equivalent(original, sc.symbolic(original), FINALIZER_CALLS[name])


def test_never_slower_dead_store_before_float_arithmetic_goes(make_module):
    module = make_module(FINALIZER_MODULE)
    assert "d = 0.0" not in sc.source(sc.symbolic(module.rebind_by_float_arithmetic), 3)
    # a division may raise: the dead store releases the value before the ZeroDivisionError
    assert "d = 0.0" in sc.source(sc.symbolic(module.rebind_by_a_division), True)


def test_never_wrong_dead_store_before_a_division_releases_before_the_error(make_module, capsys):
    module = make_module(FINALIZER_MODULE)
    for variant in (module.rebind_by_a_division, sc.symbolic(module.rebind_by_a_division)):
        try:
            variant(True)
        except ZeroDivisionError:  # the raising frame (and what it holds) lives on in here
            print("caught")
    assert capsys.readouterr().out == "del r\ncaught\n" * 2


def test_never_slower_dead_store_over_a_number_still_goes(make_module):
    module = make_module("""\
        def f(x):
            d = x * 2.0
            d = 0
            print("after")
            return x
        """)
    compiled = sc.symbolic(module.f)
    assert "d = 0" not in sc.source(compiled, 1.5)
    assert_equivalent(module.f, compiled, (1.5,))


@pytest.mark.parametrize("name, args", [("inlined_helper", ()), ("forwarded", ("a",))])
def test_never_wrong_inlined_and_forwarded_values_die_in_place(make_module, name, args):
    module = make_module(FINALIZER_MODULE)
    original = getattr(module, name)
    assert_equivalent(original, sc.symbolic(original), args)


def test_never_slower_inlined_parameters_and_results_of_numbers_are_not_released(make_module):
    module = make_module("""\
        def scale(v, k):
            t = v * k
            return t + 1.0

        def f(x, k):
            total = 0.0
            for i in range(3):
                total += scale(x * 2.0, k)
            return total
        """)
    compiled = sc.symbolic(module.f)
    text = sc.source(compiled, 1.5, 3.0)
    # (floats have no finalizer; `x * 2.0` may run code for an x of another type, so the
    # version's calls check `scale` there: each branch ends with the `+=` itself)
    assert "total += x * 2.0 * k + 1.0" in text and "= None" not in text
    assert_equivalent(module.f, compiled, (1.5, 3.0))


def test_never_wrong_inlined_helper_parameter_dies_at_its_return(make_module):
    module = make_module(FINALIZER_MODULE + """\

    def _tag_of(r):
        print("in helper")
        return r.tag

    def owned_argument():
        x = _tag_of(Resource("argument"))
        print("after")
        return x
    """)
    compiled = sc.symbolic(module.owned_argument)
    assert "_tag_of(" not in sc.source(compiled)
    assert_equivalent(module.owned_argument, compiled, ())


def test_always_explainable_kept_store_says_why(make_module):
    module = make_module(FINALIZER_MODULE)
    text = str(sc.explain(sc.symbolic(module.dead_store)))
    assert "may have a finalizer" in text


# statement templates for random functions: {v} and {w} are locals, {n} a fresh tag
_TEMPLATES = (
    "{v} = Resource('{n}')",
    "{v} = 0",
    "print('{n}')",
    "{v} = _make('{n}')",
    "{v} = _keep('{n}')",
    "{v} = _tag_of(Resource('{n}'))",
    "{v} = _pass({w})",
    "if flag:\n    {v} = Resource('{n}')",
    "for i in range(2):\n    {v} = Resource('{n}' + str(i))\n    print('turn', i)",
    "del {v}",
)
_HELPERS = """\
    def _make(tag):
        made = Resource(tag)
        return made

    def _keep(tag):
        kept = Resource(tag)
        print("keep", tag)
        return 1

    def _tag_of(r):
        print("tag of", r.tag)
        return r.tag

    def _pass(x):
        print("pass")
        return x
    """


# Values still held at `return` die in the order of the locals' slots, which dropping a store
# may change (a limit docs/semantics.md states): each function releases its values first.
@st.composite
def _finalizer_programs(draw: st.DrawFn) -> str:
    lines = []
    for number in range(draw(st.integers(1, 7))):
        template = draw(st.sampled_from(_TEMPLATES))
        v, w = draw(st.sampled_from("de")), draw(st.sampled_from("de"))
        lines += template.format(v=v, w=w, n=f"r{number}").splitlines()
    lines.append("d = 0\ne = 0\nprint('end')\nreturn flag")  # (see the comment above)
    body = "\n".join(lines).replace("\n", "\n    ")
    return f"def f(flag):\n    {body}\n"


@pytest.mark.slow  # randomized functions, or a subprocess
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(program=_finalizer_programs(), flag=st.booleans())
def test_never_wrong_random_functions_print_finalizers_in_order(make_module, program, flag):
    module = make_module(textwrap.dedent(FINALIZER_MODULE) + textwrap.dedent(_HELPERS) + program)
    assert_equivalent(module.f, sc.symbolic(module.f), (flag,))
