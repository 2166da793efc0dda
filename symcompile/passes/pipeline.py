"""The pass pipeline: the ordered list of passes and the loop that runs them to a fixed point.

Sits between the front end and code generation. Each round runs every pass in order, verifying
the IR after each one; a round in which every pass returned its input object unchanged ends the
loop. A round that changed the function ends by repeating the `TIDYING` passes while they
change it; a pass is not run again on an object it returned unchanged (its result depends on
the IR alone), so the confirming round runs only the passes that have not seen the result.
The passes in `RUN_LAST` (lowerings, whose output the others would undo) then run once, in
order. Every pass run is recorded (`PassRun`) so `explain` can show what each pass did.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import threading
import time
import types
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, Sequence

from .. import ir
from ..analysis import cost
from ..analysis.effects import analyses_shared
from ..frontend import build as frontend
from ..ir.verify import verify
from . import notes
from .eliminate_common_subexpressions import eliminate_common_subexpressions
from .eliminate_dead_code import eliminate_dead_code
from .eliminate_temporaries import eliminate_temporaries
from .fold_constants import fold_constants
from .forward_single_uses import forward_single_uses
from .hoist_globals import hoist_globals
from .hoist_list_items import hoist_list_items
from .hoist_loop_invariants import hoist_loop_invariants
from .hoist_object_reads import hoist_object_reads
from .hoist_record_items import hoist_record_items
from .inline_calls import inline_calls
from .interchange_object_loops import interchange_object_loops
from .inline_map_filter import inline_map_filter
from .inline_reduce import inline_reduce
from .iterate_array_recurrences import iterate_array_recurrences
from .iterate_lists import iterate_lists
from .propagate import propagate
from .simplify_algebra import simplify_algebra
from .speculate_clean_loops import speculate_clean_loops
from .speculate_loop_types import speculate_loop_types
from .speculate_invariant_types import speculate_invariant_types
from .split_local_dicts import split_local_dicts
from .unbox_objects import unbox_objects
from .unroll_comprehensions import unroll_comprehensions
from .unroll_loops import unroll_loops
from .use_cheaper_numpy_calls import use_cheaper_numpy_calls
from .vectorize_loops import vectorize_loops

Pass = Callable[[ir.Function], ir.Function]

# The default pipeline, in order, with the reason for each position.
PASSES: tuple[Pass, ...] = (
    # first make the callees' bodies part of this function, so every later pass sees them
    inline_calls,
    # write `return functools.reduce(lambda ...)` out as a loop (behind tests of the callee and
    # the list), so the passes below see the lambda's body in it
    inline_reduce,
    # and `list(map(lambda ..., filter(lambda ..., xs)))` as a list comprehension (behind tests
    # of the builtins and the list)
    inline_map_filter,
    # keep the items of a dict the function makes with constant keys in locals, so the passes
    # below see plain locals (constants to carry, numbers to type) where it counted into a dict
    split_local_dicts,
    # carry known constants and copies to their uses, so folding sees them; drop dead branches
    propagate,
    # evaluate what is now constant, including global and module constants
    fold_constants,
    # repeat short constant loops (their counts are known only after folding), so the next
    # round can propagate and fold each copy
    unroll_loops,
    # and short constant comprehensions (`[a[k] - b[k] for k in range(3)]`) as list displays
    # (behind a test of `range`), so the passes see their elements
    unroll_comprehensions,
    # apply algebraic identities where the operands' types make them exact; after folding and
    # unrolling, which leave the constants (`1.0 * x`) that the identities remove
    simplify_algebra,
    # look up functions of NumPy and math once, at compile time (after folding, which reads
    # their constants such as math.pi)
    hoist_globals,
    # give a loop computing `+ - *` on values it never changes, of unknown types, a copy for
    # floats where the cost model says it pays, so that the next pass hoists them from it
    speculate_invariant_types,
    # give a loop that checks inlined helpers at their calls on every turn a copy without the
    # checks, behind one test of its locals' types and a recheck (after the inlining and the
    # binding of math functions above, whose results it judges)
    speculate_clean_loops,
    # compute quiet operations on values a loop never changes once, before the loop (after
    # simplify_algebra, whose types it uses, and with the functions above already bound)
    hoist_loop_invariants,
    # put single-use temporaries (many come from inlining) back into the expression using them
    forward_single_uses,
    # compute repeated operator expressions once; after forwarding, which builds the big
    # expressions in which the repeats show up
    eliminate_common_subexpressions,
    # last, drop the assignments the passes above left unread
    eliminate_dead_code,
    # give a loop over values of unknown type a second body for float elements, which the next
    # round simplifies; last, so the body it copies is one the passes above have settled
    speculate_loop_types,
    # once everything above has settled (RUN_LAST), turn loops over array indices into array
    # code, keeping the loop as the fallback: first of the lowerings, on loops the passes above
    # have simplified (inlined, folded, invariants hoisted), and before eliminate_temporaries,
    # which then computes the array code's temporaries in place; in the rounds, unrolling and
    # forwarding would reshape the fallback and the array code
    vectorize_loops,
    # then run the loops left over float64 arrays over their Python floats: it keeps the loop
    # as written beside the copy, which the passes in the rounds would rewrite again and again
    iterate_lists,
    # then run the loops that fill a float64 array from its earlier items on Python floats,
    # keeping the loop as written beside the copy (RUN_LAST, as iterate_lists)
    iterate_array_recurrences,
    # then (RUN_LAST too) keep the fields of value-class objects a loop adds and scales in
    # locals: it keeps the loop as written beside the copy, which the rounds would rewrite
    unbox_objects,
    # and step each object of a list through all its time steps at once, its fields in
    # locals (RUN_LAST too, for the same reason)
    interchange_object_loops,
    # and read a user object's attributes, and test its inlined methods, once before a loop
    # nest on numbers (RUN_LAST too: it keeps the nest as written beside the copy)
    hoist_object_reads,
    # then (RUN_LAST too) read the items of private lists a loop cannot change once, before
    # it: it keeps the loop as written beside the copy, whose reads the rounds would hoist
    # again and again
    hoist_list_items,
    # and (RUN_LAST too) read the keys of dicts in a list the function made, which nobody
    # else can reach, once per turn of the loop binding them: it keeps the loops as written
    # beside the copy where the list may go to unseen code
    hoist_record_items,
    # then (RUN_LAST too) compute NumPy operations into arrays the
    # function made itself: it splits expressions into statements, which forwarding would undo
    eliminate_temporaries,
    # then spell the NumPy calls the statements make the cheaper ways NumPy computes the same
    # (`dot` for `@`, biases as rows, numbers converted once)
    use_cheaper_numpy_calls,
)

# Whether `optimize(weigh_types=True)` weighs a specialization against its entry check at all;
# tests of the type-conditional rules through the runtime turn it off, to see the version for
# the types they pass (tests/conftest.py: `specialize_always`).
WEIGH_SPECIALIZATIONS = True

# Passes that run once, after the others have reached their fixed point.
RUN_LAST: frozenset[Pass] = frozenset({vectorize_loops, iterate_lists, iterate_array_recurrences,
                                     unbox_objects, interchange_object_loops, hoist_object_reads,
                                     hoist_list_items, hoist_record_items,
                                     eliminate_temporaries, use_cheaper_numpy_calls})

# Passes that end a round that changed the function, again and again while they change it:
# forwarding and dropping dead code enable each other (a dropped `t = None` lets the next
# forward through), and repeating just these is cheaper than a whole round.
TIDYING: tuple[Pass, ...] = (forward_single_uses, eliminate_dead_code)

# The pipeline stops after this many rounds even if it has not settled (a chain of 30 nested
# calls inlines one level a round). Every round's result is correct, only not the simplest.
MAX_ROUNDS = 20


@dataclass(frozen=True)
class PassRun:
    """One run of one pass: the IR before and after (the same object if nothing changed)."""

    name: str
    round: int
    before: ir.Function
    after: ir.Function
    seconds: float
    notes: tuple[notes.Note, ...] = ()  # what the pass said it did, and left alone

    @property
    def changed(self) -> bool:
        return self.after is not self.before


def run_passes(function: ir.Function, passes: Sequence[Pass] = PASSES) -> tuple[ir.Function, list[PassRun]]:
    """Run `passes` over `function` until none changes anything (or for `MAX_ROUNDS` rounds),
    then those of them in `RUN_LAST` once; return the result and the log."""
    with analyses_shared(), collector_paused():
        return _run_passes(function, passes)


# How many compilations have the cyclic garbage collector paused, and whether it ran before.
_pauses = [0, False]
_pauses_lock = threading.Lock()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while the passes run (and, in
    `compiler.compile_version`, code generation and loading, which parse and compile the
    result while the log is alive): they keep every version of the IR (the log) and make many
    objects that live for one pass, so collections would come again and again, each walking
    all of it (a 160-statement function took 30% longer, a 4,000-line one twice as long). What
    they make is freed by reference counting; the collector runs again when the last
    compilation running ends, if it ran before the first began."""
    with _pauses_lock:
        if _pauses[0] == 0:
            _pauses[1] = gc.isenabled()
            gc.disable()
        _pauses[0] += 1
    try:
        yield
    finally:
        with _pauses_lock:
            _pauses[0] -= 1
            if _pauses[0] == 0 and _pauses[1]:
                gc.enable()


def _run_passes(function: ir.Function, passes: Sequence[Pass]) -> tuple[ir.Function, list[PassRun]]:
    log: list[PassRun] = []
    verify(function)
    settling = [run_pass for run_pass in passes if run_pass not in RUN_LAST]
    tidying = [run_pass for run_pass in TIDYING if run_pass in settling]
    # the object each pass last returned unchanged: a pass's result depends on the IR alone,
    # so it would return that object unchanged again
    settled_on: dict[Pass, ir.Function] = {}
    round_number = 0
    for round_number in range(1, MAX_ROUNDS + 1):
        start_of_round = function
        for run_pass in settling:
            function = _settling_run(run_pass, function, round_number, log, settled_on)
        if function is start_of_round:
            break
        function = _tidied(function, tidying, round_number, log, settled_on)
    for run_pass in passes:
        if run_pass in RUN_LAST:
            function = _run(run_pass, function, round_number + 1, log)
    return function, log


def _tidied(function: ir.Function, tidying: list[Pass], round_number: int, log: list[PassRun],
            settled_on: dict[Pass, ir.Function]) -> ir.Function:
    """`function` after the tidying passes, run again while they change it (at most
    `MAX_ROUNDS` times)."""
    for _ in range(MAX_ROUNDS):
        start = function
        for run_pass in tidying:
            function = _settling_run(run_pass, function, round_number, log, settled_on)
        if function is start:
            break
    return function


def _settling_run(run_pass: Pass, function: ir.Function, round_number: int, log: list[PassRun],
                  settled_on: dict[Pass, ir.Function]) -> ir.Function:
    """`_run`, unless the pass already returned this very object unchanged."""
    if settled_on.get(run_pass) is function:
        return function
    result = _run(run_pass, function, round_number, log)
    if result is function:
        settled_on[run_pass] = function
    return result


def _run(run_pass: Pass, function: ir.Function, round_number: int, log: list[PassRun]) -> ir.Function:
    """One pass over `function`, verified (unless it returned `function`, verified already)
    and logged."""
    started = time.perf_counter()
    with notes.recording() as said:
        result = run_pass(function)
        if result is not function:
            verify(result)
    log.append(PassRun(run_pass.__name__, round_number, function, result,
                       time.perf_counter() - started, tuple(said)))
    return result


def optimize(
    func: types.FunctionType,
    passes: Sequence[Pass] = PASSES,
    *,
    source: frontend.FunctionSource | None = None,
    resolve_globals: bool = True,
    static: Mapping[str, object] | None = None,
    argument_types: Mapping[str, ir.ArgumentType] | None = None,
    fastmath: bool = False,
    resolve_objects: bool = False,
    frozen_globals: bool = False,
    weigh_types: bool = False,
) -> tuple[ir.Function, ir.Function, list[PassRun]]:
    """Front end and passes for a live function: (IR before, IR after, log of pass runs).

    With `resolve_globals` the passes may read the function's globals (and must record what
    they rely on as assumptions); without, they treat every free name as unknown. `static`
    gives parameters values to specialize on: the body starts by assigning them.
    `argument_types` are the exact types of arguments the passes may rely on (see
    `ir.Function.argument_types`); `fastmath` allows the unsafe rules of simplify_algebra;
    `resolve_objects` lets the passes read the structure of objects held as constants (a
    compiled object's, see `objects`). With `frozen_globals` (`guards=False`) the globals are
    taken as never changing (`ir.Namespace.frozen`). With `weigh_types` (a version for a call:
    its arguments have these types, but nothing asks for a version relying on them) the result
    relies on the argument types only where that pays (`specialized_if_it_pays`).
    """
    namespace = frontend.namespace_of(func) if resolve_globals else None
    if namespace is not None and frozen_globals:
        namespace = dataclasses.replace(namespace, frozen=True)
    before = frontend.build_function(source or frontend.read_function_source(func), namespace)
    before = dataclasses.replace(before, argument_types=dict(argument_types or {}),
                                 fastmath=fastmath, resolve_objects=resolve_objects)
    if static:
        before = specialize(before, static)
    after, log = run_passes(before, passes)
    if weigh_types and WEIGH_SPECIALIZATIONS and any(a.of_type for a in after.assumptions):
        return specialized_if_it_pays(before, after, log, passes)
    return before, after, log


def specialized_if_it_pays(before: ir.Function, after: ir.Function, log: list[PassRun],
                           passes: Sequence[Pass]) -> tuple[ir.Function, ir.Function, list[PassRun]]:
    """The one place that decides whether a version relies on its arguments' types (and so
    checks them on entry): `after`, the passes' result relying on them, if the cost model
    expects it to save more per call than its entry check costs; else the function compiled
    for arguments of any types (no check), with a note saying by how much it would not pay."""
    if cost.check_is_negligible(after):
        return before, after, log
    general_before = dataclasses.replace(before, argument_types={})
    general, general_log = run_passes(general_before, passes)
    weighed = cost.weigh_specialization(general, after)
    if weighed.pays:
        return before, after, log
    relied = ", ".join(f"{a.name}: {getattr(a.value, '__name__', a.value)}"
                       for a in after.assumptions if a.of_type)
    with notes.recording() as said:
        notes.missed("specialize", "not specialized for {}: it would save {} a call, its entry "
                     "check costs {}", relied, cost.spelled(weighed.saving),
                     cost.spelled(weighed.check), loc=before.loc)
    last_round = general_log[-1].round if general_log else 0
    decision = PassRun("weigh_specialization", last_round, general, general, 0.0, tuple(said))
    return general_before, general, [*general_log, decision]


def specialize(function: ir.Function, static: Mapping[str, object]) -> ir.Function:
    """`function` for these parameter values: it starts with `n = 5` for each (the very object
    passed, so identical behaviour) and relies on them as argument assumptions."""
    first = function.body[0] if function.body else None
    docstring = isinstance(first, ir.ExprStmt) and isinstance(first.value, ir.Const) \
        and isinstance(first.value.value, str)
    values = tuple(ir.Assign((ir.Name(name),), ir.Const(value), function.loc)
                   for name, value in static.items())
    body = function.body[:1] + values + function.body[1:] if docstring else values + function.body
    assumptions = (ir.Assumption(name, value, "static argument", argument=True)
                   for name, value in static.items())
    return function.with_body(body).assuming(*assumptions)
