"""The facts vectorize_loops gathers about a loop nest, shared by its analysis (the pass
module) and its code builder (vectorize_build): the loops, the steps of the body in order, the
arrays and elements it touches, and what the entry check must hold. A support module of
`passes/`, no pass.

A nest is a stack of `for v in range(...)` loops. Its *vector* loops become array axes; the
others stay Python loops around (or inside) the array code, each element seeing the same
operations in the same order as in the loop (a reduction in order):

* `kept`: loops of a perfect nest whose variable no written index moves with (`k` of
  `c[i, j] += a[i, k] * b[k, j]`), run around the whole body;
* `Reduce` ... `EndReduce` in the steps: an inner loop accumulating into scalar locals
  (`acc = 0.0; for k in ...: acc += a[i, k] * b[k, j]; c[i, j] = acc`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ir
from ..analysis.subscripts import Access, Affine
from ..analysis.value_types import Known
from . import notes


class Refused(Exception):
    """A loop left as written: why, as a note's template and subjects (IR or text)."""

    def __init__(self, template: str, *subjects: notes.Subject) -> None:
        super().__init__(template)
        self.template = template
        self.subjects = subjects


@dataclass(frozen=True)
class Level:
    """One loop of the nest: `for var in range(start, stop, step)`, spelled `iter`."""

    var: str
    start: Affine
    stop: Affine
    step: int
    iter: ir.Expr

    def last(self) -> Affine:
        """The variable's last value (steps are ±1), when the range is not empty."""
        return self.stop.shifted(-self.step)


# the `if` tests a statement runs under, outer first, each with whether it is negated (its
# `else:`): `if t1: ... elif t2: x` runs `x` under ((t1, True), (t2, False)); () always
Branch = tuple[ir.Expr, bool]
Path = tuple[Branch, ...]


def exclusive(first: Path, second: Path) -> bool:
    """Whether no iteration runs both paths: one takes a test's `if`, the other its `else`."""
    return any(a[0] is b[0] and a[1] != b[1] for a, b in zip(first, second))


@dataclass
class Write:
    access: Access
    value: ir.Expr  # the element value stored (for `+=`, the whole `out[i] + x`)
    kind: Known
    loc: ir.Loc
    mask: Path = ()


@dataclass(frozen=True)
class Count:
    """`name += amount` (an int constant) under `mask`: a counter of the elements where the
    mask holds, increased by `amount * count_nonzero(mask)` after the array code."""

    name: str
    amount: int
    mask: Path
    loc: ir.Loc


@dataclass(frozen=True)
class Temp:
    """`name = value`: a scalar local of one iteration (or an accumulator of an inner loop)."""

    name: str
    value: ir.Expr
    kind: Known


@dataclass(frozen=True)
class Total:
    """`name += term` (`sign` -1 for `-=`) as the nest's whole body: a sum reordered under
    fastmath (`vectorize_reductions`)."""

    name: str
    sign: int
    term: ir.Expr
    loc: ir.Loc


@dataclass(frozen=True)
class Reduce:
    """The steps up to the matching `EndReduce` run inside `for level.var in level.iter`."""

    level: Level


@dataclass(frozen=True)
class EndReduce:
    pass


Step = Temp | Write | Count | Reduce | EndReduce


@dataclass
class Nest:
    loop: ir.For
    levels: list[Level]  # every loop, outer first (an inner reduction loop last)
    body: tuple[ir.Stmt, ...]
    steps: list[Step] = field(default_factory=list)
    arrays: dict[str, ir.ArrayKind] = field(default_factory=dict)
    reads: list[tuple[Access, int]] = field(default_factory=list)  # and how many steps came before
    read_masks: dict[int, Path] = field(default_factory=dict)  # by position in `reads`, if not ()
    branch: Path = ()  # the tests the statement being analysed runs under
    accesses: dict[int, Access] = field(default_factory=dict)  # by the subscript's identity
    checked_ints: set[str] = field(default_factory=set)
    # plain ints meeting array elements: the range each must lie in (checked on entry)
    int_ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    builtins_read: dict[str, object] = field(default_factory=dict)
    # calls of `math` functions computed on arrays by the NumPy function giving the same bits
    # (`math.sqrt` → `np.sqrt`), by the call's identity
    array_calls: dict[int, object] = field(default_factory=dict)
    # the NumPy functions among them rounding differently (`np.exp`), allowed by fastmath
    inexact: list[str] = field(default_factory=list)
    relied: set[str] = field(default_factory=set)
    may_raise_fp: bool = False
    temps: dict[str, Known] = field(default_factory=dict)  # the scalar locals of the body
    temp_names: set[str] = field(default_factory=set)  # and of an inner loop's body
    assigned: set[str] = field(default_factory=set)  # every name the nest assigns
    reduced: set[str] = field(default_factory=set)  # the variables of loops that stay loops
    kept: list[Level] = field(default_factory=list)  # those run around the whole body
    # Python lists indexed as arrays (`c[i][j]`): each one's dimensions, and the names whose
    # `len` a bound reads (each checked to be a list before it is taken)
    lists: dict[str, int] = field(default_factory=dict)
    sized_lists: set[str] = field(default_factory=set)
    total: Total | None = None  # the whole body sums into a scalar (under fastmath)
    turn_cost: float = 0.0  # ns a turn of the innermost loop costs (cost model): for lists

    def positions(self) -> dict[str, int]:
        return {level.var: position for position, level in enumerate(self.levels)}

    def vector_levels(self) -> list[Level]:
        return [level for level in self.levels if level.var not in self.reduced]

    def level(self, var: str) -> Level:
        return next(level for level in self.levels if level.var == var)

    def writes(self) -> list[Write]:
        return [step for step in self.steps if isinstance(step, Write)]

    def counts(self) -> list[Count]:
        return [step for step in self.steps if isinstance(step, Count)]


def list_modes(nest: Nest) -> dict[str, str]:
    """Each list's part in the nest: `r` read (every element checked to be a float and
    converted), `w` written (only its shape checked; the written elements stored back), `rw`
    both. A conditional write, or one into an accumulated element, reads too: what it leaves
    is stored back as it was."""
    modes: dict[str, str] = {}
    for name in nest.lists:
        writes = [write for write in nest.writes() if write.access.array == name]
        read = any(access.array == name for access, _ in nest.reads) or any(
            write.mask for write in writes) or bool(writes and nest.kept)
        modes[name] = ("r" if read else "") + ("w" if writes else "")
    return modes


def spell_access(access: Access) -> str:
    return f"{access.array}[{', '.join(map(affine_text, access.index))}]"


def affine_text(form: Affine) -> str:
    """`i + 1`, `n - 2 * j`: an affine form as Python spells it."""
    parts: list[str] = []
    atoms = dict(form.atoms)
    for key, coefficient in form.terms:
        text = _atom_text(atoms[key])
        text = text if abs(coefficient) == 1 else f"{abs(coefficient)} * {text}"
        if not parts:
            parts.append(text if coefficient > 0 else f"-{text}")
        else:
            parts.append(f"{'+' if coefficient > 0 else '-'} {text}")
    if form.const or not parts:
        parts.append(str(form.const) if not parts else f"{'-' if form.const < 0 else '+'} {abs(form.const)}")
    return " ".join(parts)


def _atom_text(expr: ir.Expr) -> str:
    match expr:
        case ir.Call(_, (ir.Name(array),), ()):
            return f"len({array})"
        case ir.Subscript(ir.Attribute(ir.Name(array), "shape"), ir.Const(axis)):
            return f"{array}.shape[{axis}]"
    return ir.format_expr(expr)
