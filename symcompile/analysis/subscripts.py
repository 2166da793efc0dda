"""Subscripts: integer index expressions as affine forms, and the dependences between the
elements a loop nest reads and writes.

An analysis for vectorize_loops. An index such as `u[i - 1, j + k]` has one *affine form*
per axis: a constant plus integer multiples of *atoms*, each atom a loop variable, a name the
loop never assigns, `len(a)` or `a.shape[0]` (the last two keyed by the array's shape symbol
where the version knows it, so `len(a)` and `b.shape[0]` are one atom when `b` has `a`'s
shape). Two accesses to one array in a nest of loops then meet at the *distance* the loop
variables differ by (`u[i + 1]` written, `u[i]` read: the read sees what the iteration before
wrote), or never (`u[0, j]` and `u[1, j]`), or the analysis cannot tell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from .. import ir

# an atom's identity: ("name", x), ("dim", "a[0]") for an extent, or ("expr", the expression)
AtomKey = tuple[str, object]


@dataclass(frozen=True)
class Affine:
    """`const + sum(coefficient * atom)`; `atoms` keeps one spelling of each atom."""

    const: int
    terms: tuple[tuple[AtomKey, int], ...]
    atoms: tuple[tuple[AtomKey, ir.Expr], ...] = ()

    def coefficient(self, key: AtomKey) -> int:
        return dict(self.terms).get(key, 0)

    def plus(self, other: Affine, scale: int = 1) -> Affine:
        terms = dict(self.terms)
        for key, coefficient in other.terms:
            terms[key] = terms.get(key, 0) + scale * coefficient
        atoms = dict(self.atoms) | dict(other.atoms)
        kept = tuple((key, value) for key, value in terms.items() if value)
        return Affine(self.const + scale * other.const, kept,
                      tuple((key, atoms[key]) for key, _ in kept))

    def shifted(self, amount: int) -> Affine:
        return Affine(self.const + amount, self.terms, self.atoms)

    def times(self, factor: int) -> Affine:
        return Affine(self.const * factor, tuple((k, c * factor) for k, c in self.terms if c * factor),
                      self.atoms if factor else ())

    def without(self, key: AtomKey) -> Affine:
        return Affine(self.const, tuple(t for t in self.terms if t[0] != key),
                      tuple(a for a in self.atoms if a[0] != key))

    @property
    def is_const(self) -> bool:
        return not self.terms

    def names(self) -> set[str]:
        return {str(key[1]) for key, _ in self.terms if key[0] == "name"}


def constant(value: int) -> Affine:
    return Affine(value, ())


def atom(key: AtomKey, expr: ir.Expr) -> Affine:
    return Affine(0, ((key, 1),), ((key, expr),))


# what a pass says an expression that is no sum or product is: its atom key, or None
AtomOf = Callable[[ir.Expr], AtomKey | None]


def affine(expr: ir.Expr, atom_of: AtomOf) -> Affine | None:
    """The affine form of an integer expression, or None if it is not one."""
    match expr:
        case ir.Const(value) if type(value) is int:
            return constant(value)
        case ir.Op("add" | "sub" as op, (left, right)):
            a, b = affine(left, atom_of), affine(right, atom_of)
            return a.plus(b, 1 if op == "add" else -1) if a is not None and b is not None else None
        case ir.Op("neg", (operand,)):
            a = affine(operand, atom_of)
            return a.times(-1) if a is not None else None
        case ir.Op("mul", (left, right)):
            a, b = affine(left, atom_of), affine(right, atom_of)
            if a is None or b is None or not (a.is_const or b.is_const):
                return None
            return b.times(a.const) if a.is_const else a.times(b.const)
    key = atom_of(expr)
    return atom(key, expr) if key is not None else None


def to_expr(form: Affine) -> ir.Expr:
    """The expression for an affine form: `n - 2`, `2 * i + 1`, `0`."""
    result: ir.Expr | None = None
    atoms = dict(form.atoms)
    for key, coefficient in form.terms:
        term = atoms[key] if abs(coefficient) == 1 else ir.Op("mul", (ir.Const(abs(coefficient)), atoms[key]))
        if result is None:
            result = term if coefficient > 0 else ir.Op("neg", (term,))
        else:
            result = ir.Op("add" if coefficient > 0 else "sub", (result, term))
    if result is None:
        return ir.Const(form.const)
    if form.const:
        return ir.Op("add" if form.const > 0 else "sub", (result, ir.Const(abs(form.const))))
    return result


@dataclass(frozen=True)
class Access:
    """`array[index]` with one affine form per axis."""

    array: str
    index: tuple[Affine, ...]


def loop_term(form: Affine, loop_vars: Mapping[str, int]) -> tuple[str, int] | None:
    """The one loop variable an index form moves with and its coefficient (None if fixed)."""
    found = [(str(key[1]), c) for key, c in form.terms if key[0] == "name" and key[1] in loop_vars]
    return found[0] if found else None


Distance = tuple[int, ...]
NEVER = "never"


def distance(write: Access, read: Access, loop_vars: Mapping[str, int]) -> Distance | str | None:
    """How far apart (in each loop variable, outer first) the iteration that writes an element
    and the one that reads it are: `read` at iteration I touches what `write` touched at
    I + distance. NEVER when they touch different elements; None when it cannot be told."""
    moves = [0] * len(loop_vars)
    for w, r in zip(write.index, read.index):
        w_term, r_term = loop_term(w, loop_vars), loop_term(r, loop_vars)
        if w_term is None and r_term is None:
            gap = r.plus(w, -1)
            if gap.is_const and gap.const:
                return NEVER
            if not gap.is_const:
                return None
            continue
        if w_term is None or r_term is None or w_term != r_term:
            return None
        var, coefficient = w_term
        gap = r.plus(w, -1)
        if not gap.is_const or gap.const % coefficient:
            return None if not gap.is_const else NEVER
        moves[loop_vars[var]] = gap.const // coefficient
    return tuple(moves)


def lexicographic_sign(moves: Distance) -> int:
    """-1, 0 or 1: whether the first nonzero distance is negative, absent or positive."""
    for move in moves:
        if move:
            return 1 if move > 0 else -1
    return 0
