"""inline_bodies: a callee's body in the place of a call, for inline_calls.

The arguments are assigned to the callee's parameters, in the order Python evaluates them (a
parameter left out takes the callee's default object); the callee's locals are renamed after
it (`add_a`), its closure's variables too, sharing their cells; a global it reads in another
module is read as `Target.reads` says; its `return`s become assignments of a result
(`symcompile.passes.returns`), or for a single final `return` the returned expression takes
the call's place; a local that may own a value with a finalizer is released (`add_t = None`)
right after the body, and a result that may own one after the calling statement.
"""

from __future__ import annotations

import dataclasses
import inspect
import types

from .. import ir
from ..analysis.finalizers import callee_releases, release
from ..analysis.value_types import TypeEnv
from ..ir.names import (
    assigned_names,
    body_size,
    fresh_name,
    local_names,
    reads_in_statement,
    size,
)
from ..ir.rewrite import (
    map_statement_expressions,
    map_statements,
    rename,
    walk_statements,
)
from . import notes
from .inline_callees import Target, callee_label, global_names, refused
from .returns import lower_returns

# the statements after which a value that dies in them is released (`t = None`): the others
# return, or run a body first
RELEASED_AFTER = (ir.Assign, ir.AugAssign, ir.ExprStmt)

# what replaces a call: the statements before its statement, the expression in the call's
# place, and the releases after its statement
Expansion = tuple[list[ir.Stmt], ir.Expr, list[ir.Stmt]]


class NewNames:
    """The names inlining makes in a caller (callees' locals, results, flags, temporaries),
    each fresh: none of the caller's own, nor one made before."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.made: set[str] = set()
        self.numbers: dict[str, int] = {}  # see `fresh_name`: each of many inlined calls

    def fresh(self, wanted: str) -> str:
        name = fresh_name(wanted, self.taken, self.numbers)
        self.made.add(name)
        return name


class Bodies:
    """Expands the calls of one caller. `size` counts the caller's IR nodes with the bodies
    added so far; `cells` holds the inlined closures' cells by their new names; the callees
    relied on join `assumed`."""

    def __init__(self, function: ir.Function, namespace: ir.Namespace, caller_locals: set[str],
                 names: NewNames, assumed: list[ir.Assumption]) -> None:
        self.caller_locals = caller_locals
        self.closure = namespace.closure
        self.names = names
        self.assumed = assumed
        self.size = size(function)
        self.cells: dict[str, types.CellType] = {}
        # each callee's signature, by the callee's id (the callee held beside it)
        self._signatures: dict[int, tuple[types.FunctionType, inspect.Signature]] = {}

    def expand(self, call: ir.Call, target: Target, stmt: ir.Stmt, env: TypeEnv,
               checked: bool) -> Expansion | None:
        """The statements that replace `call`, the expression its value is then, and the
        releases to put after `stmt` (whose types are `env`); None, with a note saying why,
        where the body cannot take the call's place. The callee is relied on by a check on
        entry, or if `checked`, by one at the call (see inline_checks)."""
        expanded = self._expansion_or_refusal(call, target, stmt, env, checked)
        if isinstance(expanded, str):
            refused(call, expanded, stmt.loc)
            return None
        return expanded

    def _signature(self, callee: types.FunctionType) -> inspect.Signature:
        known = self._signatures.get(id(callee))
        if known is None or known[0] is not callee:
            known = self._signatures[id(callee)] = (callee, inspect.signature(callee))
        return known[1]

    def _expansion_or_refusal(self, call: ir.Call, target: Target, stmt: ir.Stmt, env: TypeEnv,
                              checked: bool) -> Expansion | str:
        """`expand`'s answer, or why the body cannot take the call's place."""
        callee, callee_ir, loc = target.callee, target.callee_ir, stmt.loc
        try:
            binding = self._signature(callee).bind(
                *range(len(target.arguments)),
                **{kw.name: kw.name for kw in call.keywords if kw.name is not None})
        except TypeError:  # the call does not fit: it raises at run time, as it should
            return "the arguments do not fit its parameters"
        free = global_names(callee, callee_ir)
        by_name = {name for name in free if target.reads.get(name, ir.Name(name)) == ir.Name(name)}
        if not by_name.isdisjoint(self.caller_locals) or not by_name.isdisjoint(self.closure):
            # the caller's own names would capture names the callee reads globally
            return "a variable here has the name of a global it reads"
        self.names.taken |= by_name  # and so would the callee's renamed locals
        prefix = callee_label(call)
        names = {local: self.names.fresh(f"{prefix}_{local}")
                 for local in sorted(local_names(callee_ir))}
        for variable, cell in zip(callee.__code__.co_freevars, callee.__closure__ or ()):
            names[variable] = self.names.fresh(f"{prefix}_{variable}")
            self.cells[names[variable]] = cell
        statements = _parameters(call, target, binding, names, loc)
        result_name = self.names.fresh(f"{prefix}_result")
        body = rename(_substitute(_without_docstring(callee_ir.body), target.reads), names)
        body = lower_returns(body, result_name, lambda: self.names.fresh(f"{prefix}_returned"))
        body = map_statements(body, lambda stmt: dataclasses.replace(stmt, loc=loc))
        statements, body = _unpacked_argument(statements, body)
        *rest, last = body
        result: ir.Expr = ir.Name(result_name)
        dying, held = callee_releases(callee.__code__, names, (*statements, *body), env)
        after = [result_name] if result_name in held else []
        if isinstance(last, ir.Assign) and last.targets == (result,) and not any(
                result_name in assigned_names(stmt) for stmt in walk_statements(tuple(rest))) \
                and set(dying) <= {getattr(last.value, "id", None)}:
            body, result, after = tuple(rest), last.value, dying
        else:
            body += tuple(release(name, loc) for name in dying)
        if isinstance(stmt, ir.Return):
            after = []  # the function ends there
        elif after and not isinstance(stmt, RELEASED_AFTER):
            return "its result may have a finalizer, to run after this statement"
        code = callee.__code__
        parameters = {names[name] for name in code.co_varnames[:code.co_argcount
                                                               + code.co_kwonlyargcount]
                      if name in names}
        if checked and isinstance(result, ir.Name) and result.id in parameters:
            # `d = e` would be a copy, which may be dropped as dead while the original's
            # result lives on (see docs/semantics.md, Finalizers)
            return "it returns its argument, behind a check at the call"
        self.size += body_size(body)
        if checked:  # (said by the caller, which may still refuse it)
            return statements + list(body), result, [release(name, loc) for name in after]
        if isinstance(call.func, ir.Name):  # (an object's callee is watched by object facts)
            self.assumed.append(ir.Assumption(prefix, target.value, f"inlined {prefix}"))
        self.assumed += target.assumptions
        notes.changed("inline", "inline {}", prefix, loc=loc)
        return statements + list(body), result, [release(name, loc) for name in after]


def _parameters(call: ir.Call, target: Target, binding: inspect.BoundArguments,
                names: dict[str, str], loc: ir.Loc) -> list[ir.Stmt]:
    """The assignments of the arguments to the callee's (renamed) parameters, in the order
    Python evaluates the arguments; a parameter left out takes the callee's default object."""
    arguments: dict[int | str, ir.Expr] = {
        **{index: arg for index, arg in enumerate(target.arguments)},
        **{kw.name: kw.value for kw in call.keywords if kw.name is not None}}
    parameter_of = {key: param for param, key in binding.arguments.items()}
    statements: list[ir.Stmt] = [ir.Assign((ir.Name(names[parameter_of[key]]),), argument, loc)
                                 for key, argument in arguments.items()]
    for param in binding.signature.parameters.values():
        if param.name not in binding.arguments:
            default = ir.Const(param.default)
            statements.append(ir.Assign((ir.Name(names[param.name]),), default, loc))
    return statements


def _unpacked_argument(statements: list[ir.Stmt], body: tuple[ir.Stmt, ...],
                       ) -> tuple[list[ir.Stmt], tuple[ir.Stmt, ...]]:
    """Where the body starts by unpacking a parameter it reads nowhere else, and the argument
    is a tuple display of names and constants of that length (`m[i, j]` calling
    `__getitem__(self, index)`, which starts `i, j = index`), the items assigned straight to
    the unpacked names: `getitem_i = i` and `getitem_j = j`, evaluated in the same order as
    the display, and no tuple built and taken apart."""
    match body:
        case (ir.Assign((ir.Build("tuple", targets),), ir.Name(parameter)), *rest):
            pass
        case _:
            return statements, body
    for index, stmt in enumerate(statements):
        match stmt:
            case ir.Assign((ir.Name(name),), ir.Build("tuple", items)) if name == parameter \
                    and len(items) == len(targets) \
                    and all(isinstance(item, (ir.Name, ir.Const)) for item in items) \
                    and len({getattr(target, "id", None) for target in targets}) == len(targets) \
                    and all(isinstance(target, ir.Name) for target in targets) \
                    and not any(reads_in_statement(later, name) or name in assigned_names(later)
                                for later in walk_statements(tuple(rest))):
                copies = [ir.Assign((target,), item, stmt.loc) for target, item in zip(targets, items)]
                return [*statements[:index], *copies, *statements[index + 1:]], tuple(rest)
    return statements, body


def _substitute(body: tuple[ir.Stmt, ...], reads: dict[str, ir.Expr]) -> tuple[ir.Stmt, ...]:
    """`body` reading `reads[name]` wherever it reads the global `name`."""
    def read(expr: ir.Expr) -> ir.Expr:
        return reads.get(expr.id, expr) if isinstance(expr, ir.Name) else expr

    return map_statements(body, lambda stmt: map_statement_expressions(stmt, read))


def _without_docstring(body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
    return tuple(s for s in body if not (isinstance(s, ir.ExprStmt) and isinstance(s.value, ir.Const)))
