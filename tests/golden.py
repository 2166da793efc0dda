"""Golden before/after files: one file per case, readable as a lesson.

A golden file holds a function, a marker line naming what ran over it, and the expected result:

    # fold_constants folds the arithmetic on literals
    def f(x):
        return x * (2 + 3)
    # --- after fold_constants ---
    def f(x):
        return x * 5

The `before` half runs as a module, so it may define helpers (to be inlined) and globals; the
function compiled is the one the expected half defines. Files live in `tests/golden/<group>/`,
where the group names a pass in
`symcompile.passes.pipeline` (`fold_constants`), or is `pipeline` for the whole default pipeline. The
expected half is compared as a Python tree, so layout-only differences between renderers (astor
or `ast.unparse`) do not matter. Run pytest with `--update-golden` (or set
SYMCOMPILE_UPDATE_GOLDEN=1) to rewrite the expected halves from what the compiler does now;
review the diff before committing it.

Three conventions for the type-conditional and unsafe rules: a parameter annotated `bool`, `int`,
`float` or `complex` (or with a class of the case's own) stands for an argument of that exact
type (the case is compiled as the version for such arguments); one annotated with a string such as `"float64[n]"` or
`"float32[n, m]"` stands for a C-contiguous NumPy array of that dtype and as many dimensions
as the brackets name, arrays annotated with the same brackets having equal shapes; and a
marker ending in `with fastmath ---` compiles it with `fastmath=True`.
"""

from __future__ import annotations

import ast
import re
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from symcompile import ir
from symcompile.passes import pipeline
from symcompile.runtime import compiler

GOLDEN_DIR = Path(__file__).parent / "golden"
MARKER = "# --- after "
FASTMATH = " with fastmath"
NUMBER_TYPES = (bool, int, float, complex)


@dataclass(frozen=True)
class GoldenCase:
    path: Path
    before: str
    stage: str
    after: str

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.stem}"


def read_case(path: Path) -> GoldenCase:
    text = path.read_text(encoding="utf-8")
    before, marker, rest = text.partition(MARKER)
    if not marker:
        raise ValueError(f"{path}: no '{MARKER}<stage> ---' line")
    stage_line, _, after = rest.partition("\n")
    return GoldenCase(path, before, stage_line.removesuffix(" ---").strip(), after)


def all_cases() -> list[GoldenCase]:
    return [read_case(path) for path in sorted(GOLDEN_DIR.glob("*/*.py"))]


def passes_for(stage: str) -> tuple[pipeline.Pass, ...]:
    """The passes a stage name stands for: `pipeline` or one pass of the default pipeline."""
    stage = stage.removesuffix(FASTMATH)
    if stage == "pipeline":
        return pipeline.PASSES
    by_name = {run_pass.__name__: run_pass for run_pass in pipeline.PASSES}
    if stage not in by_name:
        raise ValueError(f"unknown stage {stage!r}: not 'pipeline' nor a pass in the pipeline")
    return (by_name[stage],)


def target_name(case: GoldenCase) -> str:
    """The function a case compiles: the one its expected half defines."""
    defs = [node for node in ast.parse(case.after).body if isinstance(node, ast.FunctionDef)]
    if len(defs) != 1:
        raise ValueError(f"{case.path}: the expected half must define exactly one function")
    return defs[0].name


def produce(case: GoldenCase) -> str:
    """What the compiler makes of the case's function now. The `before` half runs as a module
    (so helpers it defines can be inlined); its function named in `after` is compiled."""
    namespace: dict[str, object] = {"__name__": f"golden_{case.path.stem}"}
    exec(compile(case.before, str(case.path), "exec", dont_inherit=True), namespace)
    function = namespace[target_name(case)]
    assert isinstance(function, types.FunctionType)
    options = compiler.Options(passes=passes_for(case.stage),
                               argument_types=argument_types(function),
                               fastmath=case.stage.endswith(FASTMATH))
    return compiler.compile_version(compiler.Source.of(function), options).source


def argument_types(function: types.FunctionType) -> dict[str, ir.ArgumentType]:
    """The argument types a case's annotations stand for (see the module docstring)."""
    kinds: dict[str, ir.ArgumentType] = {}
    shape_owners: dict[str, str] = {}  # the brackets' text: the first parameter with it
    for name, annotation in function.__annotations__.items():
        if name != "return" and (annotation in NUMBER_TYPES or isinstance(annotation, type)):
            kinds[name] = annotation  # (a user class: an instance of exactly that class)
        elif name != "return" and isinstance(annotation, str):
            found = re.fullmatch(r"(\w+)\[([\w, ]+)\]", annotation)
            if found is None:
                raise ValueError(f"{function.__name__}: annotation {annotation!r} is not like 'float64[n]'")
            dtype, dims = found.groups()
            owner = shape_owners.setdefault(dims, name)
            ndim = len(dims.split(","))
            kinds[name] = ir.ArrayKind(np.dtype(dtype), ndim,
                                       tuple(f"{owner}[{axis}]" for axis in range(ndim)))
    return kinds


def same_code(expected: str, produced: str) -> bool:
    return ast.dump(ast.parse(expected)) == ast.dump(ast.parse(produced))


def rewrite(case: GoldenCase, produced: str) -> None:
    case.path.write_text(f"{case.before}{MARKER}{case.stage} ---\n{produced}", encoding="utf-8")
