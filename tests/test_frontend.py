"""The front end: finding and parsing a function's source, and building the IR from it."""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap

import pytest

import symcompile as sc
from symcompile import ir
from symcompile.frontend import build as frontend


def sample(x, *, flag=False):
    """Docstring."""
    y = x + 1
    pass
    return y


class Holder:
    def method(self, value):
        return self, value


def test_source_positions_are_those_of_the_users_file():
    source = frontend.read_function_source(sample)
    first = inspect.getsourcelines(sample)[1]
    assert source.node.lineno == first
    assert source.filename == __file__
    function = frontend.build_function(source)
    assert [stmt.loc.line for stmt in function.body] == [first + 1, first + 2, first + 4]
    assert source.lines[first + 1].strip() == "y = x + 1"


def test_methods_keep_their_real_columns():
    source = frontend.read_function_source(Holder.method)
    assert source.node.col_offset == 4
    assert source.text.startswith("def method(self, value):\n")
    function = frontend.build_function(source)
    assert function.body[0].loc.col == 8


def test_decorators_are_removed():
    @sc.symbolic
    def decorated(x):
        return x

    node = frontend.read_function_source(decorated.original).node
    assert node.decorator_list == []
    assert "@" not in decorated.source


def _body(text: str) -> tuple[ir.Stmt, ...]:
    return frontend.function_from_text(textwrap.dedent(text)).body


@pytest.mark.parametrize("statement, reason", [
    ("try:\n    pass\nexcept E:\n    pass", "try statement"),
    ("with m as v:\n    pass", "with statement"),
    ("def g():\n    pass", "nested function definition"),
    ("class K:\n    pass", "class definition"),
    ("global G", "global declaration"),
    ("del x", "del statement"),
    ("assert x", "assert statement"),
    ("import math", "import"),
    ("from math import pi", "import"),
    ("match x:\n    case 1:\n        pass", "match statement"),
    ("x: int = 1", "annotated assignment"),
])
def test_unmodelled_statements_become_opaque_with_a_reason(statement: str, reason: str):
    body = _body("def f(x):\n" + textwrap.indent(statement, "    ") + "\n")
    assert len(body) == 1 and isinstance(body[0], ir.Opaque)
    assert body[0].reason == reason
    assert ast.unparse(body[0].node) == ast.unparse(ast.parse(statement).body[0])


def test_nonlocal_is_opaque():
    body = _body("""
        def outer():
            n = 0
            def f():
                nonlocal n
    """)
    assert isinstance(body[1], ir.Opaque) and body[1].reason == "nested function definition"
    inner = frontend.build_body(body[1].node.body)
    assert isinstance(inner[0], ir.Opaque) and inner[0].reason == "nonlocal declaration"


@pytest.mark.parametrize("expression, reason", [
    ("lambda v: v", "lambda"),
    ("[v for v in x]", "comprehension"),
    ("{v for v in x}", "comprehension"),
    ("{v: v for v in x}", "comprehension"),
    ("(v for v in x)", "generator expression"),
    ("f'{x:>3}'", "f-string"),
    ("(y := x)", "assignment expression (walrus)"),
])
def test_unmodelled_expressions_become_opaque_with_a_reason(expression: str, reason: str):
    (statement,) = _body(f"def f(x):\n    return {expression}\n")
    assert isinstance(statement, ir.Return)
    assert isinstance(statement.value, ir.OpaqueExpr)
    assert statement.value.reason == reason


def test_modelled_statements_and_pass():
    body = _body("""
        def f(x, xs):
            pass
            x = y = 1
            x += 2
            if x:
                pass
            for v in xs:
                break
            while x:
                continue
            print(x)
            raise ValueError(x) from None
    """)
    kinds = [type(stmt) for stmt in body]
    assert kinds == [ir.Assign, ir.AugAssign, ir.If, ir.For, ir.While, ir.ExprStmt, ir.Raise]
    assert body[0].targets == (ir.Name("x"), ir.Name("y"))
    assert body[2].body == ()


def test_a_statement_too_deep_for_the_builder_stays_opaque():
    deep = "+".join(["x"] * 300)
    tree = ast.parse(f"def f(x):\n    y = 1\n    return {deep}\n").body[0]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 250)
    try:
        body = frontend.build_body(tree.body)
    finally:
        sys.setrecursionlimit(limit)
    assert isinstance(body[0], ir.Assign)
    assert isinstance(body[1], ir.Opaque) and body[1].reason == "too deeply nested"


@pytest.mark.slow
def test_a_function_too_deep_to_compile_runs_as_written(make_module):
    deep = "+".join(["x"] * 600)
    module = make_module(f"def f(x):\n    return {deep}\n")
    compiled = sc.symbolic(module.f)
    assert compiled(1) == 600
    assert compiled.__code__ is module.f.__code__
    assert compiled.source == f"def f(x):\n    return {deep}\n"


def test_file_edited_after_import_is_detected(make_module):
    module = make_module("""
        def f(a, b):
            return a + b
    """)
    path = module.__file__
    with open(path, "w") as handle:
        handle.write("def f(x):\n    return x\n")
    with pytest.raises(sc.SymbolicError, match="was the file edited"):
        sc.symbolic(module.f)


def test_future_annotations_module(make_module):
    module = make_module("""
        from __future__ import annotations
        import symcompile as sc

        @sc.symbolic
        def f(x: NotDefinedAnywhere) -> AlsoUndefined:
            return x * 2
    """)
    assert module.f(4) == 8
    assert module.f.__annotations__ == {"x": "NotDefinedAnywhere", "return": "AlsoUndefined"}


_SOURCE_SHAPES = {
    "plain": "def f(x):\n    return x + 1\n",
    "one line, code after": "def f(x): return x + 1\ny = 2\n",
    "decorators": "def keep(h):\n    return h\n@keep\n@keep\ndef f(x):\n    return x\n",
    "decorator over lines": "def deco(*a):\n    return lambda h: h\n@deco(\n    1,\n)\ndef f(x):\n    return x\n",
    "header over lines": "def f(x,\ny=1):\n    return x + y\n",
    "string at column 0": 'def f(x):\n    s = """a\nb"""\n    return x + len(s)\n',
    "brackets at column 0": "def f(x):\n    v = [x,\n1]\n    return v[0]\n",
    "comments after": "def f(x):\n    return x  # one\n  # two\n# three\nz = 1\n",
    "method": "class A:\n    def m(self, x):\n        return x\n\n    other = 1\nf = A.m\n",
    "nested": "def outer():\n    def f(x):\n        return x\n    return f\nf = outer()\n",
    "tabs": "def f(x):\n\tif x:\n\t\treturn x\n\treturn 0\n",
    "wrapped": "import functools\ndef g(x):\n    return x\n@functools.wraps(g)\ndef f(x):\n    return g(x)\n",
    "lambda": "f = lambda x: x + 1\n",
}


@pytest.mark.parametrize("shape", sorted(_SOURCE_SHAPES))
def test_never_wrong_the_source_read_by_indentation_is_inspects(make_module, shape: str) -> None:
    """`read_function_source` finds the lines of a def by indentation (inspect tokenizes them,
    a few times slower), leaving every doubtful shape to inspect: it reads the def inspect
    reads, at the same lines and columns, or fails with the same message."""
    func = make_module(_SOURCE_SHAPES[shape]).f

    def read(reader) -> str:
        try:
            source = reader(func)
        except sc.SymbolicError as error:
            return str(error)
        return ast.dump(source.node, include_attributes=True) + repr(source.checked)

    def by_inspect(func) -> frontend.FunctionSource:
        try:
            lines, first = inspect.getsourcelines(func)
        except OSError as exc:
            raise frontend._no_source_error(func, str(exc)) from None
        return frontend._source_in(func, lines, first)

    assert read(frontend.read_function_source) == read(by_inspect)
    assert read(frontend.read_function_source).startswith("FunctionDef(") or shape == "wrapped"


@pytest.mark.parametrize(("body", "named"), [
    ("return vars(), sys._getframe().f_locals", "vars()"),
    ("return sys._getframe().f_locals, vars()", ".f_locals"),
    ("line = sys._getframe().f_lineno\n    return sorted(locals()), line", "locals()"),
    ("return sys._getframe().f_lineno", None),
    ("return x + 1", None),
])
def test_always_explainable_the_frame_reader_named_is_the_first(make_module, body: str,
                                                                named: str | None) -> None:
    """`frame_reader` first looks for any frame read in one quick walk, then names the first
    one in `ast.walk`'s order, as before (the note says which)."""
    module = make_module(f"import sys\n\ndef f(x):\n    {body}\n")
    reader = frontend.frame_reader(frontend.read_function_source(module.f).node, module.f)
    assert reader == named
