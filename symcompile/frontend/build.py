"""Front end: a Python function's source → Python AST → IR.

First stage of the pipeline. `read_function_source` finds a function's source (by its def's
indentation, or with `inspect.getsource`), parses it (positions stay those of the user's file, so errors point at the
real line and column), checks that it is the text the function's code was compiled from, and
removes the decorators. `build_function` turns the `def` into the IR of `symcompile.ir.nodes`, its
names spelled as the code spells them (private names mangled): structured statements over
expressions, and opaque nodes for every construct the compiler does not model. It accepts every
valid Python function; the only refusals are a function whose source cannot be had or whose
file changed since it was defined, reported as a `SymbolicError` that says why and what to do.
`frame_reader` finds the code that must run as written because it reads a frame's locals.
"""

from __future__ import annotations
import __future__

import ast
import contextlib
import contextvars
import dataclasses
import functools
import inspect
import linecache
import re
import symtable
import types
import warnings
from dataclasses import dataclass
from typing import Callable, Iterator, TypedDict, TypeVar

from .. import ir
from ..errors import SymbolicError
from ..ir.names import BOUND_AS, bound_names
from ..ir.ops import op_for_ast
from ..ir.syntax_trees import copy_tree, walk
from .syntax import FUTURE_FLAGS, private_class_name, with_type_params

# flags of code objects whose bodies are passed through unchanged (yield / await)
PASS_THROUGH_FLAGS = (
    inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
    | inspect.CO_ITERABLE_COROUTINE
)
_Node = TypeVar("_Node", bound=ast.AST)


class _Position(TypedDict):
    """The position of an AST node built here, as keyword arguments."""

    lineno: int
    col_offset: int
    end_lineno: int
    end_col_offset: int


@dataclass(frozen=True)
class FunctionSource:
    """A function's `def` as parsed from its file, decorators removed.

    `node` positions are those of the user's file; `lines` are the file's lines (for error carets).
    `private_class` is the class whose name Python puts in the function's private names
    (`__x` is `_C__x` in a method of `C`), and `deferred_annotations` whether it was compiled
    with `from __future__ import annotations`.
    """

    node: ast.FunctionDef | ast.AsyncFunctionDef
    filename: str
    lines: tuple[str, ...]
    private_class: str | None = None
    deferred_annotations: bool = False
    # False when the def is too deeply nested to be compiled again and compared with the code
    # that runs: then nothing may be compiled from it (the file may have been edited)
    checked: bool = True

    @property
    def text(self) -> str:
        """The function's source as written, decorators removed, dedented."""
        first = self.node.lineno - 1
        chunk = self.lines[first:self.node.end_lineno]
        prefix = chunk[0][:len(chunk[0]) - len(chunk[0].lstrip())]
        return "".join(line.removeprefix(prefix) for line in chunk)


def _no_source_error(func: Callable[..., object], why: str) -> SymbolicError:
    name = getattr(func, "__qualname__", repr(func))
    return SymbolicError(
        f"symcompile cannot read the source of {name!r}: {why}",
        hint="define the function in a .py file (or a notebook cell) and decorate it there; "
        "functions made by exec() need their source registered in linecache",
    )


# each function's source read in the current compilation (`sources_shared`), or None outside one
_shared_sources: contextvars.ContextVar[dict[types.FunctionType, FunctionSource] | None] = \
    contextvars.ContextVar("symcompile_function_sources", default=None)


# each source's IR built in the current compilation, by the source and the namespace's parts
_shared_builds: contextvars.ContextVar[dict[tuple[object, ...], tuple[object, ir.Function]] | None] \
    = contextvars.ContextVar("symcompile_function_builds", default=None)


@contextlib.contextmanager
def sources_shared() -> Iterator[None]:
    """Inside the block (one compilation), each function's source is read and parsed once,
    and its IR built once for each namespace: the passes read the same callees in every
    round of every pass, and their files are not reread while it runs (a source that cannot
    be read is tried again each time: it raises)."""
    sources, builds = _shared_sources.set({}), _shared_builds.set({})
    try:
        yield
    finally:
        _shared_sources.reset(sources)
        _shared_builds.reset(builds)


def read_function_source(func: types.FunctionType) -> FunctionSource:
    """Find, parse and locate `func`'s `def` (or lambda) in its file (once in a compilation,
    see `sources_shared`)."""
    shared = _shared_sources.get()
    if shared is None or not isinstance(func, types.FunctionType):
        return _read_function_source(func)
    if func not in shared:
        shared[func] = _read_function_source(func)
    return shared[func]


def _read_function_source(func: types.FunctionType) -> FunctionSource:
    if not isinstance(func, types.FunctionType):
        raise SymbolicError(
            f"symcompile compiles Python functions; got {type(func).__name__} {func!r}",
            hint="decorate a function written in Python (def or lambda)",
        )
    # (inspect reads the source of the function a `functools.wraps` wrapper names)
    quick = None if hasattr(func, "__wrapped__") else _def_lines(func.__code__)
    if quick is not None:
        with contextlib.suppress(SymbolicError):  # (inspect's reading says why)
            return _source_in(func, quick, func.__code__.co_firstlineno)
    try:
        lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError) as exc:
        raise _no_source_error(func, str(exc)) from None
    return _source_in(func, lines, first_line)


def _source_in(func: types.FunctionType, lines: list[str], first_line: int) -> FunctionSource:
    """The function's def in `lines`, the lines of its file from `first_line` on that hold
    it (and maybe more)."""
    code = func.__code__
    filename = code.co_filename
    file_lines = tuple(linecache.getlines(filename)) or tuple(lines)
    first_line = max(first_line, 1)
    chunk = "".join(lines)
    # an indented def (a method, a nested function) parses inside `if 1:`; columns stay real
    wrapped = chunk[:1].isspace()
    try:
        module = _parsed_at(("if 1:\n" if wrapped else "") + chunk, first_line - int(wrapped))
    except SyntaxError as exc:
        raise _no_source_error(func, f"its source lines do not parse on their own ({exc.msg})")
    found = _find_def(module, func, (chunk, first_line, filename, file_lines))
    if found is None:
        raise _no_source_error(func, "no single definition in its source lines matches the "
                               "function's code (was the file edited after it was imported, or "
                               "are there several lambdas on one line?)")
    node, checked = found
    node.decorator_list = []
    deferred = bool(code.co_flags & __future__.annotations.compiler_flag)
    return FunctionSource(node, filename, file_lines, private_class_of(code), deferred, checked)


def _parsed_at(text: str, line: int) -> ast.Module:
    """`text` parsed as if it started at `line` of its file: after as many empty lines (the
    parser skips them faster than `ast.increment_lineno` moves a def's nodes, up to a few
    hundred empty lines per line of text)."""
    padding = line - 1
    if 0 <= padding <= 400 * text.count("\n"):
        return ast.parse("\n" * padding + text)
    return ast.increment_lineno(ast.parse(text), padding)


def _def_lines(code: types.CodeType) -> list[str] | None:
    """The lines of a `.py` file from the code's first line (a decorator's, or the def's) to
    the end of its def's body, found by indentation alone; what `inspect.getsourcelines`
    finds tokenizing them (a few times slower), give or take blank and comment lines after
    the body. None where that could be wrong (a lambda, tabs, a line at the def's
    indentation inside its header): inspect reads those. Lines cut inside a token or a
    bracket do not parse: the caller then asks inspect too."""
    if code.co_name == "<lambda>" or not code.co_filename.endswith(".py"):
        return None
    linecache.checkcache(code.co_filename)  # (as inspect does: an edited file is read again)
    lines = linecache.getlines(code.co_filename)
    first = code.co_firstlineno - 1
    indent = _indentation(lines[first]) if 0 <= first < len(lines) else None
    if indent is None:
        return None
    number = first
    while True:  # the decorators (and lines inside their brackets), then the def's line
        if number >= len(lines):
            return None
        depth, text = _indentation(lines[number]), lines[number].lstrip(" ")
        if depth == indent and _DEF_LINE.match(text):
            break
        if depth is None or depth < indent or depth == indent and not text.startswith("@"):
            return None
        number += 1
    for end in range(number + 1, len(lines)):
        text = lines[end].lstrip(" ")
        if text.strip() and not text.startswith("#"):
            depth = _indentation(lines[end])
            if depth is None:
                return None
            if depth <= indent:
                return lines[first:end]
    return lines[first:]


_DEF_LINE = re.compile(r"(async\s+)?def\s")


def _indentation(line: str) -> int | None:
    """How many spaces `line` starts with; None if other white space follows them."""
    text = line.lstrip(" ")
    return None if text[:1] in ("\t", "\f") else len(line) - len(text)


# per (code, source lines read, first line): which of the defs placed there compile to the
# code, and whether that could be checked (compiling is the costly part of reading a source;
# a pipeline reads callees often)
_same_code: dict[tuple[types.CodeType, str, int], list[tuple[int, bool]]] = {}
_SAME_CODE_ENTRIES = 512


def _find_def(module: ast.Module, func: types.FunctionType,
              where: tuple[str, int, str, tuple[str, ...]],
              ) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool] | None:
    """The `def` (or the one lambda, made into a def) on the code's first line that the code
    was compiled from, given the lines read, their first line, the file's name and lines, and
    whether it could be checked to compile to the code (see `FunctionSource.checked`).
    Raises a SymbolicError if the text there no longer compiles to the code."""
    code = func.__code__
    chunk, first_line, filename, file_lines = where
    candidates: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda] = [
        node for node in ast.walk(module) if isinstance(node, ast.Lambda)
    ] if code.co_name == "<lambda>" else _defs_named(module, code.co_name)
    placed = [node for node in candidates if _matches_code(node, code)]
    key = (code, chunk, first_line)
    if key not in _same_code:
        imported = _imported_names(filename, "".join(file_lines))
        if len(_same_code) >= _SAME_CODE_ENTRIES:
            _same_code.pop(next(iter(_same_code)), None)
        verdicts = [_compiles_to(node, code, imported) for node in placed]
        _same_code[key] = [(index, verdict is not None)
                           for index, verdict in enumerate(verdicts) if verdict is not False]
    matching = [(placed[index], checked) for index, checked in _same_code[key]]
    if placed and not matching:
        raise _changed_file_error(func)
    if len(matching) != 1:
        return None
    node, checked = matching[0]
    return (_lambda_as_def(node) if isinstance(node, ast.Lambda) else node), checked


def _defs_named(module: ast.Module, name: str,
                ) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda]:
    """The defs called `name` in `module`, at any depth: in blocks of statements only (no
    expression holds a def), so a walk over its expressions is saved."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda] = []
    pending = [module.body]
    while pending:
        for stmt in pending.pop():
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                found.append(stmt)
            pending += [block for part in ("body", "orelse", "finalbody")
                        if type(block := getattr(stmt, part, None)) is list]
            pending += [child.body for part in ("handlers", "cases")
                        for child in getattr(stmt, part, ())]
    return found


class SourceChangedError(SymbolicError):
    """The function's file no longer holds the text its code was compiled from."""


def _changed_file_error(func: types.FunctionType) -> SourceChangedError:
    name = getattr(func, "__qualname__", repr(func))
    return SourceChangedError(
        f"symcompile cannot compile {name!r}: its file {func.__code__.co_filename!r} was "
        "changed since the function was defined (the code that runs is not what the file says "
        "now)",
        hint="re-import the module (importlib.reload) or restart the interpreter; if no one "
        "edited the file, an import hook that rewrites code made it differ from its text",
    )


def _lambda_as_def(node: ast.Lambda) -> ast.FunctionDef:
    body: list[ast.stmt] = [ast.Return(node.body, lineno=node.lineno, col_offset=node.col_offset)]
    function = with_type_params(ast.FunctionDef(name="lambda_", args=node.args, body=body,
                                                decorator_list=[], returns=None, type_comment=None))
    return ast.copy_location(function, node)


def _parameter_names(args: ast.arguments) -> list[str]:
    """Parameter names in code-object order: positional, keyword-only, *args, **kwargs."""
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return names


def _matches_code(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                  code: types.CodeType) -> bool:
    """A cheap check that a parsed def could be the one that made `code`: same parameter
    names, and the code's lines inside the def's."""
    total = (code.co_argcount + code.co_kwonlyargcount
             + bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS))
    private = private_class_of(code)
    names = [mangled(name, private) for name in _parameter_names(node.args)]
    if names != list(code.co_varnames[:total]):
        return False
    lines = [line for _, _, line in code.co_lines() if line is not None]
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return not lines or (start <= min(lines) and max(lines) <= (node.end_lineno or 0))


def _compiles_to(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                 code: types.CodeType, imported: frozenset[str]) -> bool | None:
    """Whether the parsed def, compiled where the function was defined, gives `code`: the same
    instructions, constants and names (line numbers aside, so an edit elsewhere in the file
    is no reason to refuse). The file may have been edited since the code was compiled.
    None when the def is too deeply nested to be compiled again here."""
    if _rewritten_by_pytest(code):
        return True  # pytest compiled its own text of `assert`: only the cheap check applies
    expected = _comparable(code)
    read = imported & _names_read(code)
    # (code compiled from the def alone, as `optimize_source` does, calls as if nothing was
    # imported)
    for names in (read, frozenset()) if read else (read,):
        try:
            compiled = _compiled_where_defined(node, code, names)
        except RecursionError:
            return None
        if compiled is not None and _comparable(compiled) == expected:
            return True
    return False


def _compiled_where_defined(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                            code: types.CodeType, imported: frozenset[str]) -> types.CodeType | None:
    """The code Python makes of `node` in its context: inside a function whose locals are
    the code's free variables and, for a method, inside a class of the same name (which
    mangles `__x`), with the code's `from __future__` flags, in a module importing the
    `imported` names (Python calls `module.f(...)` differently from `obj.f(...)`).

    `import <names>; def check(<free variables>): global <name>; class C: <node>`; the code
    is the first one named like `code` inside it (the def before anything nested in it)."""
    private = private_class_of(code)
    free = [name for name in code.co_freevars if private is None or name != "__class__"]
    at: _Position = {"lineno": node.lineno, "col_offset": 0,
                     "end_lineno": node.end_lineno or node.lineno, "end_col_offset": 0}
    body: list[ast.stmt] = [node if isinstance(node, ast.stmt) else ast.Expr(node, **at)]
    bound = private if private is not None else getattr(node, "name", None)
    if private is not None:
        body = [with_type_params(ast.ClassDef(private, [], [], body, [], **at))]
    if bound is not None and bound not in free:  # as in the file, the def reads it as a global
        body.insert(0, ast.Global([bound], **at))
    params = ast.arguments(posonlyargs=[], args=[ast.arg(name, **at) for name in free],
                           vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    check = with_type_params(ast.FunctionDef("_symcompile_source_check", params, body, [], None,
                                             None, **at))
    imports = [ast.Import([ast.alias(name, **at)], **at) for name in sorted(imported)]
    module = ast.Module([*imports, check], type_ignores=[])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (shown when the file itself was compiled)
            compiled = compile(ast.fix_missing_locations(module), code.co_filename, "exec",
                               flags=code.co_flags & FUTURE_FLAGS, dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    return next((inner for inner in _nested_codes(compiled) if inner.co_name == code.co_name), None)


@functools.lru_cache(maxsize=16)
def _imported_names(filename: str, text: str) -> frozenset[str]:
    """The names bound by an `import` in the module scope of `text` (a file's text)."""
    try:
        table = symtable.symtable(text, filename, "exec")
    except (SyntaxError, ValueError, RecursionError):
        return frozenset()
    return frozenset(symbol.get_name() for symbol in table.get_symbols() if symbol.is_imported())


def _names_read(code: types.CodeType) -> set[str]:
    """The names `code` and the code nested in it use: globals, attributes and locals (CPython
    calls `name.f()` as it calls a module's function wherever the module imports `name`, even
    where `name` is a local: `def g(functools): functools.reduce(...)`)."""
    return set().union(*(inner.co_names + inner.co_varnames + inner.co_cellvars
                         + inner.co_freevars for inner in (code, *_nested_codes(code))))


def _nested_codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """The code objects nested in `code`, each before those nested in it."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested_codes(const)


def _comparable(code: types.CodeType) -> types.CodeType:
    """`code` without what depends on where its text sits and what encloses it: its line
    numbers, qualified name, file name and whether it is nested in a function."""
    consts = tuple(_comparable(const) if isinstance(const, types.CodeType) else const
                   for const in code.co_consts)
    return code.replace(co_qualname="", co_filename="", co_firstlineno=1, co_linetable=b"",
                        co_flags=code.co_flags & ~inspect.CO_NESTED, co_consts=consts)


def _rewritten_by_pytest(code: types.CodeType) -> bool:
    """Whether pytest rewrote the `assert` statements of `code` (a test module's function)."""
    return any(name.startswith("@py_assert") for name in code.co_varnames) or \
        any(_rewritten_by_pytest(inner) for inner in _nested_codes(code))


# ------------------------------------------------------------ private names


def private_class_of(code: object) -> str | None:
    """The class whose name Python puts in the private names of `code` (a code object)."""
    return private_class_name(code.co_qualname) if isinstance(code, types.CodeType) else None


def is_private(name: str) -> bool:
    """Whether Python mangles `name` in a class body: `__x`, not `__x__` nor a dotted name."""
    return name.startswith("__") and not name.endswith("__") and "." not in name


def mangled(name: str, private_class: str | None) -> str:
    """`name` as Python spells it in the code of class `private_class`: `__x` is `_C__x`
    (a class named only with underscores changes nothing)."""
    if private_class is None or not is_private(name):
        return name
    stripped = private_class.lstrip("_")
    return f"_{stripped}{name}" if stripped else name


def unmangled(name: str, private_class: str | None) -> str:
    """`name` as written in class `private_class`, where Python spells it `name` (`_C__x` is
    `__x`); `name` itself if Python would not spell `__x` so."""
    prefix = "_" + (private_class or "").lstrip("_")
    original = name[len(prefix):] if prefix != "_" and name.startswith(prefix + "__") else name
    return original if mangled(original, private_class) == name else name


class _Mangler(ast.NodeTransformer):
    """Spells names as the code uses them (`spell` is `mangled`), or back as written
    (`unmangled`): variables, attributes, parameters, `global` names, `except ... as` and
    match captures, each with the class whose body encloses it. A nested def, class or
    import binds its name as mangled but is named as written: it keeps its name and records
    the name bound (`BOUND_AS`). Keyword arguments and imported modules' names are not
    mangled by Python; deferred annotations are strings as written."""

    def __init__(self, private_class: str | None, deferred_annotations: bool,
                 spell: Callable[[str, str | None], str] = mangled) -> None:
        self.private_class: str | None = private_class
        self.deferred_annotations = deferred_annotations
        self.spell = spell

    def name(self, name: str) -> str:
        return self.spell(name, self.private_class)

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.name(node.id)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
        self.generic_visit(node)
        node.attr = self.name(node.attr)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.name(node.arg)
        return self._annotation_owner(node, "annotation")

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> ast.AST:
        node.names = [self.name(name) for name in node.names]
        return node

    visit_Nonlocal = visit_Global

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        node.name = node.name and self.name(node.name)
        return self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs | ast.MatchStar) -> ast.AST:
        node.name = node.name and self.name(node.name)
        return self.generic_visit(node)

    visit_MatchStar = visit_MatchAs

    def visit_MatchMapping(self, node: ast.MatchMapping) -> ast.AST:
        node.rest = node.rest and self.name(node.rest)
        return self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> ast.alias:
        setattr(node, BOUND_AS, self.name(node.asname or node.name.split(".")[0]))
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        setattr(node, BOUND_AS, self.name(node.name))
        return self._annotation_owner(node, "returns")

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        return self._annotation_owner(node, "annotation")

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        setattr(node, BOUND_AS, self.name(node.name))
        for field in ("bases", "keywords", "decorator_list"):
            setattr(node, field, [self.visit(child) for child in getattr(node, field)])
        outer, self.private_class = self.private_class, node.name
        node.body = [self.visit(child) for child in node.body]
        self.private_class = outer
        return node

    def _annotation_owner(self, node: _Node, field: str) -> _Node:
        """`node` visited; its annotation `field` too unless annotations are deferred."""
        annotation = getattr(node, field)
        if self.deferred_annotations:
            setattr(node, field, None)
        self.generic_visit(node)
        if self.deferred_annotations:
            setattr(node, field, annotation)
        return node


def mangle_names(node: ast.FunctionDef | ast.AsyncFunctionDef, private_class: str | None,
                 deferred_annotations: bool = False) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """A copy of the def whose names are those its code uses, inside class `private_class`
    (the def itself keeps its name). The IR holds these: the compiler's lookups and checks of
    globals and attributes find what the code reads, two spellings of one variable (`__x`,
    `_C__x`) are one name, and generated code, compiled in a class of the same name (see
    `loader`), means the same (Python leaves `_C__x` as it is). The node itself is `node`
    when nothing can be mangled."""
    if mangled("__x", private_class) == "__x":
        return node
    copied = copy_tree(node)
    name = copied.name
    _Mangler(private_class, deferred_annotations).visit(copied)
    copied.name = name
    return copied


def unmangle_names(node: ast.FunctionDef, private_class: str | None) -> ast.FunctionDef:
    """The generated def (edited in place) with the private names of class `private_class`
    spelled as written (`self._C__x` is `self.__x`), for the reader: compiled in a class of
    that name (see `loader`), it means the same."""
    if mangled("__x", private_class) != "__x":
        name = node.name
        _Mangler(private_class, False, unmangled).visit(node)
        node.name = name
    return node


# ------------------------------------------------------- code that reads frames

# builtins that read the calling frame's locals when called with at most this many arguments
_FRAME_BUILTINS = {"locals": 0, "vars": 0, "dir": 0, "eval": 1, "exec": 1, "breakpoint": 99}
# attributes of frames, tracebacks, generators and coroutines that lead to a frame's locals
_FRAME_ATTRIBUTES = frozenset({"f_locals", "f_back", "tb_frame", "gi_frame", "cr_frame",
                               "ag_frame"})
# attributes of a frame that say nothing of its locals
_FRAME_FACTS = frozenset({"f_lineno", "f_code", "f_globals", "f_builtins", "f_lasti"})


def _frame_functions() -> dict[int, str]:
    """The library functions that return frames (by id), each with its name."""
    functions = {
        "sys": ("_getframe", "_current_frames"),
        "inspect": ("currentframe", "stack", "trace", "getouterframes", "getinnerframes"),
        "traceback": ("walk_stack", "walk_tb"),
    }
    found: dict[int, str] = {}
    for module_name, names in functions.items():
        module = __import__(module_name)
        for name in names:
            if hasattr(module, name):
                found[id(getattr(module, name))] = f"{module_name}.{name}"
    return found


_FRAME_FUNCTIONS = _frame_functions()


def frame_reader(node: ast.AST, func: types.FunctionType) -> str | None:
    """What in `node` (a function's def, read with `func`'s globals) may read a frame's
    locals, or None: `locals()`, `vars()`, `eval(text)`, `sys._getframe()` (but not
    `sys._getframe().f_lineno`), `inspect.currentframe()`, `.f_locals`, `.tb_frame`,
    `capture_locals=`... Compiled, the function's frame would hold other locals (removed,
    renamed, inlined callees'), so such a function runs as written, and such a callee is not
    inlined. A callee that reads its caller's frame (`sys._getframe(1)`) cannot be seen."""
    if all(_frame_read_by(inner, func) is None for inner in walk(node)
           if isinstance(inner, (ast.Call, ast.Attribute, ast.Name))):
        return None  # (the usual answer, found in one quick walk)
    # `sys._getframe().f_lineno`: a fact of the frame that is no local
    facts = {id(inner.value.func) for inner in ast.walk(node)
             if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Call)
             and inner.attr in _FRAME_FACTS}
    for inner in ast.walk(node):  # (the first in this order is the one named)
        if id(inner) not in facts and (reader := _frame_read_by(inner, func)) is not None:
            return reader
    return None


def _frame_read_by(inner: ast.AST, func: types.FunctionType) -> str | None:
    """What the node `inner` reads of a frame's locals (see `frame_reader`), or None."""
    match inner:
        case ast.Call(ast.Name(name), args, keywords) if name in _FRAME_BUILTINS \
                and len(args) + len(keywords) <= _FRAME_BUILTINS[name]:
            return f"{name}()"
        case ast.Call(keywords=keywords) if any(kw.arg == "capture_locals" for kw in keywords):
            return "capture_locals="
        case ast.Attribute(_, attr) if attr in _FRAME_ATTRIBUTES:
            return f".{attr}"
        case ast.Name() | ast.Attribute(ast.Name()) if \
                (reader := _FRAME_FUNCTIONS.get(id(_global_value(inner, func)))) is not None:
            return f"{reader}()"
    return None


def _global_value(node: ast.Name | ast.Attribute, func: types.FunctionType) -> object:
    """What a global name (or a module's attribute read through one) is bound to now."""
    name = node.id if isinstance(node, ast.Name) else node.value.id  # type: ignore[attr-defined]
    scope = func.__globals__ if name in func.__globals__ else func.__builtins__
    value = scope.get(name)
    if isinstance(node, ast.Attribute):
        value = getattr(value, node.attr, None) if isinstance(value, types.ModuleType) else None
    return value


# -------------------------------------------------------------- AST → IR


_OPAQUE_STATEMENTS: dict[type[ast.AST], str] = {
    ast.Try: "try statement",
    ast.With: "with statement",
    ast.FunctionDef: "nested function definition",
    ast.AsyncFunctionDef: "nested function definition",
    ast.ClassDef: "class definition",
    ast.Global: "global declaration",
    ast.Nonlocal: "nonlocal declaration",
    ast.Delete: "del statement",
    ast.Assert: "assert statement",
    ast.Import: "import",
    ast.ImportFrom: "import",
    ast.Match: "match statement",
    ast.AnnAssign: "annotated assignment",
    ast.AsyncFor: "async for",
    ast.AsyncWith: "async with",
}

_OPAQUE_EXPRESSIONS: dict[type[ast.AST], str] = {
    ast.Lambda: "lambda",
    ast.ListComp: "comprehension",
    ast.SetComp: "comprehension",
    ast.DictComp: "comprehension",
    ast.GeneratorExp: "generator expression",
    ast.JoinedStr: "f-string",
    ast.NamedExpr: "assignment expression (walrus)",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


def _loc(node: ast.AST) -> ir.Loc:
    return ir.Loc(getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _opaque_reason(node: ast.AST, table: dict[type[ast.AST], str]) -> str:
    return table.get(type(node), f"{type(node).__name__} not modelled")


def build_body(statements: list[ast.stmt]) -> tuple[ir.Stmt, ...]:
    """IR statements for a list of Python statements (`pass` disappears)."""
    result: list[ir.Stmt] = []
    for node in statements:
        try:
            result += build_statement(node)
        except RecursionError:  # kept as written (not copied: copying would recurse as deep)
            result.append(ir.Opaque(node, "too deeply nested", _loc(node)))
    return tuple(result)


def build_statement(node: ast.stmt) -> list[ir.Stmt]:
    """The IR of one Python statement: a list holding zero or one statement."""
    loc = _loc(node)
    match node:
        case ast.Pass():
            return []
        case ast.Expr(value):
            return [ir.ExprStmt(build_expr(value), loc)]
        case ast.Assign(targets, value):
            return [ir.Assign(tuple(map(build_expr, targets)), build_expr(value), loc)]
        case ast.AugAssign(target, op, value):
            return [ir.AugAssign(build_expr(target), op_for_ast(op).name, build_expr(value), loc)]
        case ast.If(test, body, orelse):
            return [ir.If(build_expr(test), build_body(body), build_body(orelse), loc)]
        case ast.For(target, iter_, body, orelse):
            return [ir.For(build_expr(target), build_expr(iter_), build_body(body),
                           build_body(orelse), loc)]
        case ast.While(test, body, orelse):
            return [ir.While(build_expr(test), build_body(body), build_body(orelse), loc)]
        case ast.Break():
            return [ir.Break(loc)]
        case ast.Continue():
            return [ir.Continue(loc)]
        case ast.Return(value):
            return [ir.Return(None if value is None else build_expr(value), loc)]
        case ast.Raise(exc, cause):
            return [ir.Raise(_optional(exc), _optional(cause), loc)]
    return [ir.Opaque(copy_tree(node), _opaque_reason(node, _OPAQUE_STATEMENTS), loc)]


def _optional(node: ast.expr | None) -> ir.Expr | None:
    return None if node is None else build_expr(node)


def build_expr(node: ast.expr) -> ir.Expr:
    """The IR of one Python expression (load or store context alike)."""
    match node:
        case ast.Constant(value):
            return ir.Const(value)
        case ast.Name(id):
            return ir.Name(id)
        case ast.BinOp(left, op, right):
            return ir.Op(op_for_ast(op).name, (build_expr(left), build_expr(right)))
        case ast.UnaryOp(op, operand):
            return ir.Op(op_for_ast(op).name, (build_expr(operand),))
        case ast.Compare(left, ops, comparators):
            return ir.Compare(tuple(op_for_ast(op).name for op in ops),
                              (build_expr(left), *map(build_expr, comparators)))
        case ast.BoolOp(op, values):
            return ir.BoolOp("and" if isinstance(op, ast.And) else "or",
                             tuple(map(build_expr, values)))
        case ast.IfExp(test, body, orelse):
            return ir.IfExp(build_expr(test), build_expr(body), build_expr(orelse))
        case ast.Call(func, args, keywords):
            return ir.Call(build_expr(func), tuple(map(build_expr, args)),
                           tuple(ir.Keyword(kw.arg, build_expr(kw.value)) for kw in keywords))
        case ast.Attribute(value, attr):
            return ir.Attribute(build_expr(value), attr)
        case ast.Subscript(value, index):
            return ir.Subscript(build_expr(value), build_expr(index))
        case ast.Slice(lower, upper, step):
            return ir.Slice(_optional(lower), _optional(upper), _optional(step))
        case ast.Starred(value):
            return ir.Starred(build_expr(value))
        case ast.Tuple(elts) | ast.List(elts) | ast.Set(elts):
            kind = type(node).__name__.lower()
            return ir.Build(kind, tuple(map(build_expr, elts)))
        case ast.Dict(keys, values):
            return ir.DictDisplay(tuple(map(_optional, keys)), tuple(map(build_expr, values)))
    return ir.OpaqueExpr(copy_tree(node), _opaque_reason(node, _OPAQUE_EXPRESSIONS))


def namespace_of(func: types.FunctionType) -> ir.Namespace:
    """The compile-time view of `func`'s free names: its globals, builtins and closure."""
    code = func.__code__
    return ir.Namespace(func.__globals__, func.__builtins__, frozenset(code.co_freevars), code)


def build_function(source: FunctionSource, namespace: ir.Namespace | None = None) -> ir.Function:
    """The IR of a parsed function; `namespace` lets passes resolve its free names. Its names
    are those the code uses: private names as Python mangles them (see `mangle_names`). Built
    once in a compilation (`sources_shared`) for a source and the same namespace: the IR is
    immutable."""
    shared = _shared_builds.get()
    if shared is None:
        return _built_function(source, namespace)
    plain = (id(source), None)  # the IR without a namespace: the others are it, with theirs
    if plain not in shared:  # (the source is kept with its IR: its id stays its own)
        shared[plain] = (source, _built_function(source, None))
    if namespace is None:
        return shared[plain][1]
    key = (id(source), (id(namespace.globals), id(namespace.builtins), namespace.closure,
                        namespace.code, namespace.fixed, namespace.frozen))
    if key not in shared:
        shared[key] = (source, dataclasses.replace(shared[plain][1], namespace=namespace))
    return shared[key][1]


def _built_function(source: FunctionSource, namespace: ir.Namespace | None) -> ir.Function:
    node = mangle_names(source.node, source.private_class, source.deferred_annotations)
    function = ir.Function(
        name=node.name,
        params=copy_tree(node.args),
        returns=None if node.returns is None else copy_tree(node.returns),
        body=build_body(node.body),
        filename=source.filename,
        loc=_loc(node),
        namespace=namespace,
    )
    return dataclasses.replace(function, locals=frozenset(bound_names(function)))


def function_from_text(text: str, filename: str = "<string>") -> ir.Function:
    """The IR of the first function defined in `text` (used by golden tests and tools)."""
    module = ast.parse(text, filename)
    node = next(n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    node.decorator_list = []
    return build_function(FunctionSource(node, filename, tuple(text.splitlines(keepends=True))))
