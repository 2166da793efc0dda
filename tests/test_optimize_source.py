"""`optimize_source`: whole modules optimized, and run top to bottom they do what they did.

Each module of `MODULES` is run as written and as optimized (stdout captured, the exception it
ends with compared); the text checks make sure something was optimized, or that a name the
module rebinds was not relied on.
"""

from __future__ import annotations

import contextlib
import io
import linecache
import textwrap

import pytest

import symcompile as sc
from symcompile.runtime import compiler
from symcompile.tools import modules

SEED = textwrap.dedent("""\
    def add(a, b):
        return a + b
    def fancy_func(a, b, c, d):
        e = add(a, b)
        f = add(c, d)
        g = add(e, f)
        return g
    print(fancy_func(1, 2, 3, 4))
""")

SEED_OPTIMIZED = textwrap.dedent("""\
    def add(a, b):
        return a + b


    def fancy_func(a, b, c, d):
        return a + b + (c + d)


    print(10)
""")


def run_module(text: str) -> tuple[str, str | None]:
    """What running `text` as `__main__` prints, and the exception it ends with."""
    stdout = io.StringIO()
    error = None
    with contextlib.redirect_stdout(stdout):
        try:
            exec(compile(text, "<module>", "exec"), {"__name__": "__main__"})
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
    return stdout.getvalue(), error


def module(text: str, present: tuple[str, ...] = (), absent: tuple[str, ...] = ()) -> object:
    return pytest.param(textwrap.dedent(text), present, absent)


MODULES = {
    "seed": module(SEED, present=("print(10)",)),
    "function rebound after use": module("""\
        def add(a, b):
            return a + b
        def fancy_func(a, b, c, d):
            return add(add(a, b), add(c, d))
        print(fancy_func(1, 2, 3, 4))
        def add(a, b):
            return a * b
        print(fancy_func(1, 2, 3, 4))
        """, present=("return add(add(a, b), add(c, d))",), absent=("print(10)", "print(21)")),
    "global assigned by a statement": module("""\
        SCALE = 2
        def scale(x):
            return x * SCALE
        print(scale(3))
        SCALE = 3
        print(scale(3))
        """, present=("print(3 * SCALE)",), absent=("print(6)", "print(9)")),
    "global statement in a function": module("""\
        def add(a, b):
            return a + b
        def total(a, b):
            return add(a, b)
        def swap():
            global add
            add = lambda a, b: a - b
        print(total(1, 2))
        swap()
        print(total(1, 2))
        """, present=("return add(a, b)",), absent=("print(3)",)),
    "globals() rebinds a function": module("""\
        def add(a, b):
            return a + b
        def inc(a):
            return add(a, 1)
        print(inc(1))
        globals()["add"] = lambda a, b: a * b
        print(inc(1))
        """, present=("return add(a, 1)",), absent=("print(2)",)),
    "function called before a later def": module("""\
        def f():
            return g()
        try:
            print(f())
        except NameError as error:
            print("NameError", error)
        def g():
            return 1
        print(f())
        """, present=("return g()", "print(1)")),
    "function deleted": module("""\
        def f(a):
            return a + 1
        def g(a):
            return f(a) * 2
        print(g(1))
        del f
        print(g(1))
        """, present=("return f(a) * 2",), absent=("print(4)",)),
    "function defined twice": module("""\
        def sq(x):
            return x * x
        def sq(x):
            return x ** 3
        def use(x):
            return sq(x) + 1
        print(use(2))
        """, present=("return sq(x) + 1", "print(sq(2) + 1)")),
    "builtin shadowed later": module("""\
        def count(xs):
            return len(xs) + abs(-1)
        n = count((1, 2))
        print(n)
        len = lambda xs: 42
        n = count((1, 2))
        print(n)
        """, present=("n = len((1, 2)) + abs(-1)",)),
    "loop variable named like a function": module("""\
        def step(x):
            return x + 1
        def run(x):
            return step(x)
        print(run(1))
        for step in (abs, str):
            print(run(-1))
        """, present=("return step(x)",)),
    "numpy, math and complex numbers": module("""\
        import math
        import numpy as np
        from math import pi
        def norm(v):
            return np.sqrt(np.sum(v * v))
        def area(r):
            return math.pi * r ** 2 + pi
        def rotate(z):
            return z * (1 + 2j) * (1 - 2j)
        def not_a_number(x):
            return x + (math.inf - math.inf)
        print(norm(np.arange(4.0)), area(2.0), rotate(1.5), not_a_number(1.0))
        print(area(1.0) * 2)
        """, present=("np.sqrt(np.sum(v * v))", "(1.0 + 2.0j)", "float('nan')")),
    "top-level loops": module("""\
        def add(a, b):
            return a + b
        def mul(a, b):
            return a * b
        acc = 0
        i = 0
        while i < 4:
            acc = add(acc, mul(i, 2))
            i += add(0, 1)
        for k in range(3):
            if k % 2:
                print(add(k, 10))
            else:
                print(mul(k, 5))
        print(acc)
        """, present=("acc = acc + mul(i, 2)", "i += 1", "print(k + 10)")),
    "main guard": module("""\
        \"\"\"A script.\"\"\"
        from math import sqrt
        def add(a, b):
            return a + b
        def hypot(a, b):
            return add(a * a, b * b) ** 0.5
        def root(x):
            return sqrt(x)
        if __name__ == "__main__":
            print(hypot(3.0, 4.0), add(1, 2))
            x: float = add(2, 2)
            print(root(4.0), x)
        """, present=("    print(5.0, 3)", "    x: float = 4", "print(sqrt(4.0), x)")),
    "side effects at definition time": module("""\
        def shout(f):
            print("decorating", f.__name__)
            return f
        @shout
        def one():
            return 1
        def counter(x, seen=[]):
            seen.append(x)
            return len(seen)
        def late(x=print("default evaluated")):
            return x
        print(one(), counter(1), counter(2), late())
        """, present=("@shout",)),
    "generators, classes and lambdas": module("""\
        def sq(x):
            return x * x
        def squares(n):
            for i in range(n):
                yield sq(i)
        class Box:
            size = sq(3)
            def area(self):
                return sq(self.size)
        print(list(squares(3)), Box().area(), (lambda: sq(2))(), [sq(i) for i in range(3)])
        """, present=("yield sq(i)", "size = sq(3)")),
    "exception at the end": module("""\
        def div(a, b):
            return a / b
        print(div(1, 2))
        print(div(1, 0))
        """, present=("print(0.5)",)),
}


@pytest.mark.parametrize(("text", "present", "absent"), MODULES.values(), ids=MODULES.keys())
def test_optimized_module_does_what_the_original_does(text: str, present: tuple[str, ...],
                                                        absent: tuple[str, ...]):
    optimized = sc.optimize_source(text)
    assert run_module(optimized) == run_module(text)
    for fragment in present:
        assert fragment in optimized
    for fragment in absent:
        assert fragment not in optimized


def test_the_seed_program_becomes_print_10():
    assert sc.optimize_source(SEED) == SEED_OPTIMIZED


def test_output_has_no_runtime_guards():
    optimized = sc.optimize_source(SEED + "print(len((1, 2)), abs(-3))\n")
    for guard in ("recompile", "stale", "other_types"):
        assert guard not in optimized


def test_the_users_code_is_not_run(capsys: pytest.CaptureFixture[str]):
    text = textwrap.dedent("""\
        def shout(f):
            print("decorating")
            return f
        @shout
        def f(x=print("default")):
            return x
        print("top level")
        raise SystemExit(3)
    """)
    sc.optimize_source(text)
    assert capsys.readouterr().out == ""


def test_a_rebinding_through_an_attribute_is_not_relied_on():
    optimized = sc.optimize_source(textwrap.dedent("""\
        import sys
        def add(a, b):
            return a + b
        def inc(a):
            return add(a, 1)
        sys.modules[__name__].add = lambda a, b: a * b
        print(inc(1))
    """))
    assert "return add(a, 1)" in optimized


def test_a_name_bound_inside_a_block_is_not_relied_on():
    optimized = sc.optimize_source(textwrap.dedent("""\
        import math
        if math.pi > 3:
            def add(a, b):
                return a + b
        def inc(a):
            return add(a, 1)
        print(inc(1))
    """))
    assert "return add(a, 1)" in optimized


def test_the_scratch_source_is_dropped_from_linecache():
    sc.optimize_source(SEED, "seed.py")
    assert not any(str(key).startswith("<symcompile.optimize_source") for key in linecache.cache)


@pytest.mark.parametrize(("text", "line", "col"), [
    ("def f(x):\n    return x +\n", 2, 14),
    ("x = 1\n  y = 2\n", 2, 1),
    ("def f():\n    nonlocal x\n", 2, 4),
    ("print(1)\nawait g()\n", 2, 0),
])
def test_a_syntax_error_names_file_line_and_column(text: str, line: int, col: int):
    with pytest.raises(sc.SymbolicError) as caught:
        sc.optimize_source(text, "broken.py")
    error = caught.value
    assert (error.filename, error.lineno, error.col) == ("broken.py", line, col)
    assert error.message.startswith("syntax error")
    assert error.hint


@pytest.mark.parametrize("text", ["x = 1\0\n", "x = " + "(" * 250 + "1" + ")" * 250 + "\n"],
                         ids=["null byte", "nested deeper than Python's parser allows"])
def test_source_that_python_cannot_compile(text: str):
    with pytest.raises(sc.SymbolicError) as caught:
        sc.optimize_source(text, "bad.py")
    assert caught.value.filename == "bad.py"


def test_a_statement_too_deeply_nested_to_render_is_kept_as_written():
    deep = "-" * 600 + "1"
    text = f"def f(x={deep}):\n    return x\ny = 2; z = {deep}\nprint(f(), y, z)\n"
    optimized = sc.optimize_source(text)
    assert f"\nz = {deep}\n" in optimized and f"def f(x={deep}):" in optimized
    assert run_module(optimized) == run_module(text)


def test_an_internal_failure_is_a_symbolic_error_naming_the_statement(monkeypatch):
    def broken(function, passes):
        raise RuntimeError("boom")

    monkeypatch.setattr(compiler.pipeline, "run_passes", broken)
    with pytest.raises(sc.SymbolicError) as caught:
        sc.optimize_source(SEED, "seed.py")
    assert "internal error" in caught.value.message and "boom" in caught.value.message
    assert (caught.value.filename, caught.value.lineno) == ("seed.py", 1)
