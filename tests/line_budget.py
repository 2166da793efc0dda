"""The line budget: the most lines each module of the package may have.

`tests/line_budget.json` records, per module, a number of lines it may not grow past; the test
`tests/test_line_budget.py` holds every module to it. A module that must grow gets a higher
number in the same commit, where the reviewer sees it; `python -m tests.line_budget` lowers
every budget to the module's size today (budgets only tighten on their own) and adds new
modules.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "symcompile"
BUDGET_FILE = Path(__file__).resolve().parent / "line_budget.json"


def module_sizes() -> dict[str, int]:
    """Lines per module of the package, by path relative to the repository root."""
    return {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
            for path in sorted(PACKAGE.rglob("*.py"))}


def read_budget() -> dict[str, int]:
    return json.loads(BUDGET_FILE.read_text(encoding="utf-8"))


def tightened(budget: dict[str, int], sizes: dict[str, int]) -> dict[str, int]:
    """Every module's budget lowered to its size where it is smaller now; new modules at their
    size; removed modules dropped."""
    return {module: min(size, budget.get(module, size)) for module, size in sizes.items()}


def main() -> int:
    new = tightened(read_budget(), module_sizes())
    BUDGET_FILE.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{BUDGET_FILE.relative_to(ROOT)}: {len(new)} modules, {sum(new.values())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
