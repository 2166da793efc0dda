"""The public API end to end: decorating, calling, metadata, closures, methods, the call path,
the cache, disabling, threads, and the errors a user can meet."""

from __future__ import annotations

import ast
import inspect
import json
import os
import subprocess
import sys
import textwrap
import threading
import traceback
import types

import numpy as np
import pytest

import symcompile as sc
from symcompile import ir
from symcompile.passes import pipeline

SCALE = 2.0


def add(a, b):
    return a + b


@sc.symbolic
def fancy_func(a, b, c, d):
    """The textbook's example."""
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g


@sc.symbolic
def scaled(x):
    return x * SCALE


@sc.symbolic
def uses_later(x):
    return defined_after_decoration(x) + 1


def defined_after_decoration(x):
    return x * 10


@sc.symbolic
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def test_decorated_function_returns_the_same_value():
    assert fancy_func(1, 2, 3, 4) == 10
    assert fancy_func(1.5, 2, 3, 4) == 10.5


def test_metadata_matches_the_original():
    original = fancy_func.original
    assert fancy_func.__wrapped__ is original
    assert fancy_func.__name__ == "fancy_func"
    assert fancy_func.__qualname__ == "fancy_func"
    assert fancy_func.__doc__ == "The textbook's example."
    assert fancy_func.__module__ == __name__
    assert inspect.signature(fancy_func) == inspect.signature(original)
    assert isinstance(fancy_func, types.FunctionType)


def test_source_attribute_and_source_function_agree():
    text = sc.source(fancy_func, 1, 2, 3, 4)
    assert isinstance(text, str)
    assert text.startswith("def fancy_func(a, b, c, d):")
    assert str(fancy_func.source) == text
    assert fancy_func.source == text
    # (a + b may run the arguments' __add__, which could rebind add: later calls check it)
    assert "return e + f if add is add_2 else add(e, f)" in fancy_func.source
    assert fancy_func.source.splitlines()[0] == "def fancy_func(a, b, c, d):"


def test_source_is_a_str_of_the_installed_version(make_module):
    module = make_module("""
        import symcompile as sc

        def twice(v):
            return v * 2.0

        @sc.symbolic
        def scaled(x):
            return twice(1.0 * x)
    """)
    scaled = module.scaled
    assert not isinstance(scaled.source, str)  # nothing compiled yet: a stand-in
    general = str(scaled.source)  # compiles the version for any arguments
    assert isinstance(scaled.source, str) and scaled.source == general
    assert scaled(3.0) == 6.0
    assert isinstance(scaled.source, str)
    assert scaled.source == sc.source(scaled, 3.0) != general  # the float version, installed
    ast.parse(scaled.source)
    assert json.loads(json.dumps(scaled.source)) == scaled.source
    assert scaled(3) == 6.0  # another type: the version for any, not installed
    assert scaled.source == sc.source(scaled, 3.0)
    module.twice = lambda v: v * 3.0  # rebound: the next call recompiles, installs the new one
    assert scaled(3.0) == 9.0
    assert isinstance(scaled.source, str) and "x * 3.0" in scaled.source
    scaled.recompile()
    assert isinstance(scaled.source, str) and "1.0 * x * 3.0" in scaled.source
    sc.clear_cache()
    assert not isinstance(scaled.source, str)  # nothing compiled is left to show
    assert scaled(3.0) == 9.0 and scaled.source == sc.source(scaled, 3.0)


def test_source_of_a_generator_is_its_text_from_the_start():
    @sc.symbolic
    def countdown(n):
        while n:
            yield n
            n -= 1

    assert isinstance(countdown.source, str) and "yield n" in countdown.source


def test_compiled_code_is_installed_without_any_wrapper_layer():
    fancy_func(1, 2, 3, 4)
    generated = sc.compiled_function(fancy_func, 1, 2, 3, 4)
    assert fancy_func.__code__ is generated.__code__
    assert fancy_func.__code__ is not fancy_func.original.__code__
    assert fancy_func.__code__.co_filename == fancy_func.original.__code__.co_filename


def test_first_call_is_lazy_so_later_definitions_resolve():
    assert uses_later(2) == 21


def test_globals_that_are_not_inlined_stay_live(monkeypatch: pytest.MonkeyPatch):
    assert scaled(3.0) == 6.0
    monkeypatch.setitem(globals(), "SCALE", 5.0)
    assert scaled(3.0) == 15.0


def test_recursion_through_the_public_name():
    assert factorial(10) == 3628800


def test_recursive_nested_function_reads_itself_through_its_cell():
    def make():
        @sc.symbolic
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)

        return fib

    fib = make()
    assert fib(15) == 610
    assert fib.__code__.co_freevars == ("fib",)


def test_sc_source_checks_its_arguments():
    with pytest.raises(TypeError):
        sc.source(fancy_func, 1, 2)
    with pytest.raises(TypeError, match="expects a @symbolic function"):
        sc.source(add, 1, 2)


def test_bare_and_keyword_forms_and_unknown_options():
    def twice(x):
        return 2 * x

    assert sc.symbolic(twice)(4) == 8
    assert sc.symbolic()(twice)(4) == 8
    assert sc.symbolic(passes=[])(twice)(4) == 8
    with pytest.raises(TypeError):
        sc.symbolic(no_such_option=True)  # type: ignore[call-overload]


def test_decorating_twice_compiles_the_original():
    again = sc.symbolic(fancy_func)
    assert again.original is fancy_func.original
    assert again(1, 2, 3, 4) == 10


# ------------------------------------------------------- signatures and closures


def test_defaults_keyword_only_varargs_and_kwargs():
    @sc.symbolic
    def f(a, b=2, /, c=3, *args, d, e=5, **kwargs):
        return (a, b, c, args, d, e, sorted(kwargs.items()))

    assert f(1, d=4) == (1, 2, 3, (), 4, 5, [])
    assert f(1, 9, 8, 7, 6, d=0, e=1, z=2) == (1, 9, 8, (7, 6), 0, 1, [("z", 2)])
    with pytest.raises(TypeError):
        f(1)
    with pytest.raises(TypeError):
        f(a=1, d=2)  # a is positional-only


def test_default_expressions_are_not_evaluated_again():
    calls = []

    def make_default():
        calls.append(1)
        return []

    def f(x, acc=make_default()):
        acc.append(x)
        return len(acc)

    compiled = sc.symbolic(f)
    assert calls == [1]
    assert compiled(1) == 1
    assert compiled(2) == 2  # the mutable default is the original's own list
    assert f(3) == 3
    assert calls == [1]


def test_closures_share_cells_with_the_enclosing_function():
    def make_counter():
        count = 0

        @sc.symbolic
        def bump(step=1):
            nonlocal count
            count += step
            return count

        def peek():
            return count

        return bump, peek

    bump, peek = make_counter()
    assert bump() == 1
    assert bump(5) == 6
    assert peek() == 6


def test_closure_rebinding_by_the_enclosing_function_is_seen():
    def make():
        factor = 2

        @sc.symbolic
        def times(x):
            return x * factor

        def set_factor(value):
            nonlocal factor
            factor = value

        return times, set_factor

    times, set_factor = make()
    assert times(3) == 6
    set_factor(10)
    assert times(3) == 30


class Account:
    def __init__(self, balance):
        self.__balance = balance

    @sc.symbolic
    def deposit(self, amount):
        self.__balance += amount
        return self.__balance

    @sc.symbolic
    def __repr__(self):
        return f"Account({self.__balance})"

    @staticmethod
    @sc.symbolic
    def fee(amount):
        return amount * 0.01

    @sc.symbolic
    @classmethod
    def empty(cls):
        return cls(0)


class Savings(Account):
    @sc.symbolic
    def deposit(self, amount):
        return super().deposit(amount * 2)


def test_methods_bind_self_and_keep_private_name_mangling():
    account = Account(10)
    assert account.deposit(5) == 15
    assert repr(account) == "Account(15)"
    assert account._Account__balance == 15
    assert "self.__balance" in Account.deposit.source


def test_static_class_methods_and_super():
    assert Account.fee(200) == 2.0
    assert isinstance(Account.empty(), Account)
    assert Savings(1).deposit(2) == 5
    assert sc.source(Savings(1).deposit, 2).startswith("def deposit(self, amount):")


@pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameter syntax is Python 3.12+")
def test_generic_function_with_type_parameters(make_module):
    module = make_module("""
        import symcompile as sc

        @sc.symbolic
        def first[T](items: list[T]) -> T:
            print(T.__name__)
            return items[0]
    """)
    assert module.first([5, 6]) == 5
    assert [param.__name__ for param in module.first.__type_params__] == ["T"]


def test_private_method_names_are_mangled_like_the_original(make_module):
    module = make_module("""
        import symcompile as sc

        class _Vault:
            def __init__(self):
                self.__code = 42

            @sc.symbolic
            def __peek(self):
                return self.__code

            def open(self):
                return self.__peek()
    """)
    assert module._Vault().open() == 42


def test_lambda_with_source():
    square = sc.symbolic(lambda x: x * x)
    assert square(7) == 49
    assert "return x * x" in square.source
    assert square.__name__ == "<lambda>"


def test_generators_are_passed_through_unchanged():
    @sc.symbolic
    def countdown(n):
        while n > 0:
            yield n
            n -= 1

    assert list(countdown(3)) == [3, 2, 1]
    assert countdown.__code__ is countdown.original.__code__
    assert "yield n" in countdown.source


# -------------------------------------------------------------------- cache


def test_compiles_once_and_recompiles_on_request(compile_counter: list[str]):
    @sc.symbolic
    def f(x):
        return x + 1

    assert compile_counter == []  # nothing compiles at decoration time
    for value in range(5):
        assert f(value) == value + 1
    assert f.source
    sc.source(f, 1)
    assert compile_counter == ["f"]
    f.recompile()
    assert compile_counter == ["f", "f"]
    assert f(1) == 2
    sc.clear_cache()
    assert compile_counter == ["f", "f"]
    assert f(1) == 2
    assert compile_counter == ["f", "f", "f"]


def test_clear_cache_puts_back_the_compiling_stub(compile_counter: list[str]):
    @sc.symbolic
    def g(x):
        return -x

    assert g(1) == -1
    sc.clear_cache()
    assert g.__code__.co_filename == "<symcompile forwarding>"
    assert g(2) == -2
    assert compile_counter == ["g", "g"]


def test_eight_threads_making_the_first_call_compile_once(compile_counter: list[str]):
    @sc.symbolic
    def h(x):
        return x * 3 + 1

    barrier = threading.Barrier(8)
    results: list[int] = []

    def worker(value: int) -> None:
        barrier.wait()
        results.append(h(value))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [i * 3 + 1 for i in range(8)]
    assert compile_counter == ["h"]


# ----------------------------------------------------------------- disabling


def test_disable_runs_the_original(compile_counter: list[str]):
    @sc.symbolic
    def k(x):
        one = 1  # a rewrite to install (a version as written runs the original's code object)
        return x - one

    with sc.disable():
        assert k(1) == 0
        assert k.__code__ is k.original.__code__
        with sc.disable():
            assert k(2) == 1
        assert k.__code__ is k.original.__code__
    assert compile_counter == []
    assert k(3) == 2
    assert compile_counter == ["k"]
    with sc.disable():
        assert k.__code__ is k.original.__code__
    assert k.__code__ is sc.compiled_function(k, 0).__code__ is not k.original.__code__


@pytest.mark.slow  # a subprocess, or a 30-deep chain of calls
def test_environment_variable_disables_compilation(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        import symcompile as sc

        @sc.symbolic
        def f(x):
            return x + 1

        print(f(1), f.__code__ is f.original.__code__)
    """))
    env = dict(os.environ, SYMCOMPILE_DISABLE="1")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert result.stdout.split() == ["2", "True"], result.stderr


# ------------------------------------------------------ linecache and traceback


def test_always_explainable_tracebacks_and_inspect_show_the_users_lines():
    @sc.symbolic
    def divide(x, y):
        z = x + 1
        return z / y

    with pytest.raises(ZeroDivisionError) as info:
        divide(1, 0)
    frames = traceback.extract_tb(info.tb)
    assert frames[-1].filename == __file__
    assert frames[-1].line == "return z / y"
    assert "return (x + 1) / y" in divide.source
    generated = sc.compiled_function(divide, 1, 2)
    assert inspect.getsource(generated) == inspect.getsource(divide.original)


# ------------------------------------------------------------ bound objects


WEIGHTS = np.arange(3.0)


def _bind_weights(function: ir.Function) -> ir.Function:
    """A test pass: replace the global `WEIGHTS` by the array object itself."""
    def visit(expr: ir.Expr) -> ir.Expr:
        if expr == ir.Name("WEIGHTS"):
            return ir.Const(WEIGHTS)
        if isinstance(expr, ir.Op):
            return ir.Op(expr.op, tuple(map(visit, expr.args)))
        return expr

    body = tuple(ir.Return(visit(s.value), s.loc) if isinstance(s, ir.Return) and s.value else s
                 for s in function.body)
    return function if body == function.body else function.with_body(body)


def test_objects_without_literal_spelling_are_bound_in_the_functions_own_scope():
    def weighted(x):
        ndarray = 1.0  # a local with the name the binding would like: it must not clash
        return x * WEIGHTS + ndarray

    compiled = sc.symbolic(weighted, passes=[_bind_weights])
    np.testing.assert_array_equal(compiled(2.0), 2.0 * WEIGHTS + 1.0)
    assert "return x * ndarray_2 + ndarray" in compiled.source
    generated = sc.compiled_function(compiled, 2.0)
    assert "ndarray_2" not in globals()
    assert generated.__code__.co_freevars == ("ndarray_2",)
    assert compiled.__code__ is generated.__code__  # the closure grew: no forwarding layer
    assert compiled.__closure__ == generated.__closure__
    WEIGHTS[0] = 100.0  # bound by reference: in-place changes are seen
    try:
        assert compiled(1.0)[0] == 101.0
    finally:
        WEIGHTS[0] = 0.0


# ------------------------------------------------------------------- errors


def test_builtins_and_other_objects_are_refused_clearly():
    with pytest.raises(sc.SymbolicError, match="compiles Python functions"):
        sc.symbolic(len)
    with pytest.raises(sc.SymbolicError, match="compiles Python functions"):
        sc.symbolic(3)


def test_function_made_by_exec_without_source():
    namespace: dict[str, object] = {}
    exec("def made(x):\n    return x\n", namespace)
    with pytest.raises(sc.SymbolicError) as info:
        sc.symbolic(namespace["made"])
    message = str(info.value)
    assert "cannot read the source of 'made'" in message
    assert "hint:" in message and "linecache" in message


@pytest.mark.slow  # a subprocess, or a 30-deep chain of calls
def test_lambda_typed_at_the_command_line():
    code = ("import symcompile as sc\n"
            "try:\n"
            "    print(sc.symbolic(lambda x: x * 2)(21))\n"
            "except sc.SymbolicError as error:\n"
            "    print(error)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    if sys.version_info >= (3, 13):  # Python 3.13 keeps `-c` source in linecache
        assert result.stdout == "42\n"
    else:
        assert "cannot read the source of '<lambda>'" in result.stdout
        assert "hint: define the function in a .py file" in result.stdout


def test_two_alike_lambdas_on_one_line_are_ambiguous():
    # (lambdas whose code differs are told apart: tests/test_frontend_reliability.py)
    pair = (lambda x: x + 1, lambda x: x + 1)
    with pytest.raises(sc.SymbolicError, match="several lambdas"):
        sc.symbolic(pair[0])


def test_internal_errors_become_symbolic_errors(monkeypatch: pytest.MonkeyPatch):
    def broken(function: ir.Function, *args: object, **kwargs: object) -> object:
        raise KeyError("boom")

    monkeypatch.setattr("symcompile.backend.codegen.render_function", broken)

    @sc.symbolic
    def f(x):
        return x

    with pytest.raises(sc.SymbolicError) as info:
        f(1)
    error = info.value
    assert "internal error in symcompile: KeyError" in str(error)
    assert error.filename == __file__
    assert error.lineno == f.original.__code__.co_firstlineno + 1
    assert "def f(x):" in str(error) and "^" in str(error)
    assert isinstance(error.__cause__, KeyError)


def test_symbolic_error_formats_location_caret_and_hint():
    error = sc.SymbolicError("bad thing", filename="m.py", lineno=3, col=8,
                             source_line="    y = x +* 2\n", hint="do this")
    assert str(error) == textwrap.dedent("""\
        bad thing
          File "m.py", line 3, column 9
            y = x +* 2
                ^
        hint: do this""")


def test_after_the_closure_grew_disable_and_recompile_still_work(compile_counter: list[str]):
    def weighted(x):
        return x * WEIGHTS

    compiled = sc.symbolic(weighted, passes=[_bind_weights])
    assert compiled(1.0)[2] == 2.0
    assert len(compiled.__closure__) == 1
    with sc.disable():
        assert compiled(2.0)[2] == 4.0  # runs the original through a forwarding code
        assert compiled.__code__ is not compiled.original.__code__
    compiled.recompile()
    assert compiled(3.0)[2] == 6.0
    assert compiled.__code__ is sc.compiled_function(compiled, 1.0).__code__
    sc.clear_cache()
    assert compiled(4.0)[2] == 8.0
    assert compile_counter == ["weighted"] * 3


def test_without_closure_growth_the_call_is_forwarded(monkeypatch: pytest.MonkeyPatch):
    from symcompile.backend import loader

    monkeypatch.setattr(loader, "_set_closure", None)

    def weighted(x):
        return x * WEIGHTS

    compiled = sc.symbolic(weighted, passes=[_bind_weights])
    assert compiled(1.0)[2] == 2.0
    assert compiled.__closure__ is None
    assert compiled.__code__.co_filename == "<symcompile forwarding>"


def test_calls_from_other_threads_stay_right_while_versions_are_installed():
    def weighted(x):
        return x * WEIGHTS

    compiled = sc.symbolic(weighted, passes=[_bind_weights])
    stop = threading.Event()
    failures: list[object] = []

    def caller() -> None:
        while not stop.is_set():
            result = compiled(2.0)
            if result[1] != 2.0:
                failures.append(result)

    threads = [threading.Thread(target=caller) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        for _ in range(30):
            compiled.recompile()
            with sc.disable():
                compiled(1.0)
            sc.clear_cache()
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert failures == []


@pytest.mark.slow  # a subprocess, or a 30-deep chain of calls
def test_always_explainable_pdb_steps_through_the_users_lines(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""\
        import symcompile as sc

        @sc.symbolic
        def f(x):
            y = x + 1
            return y * 2

        f(1)
        print(f(3))
    """))
    commands = "b 9\nc\ns\nn\nl\nq\n"
    result = subprocess.run([sys.executable, "-m", "pdb", str(script)], input=commands,
                            capture_output=True, text=True, timeout=60)
    assert "script.py(6)f()\n-> return y * 2" in result.stdout
    assert "  5  \t    y = x + 1" in result.stdout


def test_a_helper_using_private_names_is_not_inlined_into_a_method(make_module):
    module = make_module("""
        import symcompile as sc

        def peek(obj):
            return obj.__secret

        class C:
            def __init__(self):
                self.__secret = "mangled"
                self.__dict__["__secret"] = "plain"

            @sc.symbolic
            def get(self):
                return peek(self)
    """)
    assert module.C().get() == "plain"


def test_a_helper_reading_a_global_the_closure_shadows_is_not_inlined(make_module):
    module = make_module("""
        import symcompile as sc

        scale = 2

        def times(x):
            return x * scale

        def make():
            scale = 100

            @sc.symbolic
            def f(x):
                return times(x) + scale

            return f
    """)
    assert module.make()(1) == 102


def test_a_lambda_bound_to_a_global_is_inlined_under_that_name(make_module):
    module = make_module("""
        import symcompile as sc

        square = lambda x: x * x

        @sc.symbolic
        def f(y):
            return square(y) + 1
    """)
    assert module.f(3) == 10
    assert "return y * y + 1" in module.f.source


@pytest.mark.slow  # a subprocess, or a 30-deep chain of calls
def test_a_long_chain_of_calls_compiles_even_past_the_round_limit(make_module) -> None:
    """Here each round inlines one level (the next call sits in a branch until folding the
    constant arguments shows it runs); the pipeline stops after MAX_ROUNDS rounds with a
    correct result, not an error."""
    source = "def f0(a, b):\n    return a + b\n" + "".join(
        f"def f{i}(a, b):\n    c = a * {i} + b\n"
        f"    return f{i - 1}(c, a) if a > 100 else c + 2.0\n" for i in range(1, 31))
    module = make_module(source + "def main():\n    return f30(101, 2)\n")
    compiled = sc.symbolic(module.main)
    assert compiled() == module.main()
    version = compiled._symcompile.cache.versions[()]
    late = {run_pass.__name__ for run_pass in pipeline.RUN_LAST}
    settling = [run.round for run in version.log if run.name not in late]
    assert max(settling) == pipeline.MAX_ROUNDS
