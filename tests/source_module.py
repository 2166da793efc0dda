"""Source text imported as a real module, for the tests and the fuzz campaign.

The compiler reads a function's source from its file (`inspect.getsource`), so a function
made from text must come from a file: this writes the text to one and imports it. The one
helper behind conftest's `make_module`, the random program and NumPy fuzzers and
`python -m tests.fuzz`.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path


def import_source(source: str, path: Path, *, keep: bool = True) -> types.ModuleType:
    """Write `source` to `path` (a `.py` file, whose stem is the module's name) and import it.

    With `keep` the module stays in `sys.modules`, as an imported module does (code that
    reaches its module through `sys.modules[__name__]` needs it); otherwise it is there only
    while its body runs."""
    name = path.stem
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        if not keep:
            sys.modules.pop(name, None)
    return module
