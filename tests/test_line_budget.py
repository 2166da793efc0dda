"""Every module of the package stays within its line budget (`tests/line_budget.py`)."""

from __future__ import annotations

from tests.line_budget import module_sizes, read_budget, tightened


def test_no_module_grows_past_its_budget():
    budget, sizes = read_budget(), module_sizes()
    grown = {module: (budget[module], size) for module, size in sizes.items()
             if module in budget and size > budget[module]}
    assert not grown, (
        "modules grew past their line budget (budget → now): "
        + ", ".join(f"{module} {old} → {new}" for module, (old, new) in grown.items())
        + ". Split the module, or raise its number in tests/line_budget.json in the same "
        "commit and say why there")


def test_every_module_has_a_budget():
    missing = sorted(set(module_sizes()) - set(read_budget()))
    assert not missing, (f"modules without a line budget: {', '.join(missing)}; "
                         "`python -m tests.line_budget` adds them at their size")


def test_budgets_only_tighten():
    budget = {"a.py": 100, "b.py": 50, "gone.py": 10}
    assert tightened(budget, {"a.py": 90, "b.py": 60, "new.py": 5}) == \
        {"a.py": 90, "b.py": 50, "new.py": 5}
