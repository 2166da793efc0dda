"""The package's folders are its pipeline, and imports only go down it (issue 12).

Layers, lowest first: `examples/` (user code that imports nothing of symcompile), `errors`,
`ir/`, `frontend/`, `analysis/`, `passes/`, `backend/`, `runtime/`, `tools/`, then the
package's `__init__` and `__main__`. A module may
import from its own layer or a lower one, never a higher one; modules import no cycle, deferred
imports included; an import inside a function (deferred) is allowed only where it breaks a real
cost, listed in `DEFERRED` with the reason. Within `passes/`, a pass module (one that
`pipeline.PASSES` or `RUN_LAST` names) imports no other pass module: what two passes share is
a fact of the IR or of the analyses, or a support module of `passes/` (notes, returns, algebra).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Iterator

import pytest

from symcompile.passes import pipeline

PACKAGE = Path(__file__).resolve().parent.parent / "symcompile"

LAYERS = ("examples", "errors", "ir", "frontend", "analysis", "passes", "backend", "runtime",
          "tools", "__init__", "__main__")

# (importing module, imported module): why the import waits for a call.
DEFERRED: dict[tuple[str, str], str] = {
    ("symcompile.backend.loader", "ctypes"):
        "ctypes is missing from some Python builds; the loader then makes new functions instead",
    ("symcompile.tools.cli", "benchmarks.__main__"):
        "the benchmarks live in a source checkout, not in the installed package",
    ("symcompile", "symcompile.tools.notebook"):
        "it imports IPython, optional and slow to import; `%load_ext symcompile` loads it",
}




def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.index(parts[1] if len(parts) > 1 else "__init__")


@functools.cache
def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, deferred) for every import in the module at `path` that runs (those
    under `if TYPE_CHECKING:` are for the type checker only)."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = {id(inner) for node in tree.body if isinstance(node, ast.If)
                 and ast.unparse(node.test).endswith("TYPE_CHECKING") for inner in node.body}
    found = []
    for node, deferred in statements(tree, False):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, deferred) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            source = ".".join(base + [node.module] if node.module else base) if node.level else node.module
            for alias in node.names:
                candidate = f"{source}.{alias.name}"
                is_module = (PACKAGE.parent / candidate.replace(".", "/")).with_suffix(".py").exists() \
                    or (PACKAGE.parent / candidate.replace(".", "/")).is_dir()
                found.append((candidate if is_module else source, deferred))
    return found


def statements(node: ast.AST, deferred: bool) -> Iterator[tuple[ast.AST, bool]]:
    """The statements (and except and case clauses) inside `node`, outermost first, each with
    whether it is inside a function; expressions are not entered (no import is in one)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
            yield child, deferred
            yield from statements(child, deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def graph() -> dict[str, set[str]]:
    """The modules of symcompile each imports (read when a test asks, not at collection)."""
    return {module: {target for target, _ in imports(path)
                     if target.startswith("symcompile") and target != module}
            for module, path in MODULES.items()}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_higher_layer(module: str) -> None:
    upward = sorted(target for target in graph()[module]
                    if layer(target) > layer(module))
    assert not upward, f"{module} (layer {LAYERS[layer(module)]}) imports upward: {upward}"


def test_no_import_cycles() -> None:
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph().get(module, ())):
            target = target if target in graph() else target.rsplit(".", 1)[0]
            if state.get(target) == 1:
                cycles.append(" → ".join(stack[stack.index(target):] + [target]))
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(graph()):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_deferred_imports_are_each_explained() -> None:
    unexplained = sorted((module, target) for module, path in MODULES.items()
                         for target, deferred in imports(path)
                         if deferred and (module, target) not in DEFERRED)
    assert not unexplained, f"imports inside functions, not listed in DEFERRED: {unexplained}"


def test_no_pass_module_imports_another_pass_module() -> None:
    passes = {run_pass.__module__ for run_pass in (*pipeline.PASSES, *pipeline.RUN_LAST)}
    borrowed = sorted(f"{module} imports {target}" for module in passes
                      for target in graph()[module] if target in passes)
    assert not borrowed, "passes borrowing each other's internals:\n" + "\n".join(borrowed)
