"""symcompile: a source-to-source compiler for numeric Python.

Decorate a function with `@symbolic`; its first call compiles the function's source through the
pipeline (front end → IR → passes → code generation → loader) and later calls run the generated
Python. `f.source` shows what runs.

    import symcompile as sc

    @sc.symbolic
    def fancy_func(a, b, c, d):
        ...

    fancy_func(1, 2, 3, 4)
    print(fancy_func.source)
    print(sc.explain(fancy_func, 1, 2, 3, 4))   # every change, pass by pass
"""

from typing import Any

from .errors import SymbolicError
from .runtime.api import (cache_info, clear_cache, compiled_function, disable, is_symbolic,
                          source, symbolic)
from .runtime.cache import CacheInfo
from .runtime.check import CheckError
from .runtime.export import export
from .runtime.pickling import register as _register_pickling
from .tools.explain import Explanation, explain
from .tools.modules import optimize_source

__all__ = ["CacheInfo", "CheckError", "Explanation", "SymbolicError", "cache_info", "clear_cache",
           "compiled_function", "disable", "explain", "export", "is_symbolic", "optimize_source",
           "source", "symbolic"]
__version__ = "0.1.0"

_register_pickling()  # compiled objects pickle as compiled (runtime/pickling.py)


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext symcompile`: the `%%symbolic` and `%symcompile` magics (tools/notebook.py)."""
    from .tools import notebook
    notebook.load(ipython)
