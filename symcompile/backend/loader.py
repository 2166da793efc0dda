"""Loader: generated source text → a live Python function.

The stage after code generation. The text is registered in `linecache` under a recognizable
filename (`<symcompile: fancy_func @ demo.py:3>`); then it is compiled as code of the user's
file, each statement at the line of the user's it came from (`codegen.user_lines`), so
tracebacks, warnings, `f_lineno` and `pdb` point at the user's own lines, as the original
does; and it is bound to the user's world:

- globals are the user's module dict itself, so a global that was not inlined stays live;
- closure variables use the original function's own cells, so `nonlocal` and later rebinding by
  the enclosing function behave as before;
- objects without a literal spelling (arrays, functions from other modules...) are bound in
  fresh cells of the generated function's own scope, never written into the user's module;
- defaults are the original function's own default objects (a mutable default stays shared).

To build those cells the `def` is compiled inside a factory function whose parameters are the
free names (and, for a method, inside a class of the same name, so `self.__x` is mangled as in
the original). The factory is never called: the code object is taken out of it.

`forwarding_code` makes the other kind of code the call path needs: a function body with the
original signature that just calls a given Python object with the same arguments. Both kinds
can leave the call path's frames out of a traceback (`tidy`: see `callpath.tidied`).
"""

from __future__ import annotations

import ast
import itertools
import linecache
import os
import re
import types
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..frontend.syntax import FUTURE_FLAGS, private_class_name, with_type_params
from ..ir.syntax_trees import copy_tree, walk
from .trees import located, statement_blocks
from .codegen import forwarding_call

FACTORY_NAME = "_symcompile_factory"
FORWARDING_FILE = "<symcompile forwarding>"
FORWARDING_LINE = ("return compiled(*arguments)  # symcompile: the call goes on to the "
                   "compiled version (compiled first, on a first call)\n")

_counter = itertools.count(1)
# the nodes with a position (`lineno`...) a generated def can hold (it has no type parameters)
_LOCATED = (ast.stmt, ast.expr, ast.excepthandler, ast.arg, ast.keyword, ast.alias, ast.pattern)


@dataclass(frozen=True)
class Scope:
    """Where a generated function lives: everything it shares with the original function."""

    name: str
    qualname: str
    module: str | None
    globals: dict[str, object]
    closure: dict[str, types.CellType]
    defaults: tuple[object, ...] | None
    kwdefaults: dict[str, object] | None
    private_class: str | None
    future_flags: int
    location: str
    bindings: dict[str, object] = field(default_factory=dict)
    padding: int = 0
    # the user's file and the original code's first line (its first decorator's, or its def's)
    filename: str = "<symcompile>"
    first_line: int = 1

    @property
    def free_names(self) -> list[str]:
        """The generated function's free variables: closure, bound objects, empty padding."""
        pads = [f"symcompile_pad_{number}" for number in range(self.padding)]
        return sorted(set(self.closure) | set(self.bindings)) + pads

    def cell(self, name: str) -> types.CellType:
        if name in self.closure:
            return self.closure[name]
        return types.CellType(self.bindings[name]) if name in self.bindings else types.CellType()

    @classmethod
    def of(cls, func: types.FunctionType) -> Scope:
        """The scope of an existing Python function."""
        code = func.__code__
        filename = os.path.basename(code.co_filename)
        return cls(
            name=func.__name__,
            qualname=func.__qualname__,
            module=func.__module__,
            globals=func.__globals__,
            closure=dict(zip(code.co_freevars, func.__closure__ or ())),
            defaults=func.__defaults__,
            kwdefaults=func.__kwdefaults__,
            private_class=private_class_name(func.__qualname__),
            future_flags=code.co_flags & FUTURE_FLAGS,
            location=f"{filename}:{code.co_firstlineno}",
            filename=code.co_filename,
            first_line=code.co_firstlineno,
        )


def register_source(text: str, scope: Scope) -> str:
    """Put `text` in linecache under a new recognizable filename, and return that name."""
    filename = f"<symcompile: {scope.qualname} @ {scope.location} #{next(_counter)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    return filename


def forget_source(filename: str) -> None:
    """Drop a generated source from linecache (its function was discarded)."""
    linecache.cache.pop(filename, None)


def _strip_evaluated_parts(node: ast.FunctionDef) -> None:
    """Remove what a `def` evaluates when it runs (defaults, annotations, type parameters):
    the original's values are reused, not computed again. A type parameter the body reads is
    one of the original's closure cells."""
    with_type_params(node)
    args = node.args
    args.defaults = []
    args.kw_defaults = [None] * len(args.kwonlyargs)
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
        if arg is not None:
            arg.annotation = None
    node.returns = None


def _has_docstring(node: ast.FunctionDef) -> bool:
    first = node.body[0]
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str)


def _wrap_in_factory(node: ast.FunctionDef, scope: Scope) -> ast.Module:
    """`def factory(<free names>): def f(...): nonlocal <free names>; ...` (in `class C:`).

    Declaring every factory parameter `nonlocal` (no bytecode) makes the code's free variables
    exactly the scope's free names, so its layout is known before it is compiled.
    """
    free = scope.free_names
    if free:
        declaration = ast.copy_location(ast.Nonlocal(free), node)
        node.body.insert(int(_has_docstring(node)), declaration)
    params = ast.arguments(posonlyargs=[], args=[ast.arg(name) for name in free], vararg=None,
                           kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    body: list[ast.stmt] = [node]
    if node.name not in free:
        # the def must not make its own name a factory local: a recursive call is a global read
        body.insert(0, ast.copy_location(ast.Global([node.name]), node))
    factory: ast.stmt = ast.copy_location(
        with_type_params(ast.FunctionDef(FACTORY_NAME, params, body, [], None, None)), node)
    if scope.private_class is not None:
        factory = ast.copy_location(
            with_type_params(ast.ClassDef(scope.private_class, [], [], [factory], [])), node)
    return located(ast.Module([factory], type_ignores=[]), inside=node)  # (located already)


def _nested_code(code: types.CodeType) -> Iterator[tuple[types.CodeType, types.CodeType]]:
    """Every (parent, child) pair of code objects nested in `code`."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield code, const
            yield from _nested_code(const)


def compile_def(node: ast.FunctionDef, filename: str, scope: Scope) -> types.CodeType:
    """Compile a `def` (its tree is edited in place; every part of it has its position) as
    a function of `scope`."""
    _strip_evaluated_parts(node)
    name = node.name
    module = _wrap_in_factory(node, scope)
    with warnings.catch_warnings():
        # the user's own code already showed its SyntaxWarnings when it was first compiled
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(module, filename, "exec", flags=scope.future_flags, dont_inherit=True)
    for parent, child in _nested_code(code):
        if parent.co_name == FACTORY_NAME and child.co_name == name:
            return child
    raise LookupError(f"compiled code holds no function {name!r}")


def make_function(code: types.CodeType, scope: Scope) -> types.FunctionType:
    """A function running `code` in `scope` (the original's globals, cells and defaults)."""
    cells = tuple(scope.cell(name) for name in code.co_freevars)
    function = types.FunctionType(code, scope.globals, scope.name, scope.defaults, cells or None)
    function.__kwdefaults__ = scope.kwdefaults
    function.__qualname__ = scope.qualname
    function.__module__ = scope.module  # type: ignore[assignment]  # None as the original's may be
    return function


def at_user_lines(node: ast.FunctionDef, lines: Sequence[int], first_line: int) -> None:
    """Move every part of the parsed `node` to the user's line its text line runs as
    (`lines[i - 1]` for text line i; the def's first line past the end of `lines`), the def
    itself to `first_line`. Columns become unknown (-1): they were the generated text's, and
    a traceback would underline the wrong part of the user's line with them."""
    count = len(lines)
    for part in walk(node):
        if isinstance(part, _LOCATED) and (number := getattr(part, "lineno", None)) is not None:
            line = lines[number - 1] if number <= count else first_line
            part.lineno = part.end_lineno = line or first_line
            part.col_offset = part.end_col_offset = -1
    node.lineno = node.end_lineno = first_line


_EDITED = "symcompile_loaded"  # set on a parsed text the loader has edited to compile it

Tidy = Callable[[types.TracebackType | None], types.TracebackType | None]


def load(text: str, scope: Scope, lines: Sequence[int] = (), tidy: Tidy | None = None,
         forwarders: Sequence[object] = (), parsed: ast.Module | None = None,
         ) -> tuple[types.FunctionType, str]:
    """The function defined by the generated `text`, and the linecache filename the text is
    registered under. Its code is code of the user's file (`scope.filename`), at the lines
    `lines` says each line of `text` runs as (see `at_user_lines`). `parsed`: `text` parsed,
    where that is at hand (code generation parsed it to check it), edited here (so not used
    again: a tree already loaded is parsed again).

    With `tidy`, a call passed on to one of the `forwarders` (the objects a failed check on
    entry calls: `return recompile(a, b)`) is tidied as forwarding code is: an exception
    leaving it has its traceback replaced by `tidy(traceback)`, whose first frame is this
    function's, raised again without adding that frame (the text stays as shown; the `try`
    costs nothing while nothing is raised)."""
    filename = register_source(text, scope)
    if parsed is None or getattr(parsed, _EDITED, False):  # (a tree is compiled once)
        parsed = ast.parse(text, filename)
    setattr(parsed, _EDITED, True)
    node = parsed.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise TypeError("generated source must hold a single def")
    at_user_lines(node, lines, scope.first_line)
    names = {name for name, value in scope.bindings.items()
             if any(value is forwarder for forwarder in forwarders)}
    objects = _tidy_forwarded(node, text, names, tidy) if tidy is not None and names else {}
    code = _with_constants(compile_def(node, scope.filename, scope), objects)
    return make_function(code, scope), filename


def _tidy_forwarded(node: ast.FunctionDef, text: str, names: set[str], tidy: Tidy,
                    ) -> dict[str, object]:
    """Wrap each `return <one of names>(...)` of `node` (parsed from `text`) in `try: ...
    except ...` (see `_tidying_handler`): the objects its constants' markers stand for."""
    markers = f"symcompile tidy {id(tidy)}", "symcompile BaseException"
    objects = dict(zip(markers, (tidy, BaseException)))
    taken = set(re.findall(r"\bsymcompile_error_*\b", text))  # the handler's name avoids them
    for block in statement_blocks(node.body):  # statements only: no expression holds a `return`
        for index, stmt in enumerate(block):
            if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call) \
                    and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in names:
                # (at the statement's line, no column: as `at_user_lines` left the statement)
                handler = _tidying_handler(node.args, taken, *markers, line=stmt.lineno)
                block[index] = ast.copy_location(ast.Try([stmt], [handler], [], []), stmt)
    return objects


def _with_constants(code: types.CodeType, objects: dict[str, object]) -> types.CodeType:
    """`code` with each constant named in `objects` (a marker string) replaced by its object."""
    if not objects:
        return code
    return code.replace(co_consts=tuple(objects.get(const, const) if isinstance(const, str)
                                        else const for const in code.co_consts))


def forwarding_code(params: ast.arguments, scope: Scope, target: Callable[..., object],
                    tidy: Tidy | None = None) -> types.CodeType:
    """Code with the parameters `params` whose body is `return target(<same arguments>)`; with
    `tidy`, an exception leaving it has its traceback replaced by `tidy(traceback)` (whose
    first frame is this code's), and no frame of this code added again (a bare `raise`).

    It has the free variables of `scope` but never reads them, so it can run with any closure
    at least that long. `target`, `tidy` and `BaseException` are reached through the code's
    constants (set after compiling), so calling it costs no name lookup and the user's
    globals cannot shadow them. The `try` costs nothing while nothing is raised. Code for the
    same parameters and scope layout is compiled once (`_forwarding_templates`), the objects
    put in its constants per call.
    """
    name = scope.name if scope.name.isidentifier() else "forward"
    key = (_parameter_layout(params), name, tuple(scope.free_names), scope.private_class,
           scope.future_flags, tidy is not None)
    template = _forwarding_templates.get(key)
    if template is None:
        if len(_forwarding_templates) >= _MAX_FORWARDING_TEMPLATES:
            _forwarding_templates.clear()
        template = _forwarding_templates[key] = _forwarding_template(params, scope, name,
                                                                     tidy is not None)
    objects: dict[str, object] = {_TARGET_MARKER: target}
    if tidy is not None:
        objects |= {_TIDY_MARKER: tidy, _BASE_MARKER: BaseException}
    _register_forwarding_line()
    return _with_constants(template, objects)


# forwarding code compiled already, by its parameters' and scope's layout (`forwarding_code`)
_forwarding_templates: dict[tuple[object, ...], types.CodeType] = {}
_MAX_FORWARDING_TEMPLATES = 1024
_TARGET_MARKER = "symcompile forwarding target"
_TIDY_MARKER = "symcompile tidy"
_BASE_MARKER = "symcompile BaseException"


def _parameter_layout(params: ast.arguments) -> tuple[object, ...]:
    """What of a def's parameters its forwarding code depends on: their names and kinds."""
    def names(args: list[ast.arg]) -> tuple[str, ...]:
        return tuple(arg.arg for arg in args)
    return (names(params.posonlyargs), names(params.args), names(params.kwonlyargs),
            params.vararg and params.vararg.arg, params.kwarg and params.kwarg.arg)


def _forwarding_template(params: ast.arguments, scope: Scope, name: str, tidied: bool,
                         ) -> types.CodeType:
    """`forwarding_code`'s code with the markers still in its constants."""
    body: list[ast.stmt] = [forwarding_call(params, ast.Constant(_TARGET_MARKER))]
    if tidied:
        body = [ast.Try(body, [_tidying_handler(params, set(), _TIDY_MARKER, _BASE_MARKER)], [], [])]
    node = with_type_params(ast.FunctionDef(name, copy_tree(params), body, [], None, None,
                                            lineno=1, col_offset=0))
    located(node)
    at_user_lines(node, (), 1)  # no columns: the line traceback shows is FORWARDING_LINE
    return compile_def(node, FORWARDING_FILE, scope)


def _tidying_handler(params: ast.arguments, taken: set[str], tidy: str, base: str,
                     line: int | None = None) -> ast.ExceptHandler:
    """`except BaseException as e: e.__traceback__ = tidy(e.__traceback__); raise` (`e` a name
    no parameter has, nor any of `taken`; `tidy` and `BaseException` the constants' markers);
    with `line`, every part of it at that line, without columns."""
    taken = taken | {arg.arg for arg in (*params.posonlyargs, *params.args, *params.kwonlyargs,
                                         params.vararg, params.kwarg) if arg is not None}
    error = next(name for name in (f"symcompile_error{'_' * n}" for n in itertools.count())
                 if name not in taken)
    at: dict[str, Any] = {} if line is None else {
        "lineno": line, "col_offset": -1, "end_lineno": line, "end_col_offset": -1}
    traceback = ast.Attribute(ast.Name(error, ast.Load(), **at), "__traceback__", ast.Load(), **at)
    fix = ast.Assign([ast.Attribute(ast.Name(error, ast.Load(), **at), "__traceback__",
                                    ast.Store(), **at)],
                     ast.Call(ast.Constant(tidy, **at), [traceback], [], **at), **at)
    return ast.ExceptHandler(ast.Constant(base, **at), error, [fix, ast.Raise(None, None, **at)],
                             **at)


def _register_forwarding_line() -> None:
    """Give the forwarding code's one line a text in linecache, so a traceback through it
    shows what the frame does rather than its file name alone (again after a
    `linecache.clearcache()`)."""
    linecache.cache[FORWARDING_FILE] = (len(FORWARDING_LINE), None, [FORWARDING_LINE],
                                        FORWARDING_FILE)


def _closure_setter() -> Callable[[types.FunctionType, tuple[types.CellType, ...] | None], int] | None:
    """CPython's `PyFunction_SetClosure`, or None where ctypes cannot reach it."""
    try:
        import ctypes

        setter = ctypes.pythonapi.PyFunction_SetClosure
    except (ImportError, AttributeError):
        return None
    setter.argtypes = (ctypes.py_object, ctypes.py_object)
    setter.restype = ctypes.c_int
    return setter


_set_closure = _closure_setter()


class LayoutError(Exception):
    """The code cannot be installed on the function: its closure would have to shrink."""


def install(function: types.FunctionType, code: types.CodeType,
            closure: tuple[types.CellType, ...], neutral: Callable[[int], types.CodeType]) -> None:
    """Make `function` run `code` with `closure`, safe for threads calling it meanwhile.

    Python lets `__code__` change only to code with as many free variables as the closure has
    cells, and offers no way to change the closure; CPython's C API does. The closure may only
    grow: while it changes, `function` runs `neutral(n)`, code with `n` free variables that it
    never reads (it forwards the call), so every moment pairs a code with a long enough closure.
    """
    current = function.__closure__ or ()
    if len(closure) == len(current) and all(a is b for a, b in zip(closure, current)):
        function.__code__ = code
        return
    if _set_closure is None or len(closure) < len(current):
        raise LayoutError(f"cannot change a closure of {len(current)} cells to {len(closure)}")
    function.__code__ = neutral(len(current))
    _set_closure(function, closure or None)
    function.__code__ = code
