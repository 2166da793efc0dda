"""Returns made structured: a function body whose `return`s become assignments of a result,
so the body can run in the middle of another function (what inlining needs).

No exception is used as control flow. `return v` becomes `result = v`, and the code after a
statement that may return runs only where it did not:

* after an `if` that may return, the code that follows moves into its branches (the branches
  that return drop it);
* inside a loop, `return v` becomes `result = v; returned = True; break` (a loop nested in it
  breaks out in turn: `if returned: break`), and the code after the loop runs under
  `if not returned:`. A `return` in the loop's `else:` sets the flag too. The flag is set
  to False just before each such loop, so an earlier run of the body (the caller may itself
  be a loop) never leaves it set.

Falling off the end of the body assigns None. Example::

    for i in range(n):
        if xs[i] > t:
            return i
    return -1
    # --- lowered, result `r`, flag `returned` ---
    returned = False
    for i in range(n):
        if xs[i] > t:
            r = i
            returned = True
            break
    if not returned:
        r = -1
"""

from __future__ import annotations

from collections.abc import Callable

from .. import ir
from ..ir.rewrite import walk_statements, with_bodies


def has_return(stmt: ir.Stmt) -> bool:
    """Whether `stmt` holds a `return`, in any nested body."""
    return any(isinstance(inner, ir.Return) for inner in walk_statements((stmt,)))


def lower_returns(body: tuple[ir.Stmt, ...], result: str,
                  new_flag: Callable[[], str]) -> tuple[ir.Stmt, ...]:
    """`body` with every `return v` made an assignment `result = v`, in structured code (see
    the module docstring). `new_flag` names the flag, called only if a loop needs one."""
    falling_off = (_assign(ir.Name(result), ir.Const(None)),)
    return _Lowering(ir.Name(result), new_flag).block(body, falling_off, False)


def _assign(target: ir.Name, value: ir.Expr, loc: ir.Loc = ir.NO_LOC) -> ir.Assign:
    return ir.Assign((target,), value, loc)


class _Lowering:
    def __init__(self, result: ir.Name, new_flag: Callable[[], str]) -> None:
        self.result = result
        self.new_flag = new_flag
        self._flag: ir.Name | None = None

    @property
    def flag(self) -> ir.Name:
        if self._flag is None:
            self._flag = ir.Name(self.new_flag())
        return self._flag

    def returning(self, value: ir.Expr | None, loc: ir.Loc, sets_flag: bool) -> list[ir.Stmt]:
        """What `return value` becomes: the result assigned, and the flag set if code after
        the enclosing loop checks it."""
        returned = value if value is not None else ir.Const(None)
        statements: list[ir.Stmt] = [_assign(self.result, returned, loc)]
        if sets_flag:
            statements.append(_assign(self.flag, ir.Const(True), loc))
        return statements

    def block(self, body: tuple[ir.Stmt, ...], ending: tuple[ir.Stmt, ...],
              sets_flag: bool) -> tuple[ir.Stmt, ...]:
        """`body` (outside any loop of the callee's) lowered, followed by `ending` where it
        falls off its end; `sets_flag` where code after an enclosing loop checks the flag (a
        loop's `else:`)."""
        lowered: list[ir.Stmt] = []
        for index, stmt in enumerate(body):
            rest = body[index + 1:]
            match stmt:
                case ir.Return(value, loc):
                    return (*lowered, *self.returning(value, loc, sets_flag))
                case ir.If(test, then, orelse, loc) if has_return(stmt):
                    return (*lowered, ir.If(test, self.block(then + rest, ending, sets_flag),
                                            self.block(orelse + rest, ending, sets_flag), loc))
                case ir.For() | ir.While() if has_return(stmt):
                    loop = with_bodies(stmt, self.loop_body(stmt.body),
                                       self.block(stmt.orelse, (), True))
                    after = self.block(rest, ending, sets_flag)
                    reset = _assign(self.flag, ir.Const(False), stmt.loc)
                    if not after:
                        return (*lowered, reset, loop)
                    guarded = ir.If(ir.Op("not", (self.flag,)), after, (), stmt.loc)
                    return (*lowered, reset, loop, guarded)
            lowered.append(stmt)
        return (*lowered, *ending)

    def loop_body(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        """`body`, inside a loop of the callee's, lowered: a return breaks out of the loop."""
        lowered: list[ir.Stmt] = []
        for stmt in body:
            match stmt:
                case ir.Return(value, loc):
                    return (*lowered, *self.returning(value, loc, True), ir.Break(loc))
                case ir.If(test, then, orelse, loc) if has_return(stmt):
                    lowered.append(ir.If(test, self.loop_body(then), self.loop_body(orelse), loc))
                case ir.For() | ir.While() if has_return(stmt):
                    # a break in the inner loop's `else:` leaves this loop, as a return must
                    lowered.append(with_bodies(stmt, self.loop_body(stmt.body),
                                               self.loop_body(stmt.orelse)))
                    if any(has_return(inner) for inner in stmt.body):
                        lowered.append(ir.If(self.flag, (ir.Break(stmt.loc),), (), stmt.loc))
                case _:
                    lowered.append(stmt)
        return tuple(lowered)
