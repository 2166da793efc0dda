"""Shrinking a failing case while it still fails the same way.

Greedy, one change at a time, each kept when the case still fails with the same finding
signature (`core.Finding.signature`): drop steps of the script (the last first), then, in the
module's source, delete statements, replace compound statements by their body, delete
top-level definitions the case no longer needs, and replace expressions by one of their
operands or by 0 or 1. A candidate that does not compile is skipped. The source is rewritten
by `ast.unparse`, so comments and layout go.
"""

from __future__ import annotations

import ast
import dataclasses
import time
import warnings
from collections.abc import Callable, Iterator

from tests.fuzz.core import Case

Slot = tuple[ast.AST, str, int | None]

COMPOUND = (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith)


def _statement_lists(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    found = []
    for node in ast.walk(tree):
        for name, value in ast.iter_fields(node):
            if isinstance(value, list) and value and all(isinstance(v, ast.stmt) for v in value):
                found.append((node, name))
    return found


def _expression_slots(tree: ast.AST) -> list[Slot]:
    slots: list[Slot] = []
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, ast.expr):
                slots.append((parent, name, None))
            elif isinstance(value, list):
                slots.extend((parent, name, i) for i, v in enumerate(value) if isinstance(v, ast.expr))
    return [s for s in slots if not isinstance(getattr(_get(s), "ctx", None), (ast.Store, ast.Del))]


def _get(slot: Slot) -> ast.AST:
    parent, name, index = slot
    value = getattr(parent, name)
    return value if index is None else value[index]


def _put(slot: Slot, node: ast.AST) -> None:
    parent, name, index = slot
    if index is None:
        setattr(parent, name, node)
    else:
        getattr(parent, name)[index] = node


def _operands(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.Call):
        return list(node.args)
    if isinstance(node, (ast.Subscript, ast.Attribute, ast.NamedExpr)):
        return [node.value]
    return []


def _edits(tree: ast.Module) -> Iterator[tuple[str, int, int]]:
    """Every change that can be tried on `tree`, as (what, where, which), coarse first."""
    lists = _statement_lists(tree)
    for li, (owner, name) in enumerate(lists):
        for si in reversed(range(len(getattr(owner, name)))):
            yield ("delete", li, si)
    for li, (owner, name) in enumerate(lists):
        for si, statement in enumerate(getattr(owner, name)):
            if isinstance(statement, COMPOUND):
                yield ("unwrap", li, si)
    for ei, slot in enumerate(_expression_slots(tree)):
        node = _get(slot)
        for ci in range(len(_operands(node))):
            yield ("operand", ei, ci)
        if not isinstance(node, ast.Constant):
            yield ("constant", ei, 0)
            yield ("constant", ei, 1)


def _apply(source: str, edit: tuple[str, int, int]) -> str | None:
    tree = ast.parse(source)
    what, where, which = edit
    if what in ("delete", "unwrap"):
        owner, name = _statement_lists(tree)[where]
        body = getattr(owner, name)
        statement = body[which]
        if what == "delete":
            replacement: list[ast.stmt] = []
        else:
            replacement = list(getattr(statement, "body", [])) + list(getattr(statement, "orelse", []))
        body[which:which + 1] = replacement
        if not body:
            body.append(ast.Pass())
    else:
        slot = _expression_slots(tree)[where]
        node = _get(slot)
        new = _operands(node)[which] if what == "operand" else ast.Constant(which)
        _put(slot, new)
    text = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a SyntaxWarning too: pytest would fail on it
            compile(text, "<candidate>", "exec")
    except (SyntaxError, ValueError, Warning):
        return None
    return text if text != source else None


def shrink(case: Case, fails: Callable[[Case], bool], seconds: float) -> tuple[Case, int]:
    """The smallest case found within `seconds` that still `fails`; and how many tries."""
    deadline = time.monotonic() + seconds
    tries = 0
    best = case
    # the script: drop steps, keeping at least one call
    index = len(best.steps) - 1
    while index >= 0 and time.monotonic() < deadline:
        steps = best.steps[:index] + best.steps[index + 1:]
        if any(what == "call" for what, _ in steps):
            candidate = dataclasses.replace(best, steps=steps)
            tries += 1
            if fails(candidate):
                best = candidate
        index -= 1
    # the source
    try:
        source = ast.unparse(ast.parse(best.source)) + "\n"
    except SyntaxError:
        return best, tries
    if source != best.source and fails(dataclasses.replace(best, source=source)):
        best = dataclasses.replace(best, source=source)
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for edit in list(_edits(ast.parse(best.source))):
            if time.monotonic() >= deadline:
                break
            text = _apply(best.source, edit)
            if text is None:
                continue
            candidate = dataclasses.replace(best, source=text)
            tries += 1
            if fails(candidate):
                best = candidate
                progress = True
                break
    return best, tries
