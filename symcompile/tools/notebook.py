"""IPython and Jupyter: `%load_ext symcompile`, then the `%%symbolic` cell magic and the
`%symcompile` line magic. Needs IPython (`pip install symcompile[notebook]`); the package's
`load_ipython_extension` imports this module only when the extension is loaded.

- `%%symbolic` runs the cell, replaces each function the cell defines (at its top level) by
  its `@symbolic` version, and prints the optimized source of each (the version for any
  arguments; a function with static arguments says to use `%symcompile show f(...)`).
- `%symcompile explain f(1, 2)` returns `explain(f, 1, 2)`, which the notebook shows as the
  HTML report; `%symcompile show f(1, 2)` prints the source those arguments select. The call
  is any Python call, evaluated in the notebook's namespace.
"""

from __future__ import annotations

import ast
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class

from ..errors import SymbolicError
from ..runtime import api
from .explain import Explanation, explain

USAGE = "usage: %symcompile explain f(1, 2)  |  %symcompile show f(1, 2)"


def defined_functions(cell: str) -> list[str]:
    """The names of the functions the cell defines at its top level, in order."""
    try:
        tree = ast.parse(cell)
    except SyntaxError:
        return []
    return list(dict.fromkeys(node.name for node in tree.body
                              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))))


def _source_or_why(compiled: Any, name: str) -> str:
    try:
        return str(compiled.source)
    except TypeError as error:  # `power specializes on n: it has no version ...`
        return f"# {str(error).split(':')[0]}: %symcompile show {name}(...) shows the " \
            "version some arguments select\n"
    except SymbolicError as error:
        return f"# {name} is not compiled: {error.message}\n"


@magics_class
class SymcompileMagics(Magics):
    """The magics; `load_ipython_extension` registers them."""

    @property
    def _shell(self) -> Any:
        assert self.shell is not None  # set when registered
        return self.shell

    @cell_magic
    def symbolic(self, line: str, cell: str) -> None:
        """%%symbolic: run the cell, compile its functions, print their optimized source."""
        result = self._shell.run_cell(cell)
        if not result.success:
            return
        namespace = self._shell.user_ns
        for name in defined_functions(cell):
            function = namespace.get(name)
            if function is None or not callable(function):
                continue
            compiled = function if api.is_symbolic(function) else api.symbolic(function)
            namespace[name] = compiled
            print(_source_or_why(compiled, name), end="")

    @line_magic
    def symcompile(self, line: str) -> Explanation | None:
        """%symcompile explain f(1, 2) | %symcompile show f(1, 2)"""
        command, _, call_text = line.strip().partition(" ")
        if command not in ("explain", "show"):
            raise UsageError(USAGE)
        function, args, kwargs = self._call(call_text)
        if command == "explain":
            return explain(function, *args, **kwargs)
        compiled = function if api.is_symbolic(function) else api.symbolic(function)
        print(api.source(compiled, *args, **kwargs), end="")
        return None

    def _call(self, text: str) -> tuple[Any, tuple[Any, ...], dict[str, Any]]:
        """`f(1, y=2)` → f, (1,), {"y": 2}, evaluated in the notebook's namespace."""
        try:
            call = ast.parse(text.strip(), mode="eval").body
        except SyntaxError as error:
            raise UsageError(f"{text.strip()!r} is not a call ({error.msg}); {USAGE}") from None
        if not isinstance(call, ast.Call):
            raise UsageError(f"{text.strip()!r} is not a call; {USAGE}")
        collect = ast.Call(ast.Name("_symcompile_collect", ast.Load()),
                           [call.func, *call.args], call.keywords)
        namespace = {**self._shell.user_ns, "_symcompile_collect": lambda *a, **k: (a, k)}
        expression = ast.fix_missing_locations(ast.Expression(collect))
        (function, *args), kwargs = eval(compile(expression, "<%symcompile>", "eval"), namespace)
        return function, tuple(args), kwargs


def load(ipython: Any) -> None:
    """Register the magics with the running IPython."""
    ipython.register_magics(SymcompileMagics)
