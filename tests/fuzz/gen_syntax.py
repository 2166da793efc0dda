"""Kind "syntax": valid Python of every syntax kind inside `main`'s body.

A small grammar-based writer (a `random.Random(seed)` makes every choice) fills `main(x, y,
n)` with statements of every kind the language has inside a function: assignments (chained,
starred, to subscripts and slices), augmented assignment with each of the thirteen operators,
walrus, `if`/`elif`/`else`, `for`/`else` and `while`/`else` with `break`/`continue`,
`try`/`except`/`else`/`finally` (and `except*`), `raise ... from ...`, `with` (one and two
context managers, some swallowing the exception), `match` with every kind of pattern,
`global` (a counter rebound or deleted, the helper `main` calls rebound by `main`), `nonlocal`
in nested defs, `del`, `assert`, nested defs (decorated, generators,
`async def` driven by hand), class definitions, lambdas, comprehensions of the four kinds,
f-strings with conversions, format specs and `=`, slices, chained comparisons, `print`, early
returns; a local deleted and read again; code that sees the frame (`locals()`, `eval`, the line
number, warnings) or a global a call changes; aliased lists; late-binding lambdas. Expressions are small and mostly numeric over the locals, the arguments and tricky
constants (NaN, -0.0, 2 ** 70, 1e308...); operations may raise (that is compared too).

Every program terminates quickly: loops run at most three turns (`range` of a small literal, a
copy of a list, or a counter the loop's first statement increments), shifts and repetitions
take small counts, and powers have literal exponents.

The module around `main` holds a global counter (and `bump`, which changes it), a decorator
that prints, a context manager class that prints, a helper, and a class with `@`.
"""

from __future__ import annotations

import random

from tests.fuzz.core import Case

PRELUDE = '''\
import math
import sys
import warnings

COUNT = 0
LIMIT = 2 ** 70


def deco(f):
    def wrapped(*args, **kwargs):
        print("call", f.__name__, len(args))
        return f(*args, **kwargs)
    return wrapped


class CM:
    def __init__(self, tag, swallow=False):
        self.tag = tag
        self.swallow = swallow

    def __enter__(self):
        print("enter", self.tag)
        return self.tag

    def __exit__(self, kind, value, tb):
        print("exit", self.tag, kind.__name__ if kind else None)
        return self.swallow


class Mat:
    def __init__(self, v):
        self.v = v

    def __matmul__(self, other):
        return Mat(self.v * 2 + getattr(other, "v", other))

    def __repr__(self):
        return f"Mat({self.v!r})"


def helper(a, b=2):
    return a * b + 1


def bump(k=1):
    global COUNT
    COUNT = COUNT + k
    return COUNT

'''

NUMBERS = ("0", "1", "2", "3", "-1", "0.5", "-0.0", "0.1", "1e308", "float('nan')",
           "float('inf')", "2 ** 70", "True", "-2.5", "7", "10 ** 20", "5e-324")
ARITH = ("+", "-", "*", "/", "//", "%")
AUG = ("+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^=", "@=")
COMPARE = ("<", "<=", ">", ">=", "==", "!=")
NUMERIC_LOCALS = ("a", "b", "c", "x", "y", "n")


class Writer:
    """Writes `main`'s body; `lines` collects indented lines."""

    def __init__(self, r: random.Random) -> None:
        self.r = r
        self.lines: list[str] = []
        self.budget = r.randint(6, 22)
        self.uid = 0
        self.in_loop = False
        self.declares_global = False

    # ------------------------------------------------------------------ expressions

    def fresh(self, stem: str) -> str:
        self.uid += 1
        return f"{stem}{self.uid}"

    def leaf(self) -> str:
        if self.r.random() < 0.6:
            return self.r.choice(NUMERIC_LOCALS)
        return self.r.choice(NUMBERS)

    def num(self, depth: int = 0) -> str:
        """A (mostly) numeric expression."""
        r = self.r
        if depth >= 2 or r.random() < 0.35:
            return self.leaf()
        choice = r.randrange(16)
        sub = lambda: self.num(depth + 1)  # noqa: E731
        if choice < 5:
            return f"({sub()} {r.choice(ARITH)} {sub()})"
        if choice == 5:
            return f"({sub()}) ** {r.choice(('2', '3', '-1', '0.5', '0'))}"
        if choice == 6:
            return f"-{sub()}"
        if choice == 7:
            return f"({sub()} if {self.cond(depth + 1)} else {sub()})"
        if choice == 8:
            return f"{r.choice(('abs', 'round', 'int', 'float', 'bool'))}({sub()})"
        if choice == 9:
            return f"{r.choice(('min', 'max', 'pow', 'divmod', 'helper', 'math.copysign'))}({sub()}, {sub()})"
        if choice == 10:
            return f"(int({sub()}) {r.choice(('&', '|', '^', '<<', '>>'))} (c & 7))"
        if choice == 11:
            return f"({self.fresh('w')} := {sub()})"
        if choice == 12:
            return f"L[{r.choice(('0', '-1', '1', 'c % 3', 'len(L) - 1'))}]"
        if choice == 13:
            return self.comprehension(depth + 1)
        if choice == 14:
            return f"(lambda z, q={sub()}: z {r.choice(ARITH)} q)({sub()})"
        return f"round({sub()}, {r.choice(('2', '-1', '0', '-400'))})"

    def cond(self, depth: int = 0) -> str:
        r = self.r
        choice = r.randrange(7)
        if choice < 2:
            return f"{self.num(depth + 1)} {r.choice(COMPARE)} {self.num(depth + 1)}"
        if choice == 2:  # chained
            return (f"{self.leaf()} {r.choice(COMPARE)} {self.leaf()} "
                    f"{r.choice(COMPARE)} {self.leaf()}")
        if choice == 3:
            return f"{self.leaf()} {r.choice(('in', 'not in'))} {r.choice(('L', 'd', '(1, 2.0)', 'S'))}"
        if choice == 4:
            return f"({self.cond(depth + 1)} {r.choice(('and', 'or'))} {self.leaf()})"
        if choice == 5:
            return f"not {self.leaf()}"
        return f"{r.choice(NUMERIC_LOCALS)} is {r.choice(('None', 'True', 'a', 'b'))}"

    def comprehension(self, depth: int) -> str:
        r = self.r
        var = self.fresh("i")
        source = r.choice(("L", "range(3)", "(a, b, c)", "sorted(S)", "d"))
        cond = f" if {var} {r.choice(COMPARE)} {self.leaf()}" if r.random() < 0.5 else ""
        element = r.choice((var, f"{var} * 2", f"({var}, {self.leaf()})"))
        kind = r.randrange(5)
        if kind == 0:
            return f"[{element} for {var} in {source}{cond}]"
        if kind == 1:
            return f"len({{{var} for {var} in {source}{cond}}})"
        if kind == 2:
            return f"{{{var}: {element} for {var} in {source}{cond}}}"
        if kind == 3:
            return f"sum({var} for {var} in {source}{cond})"
        inner = self.fresh("j")
        return f"[{var} + {inner} for {var} in range(2) for {inner} in {source}{cond.replace(var, inner)}]"

    def fstring(self) -> str:
        r = self.r
        parts = []
        for _ in range(r.randint(1, 3)):
            value = r.choice(NUMERIC_LOCALS + ("s", "L"))
            spec = r.choice(("", "!r", "!s", ":>8", ":.3", "=", "=!r", ":^6", "!a:<5", ":g"))
            parts.append(f"{{{value}{spec}}}")
        return "f" + repr("-".join(parts)).replace("\\\\", "\\")

    # ------------------------------------------------------------------ statements

    def emit(self, indent: int, text: str) -> None:
        for line in text.splitlines():
            self.lines.append("    " * indent + line)

    def block(self, indent: int, depth: int, size: int | None = None) -> None:
        count = size if size is not None else self.r.randint(1, 3)
        for _ in range(count):
            self.statement(indent, depth)

    def statement(self, indent: int, depth: int) -> None:
        self.budget -= 1
        r = self.r
        simple = depth >= 2 or self.budget <= 0
        kinds = SIMPLE if simple else SIMPLE + COMPOUND
        getattr(self, "s_" + r.choice(kinds))(indent, depth)

    # simple statements

    def s_assign(self, i: int, d: int) -> None:
        target = self.r.choice(("a", "b", "c", "a = b", "L[0]", "d['k']", "L[1:2]", "s"))
        value = self.num()
        if target == "L[1:2]":
            value = f"[{value}, {self.leaf()}]"
        elif target == "s":
            value = self.fstring()
        self.emit(i, f"{target} = {value}")

    def s_augment(self, i: int, d: int) -> None:
        r = self.r
        op = r.choice(AUG)
        if op == "@=":
            self.emit(i, f"m @= {r.choice(('m', 'Mat(2)', '3'))}")
        elif op in ("<<=", ">>="):
            self.emit(i, f"c {op} {r.choice(('1', '2', 'n & 3'))}")
        elif op in ("&=", "|=", "^="):
            self.emit(i, f"{r.choice(('c', 'n', 'S'))} {op} {r.choice(('c', '3', 'True', 'S'))}")
        elif op == "**=":
            self.emit(i, f"{r.choice(('a', 'b'))} **= {r.choice(('2', '0.5', '-1'))}")
        else:
            target = r.choice(("a", "b", "c", "L[0]", "d['k']", "s", "L"))
            if target == "s":
                value = r.choice(("'z'", "s")) if op in ("+=",) else "(c & 3)" if op == "*=" else self.leaf()
            elif target == "L":
                value = r.choice(("[a]", "(b,)", "L[:1]")) if op == "+=" else "(c & 1) + 1" if op == "*=" else self.leaf()
            else:
                value = self.num()
            self.emit(i, f"{target} {op} {value}")

    def s_star(self, i: int, d: int) -> None:
        r = self.r
        rest = self.fresh("rest")
        form = r.randrange(4)
        if form == 0:
            self.emit(i, f"a, *{rest} = L")
        elif form == 1:
            self.emit(i, f"*{rest}, b = {r.choice(('L', 'range(3)', 'S', 's'))}")
        elif form == 2:
            self.emit(i, "(a, b), c = (b, a), c")
        else:
            self.emit(i, "a, b = b, a")
        if form < 2:
            self.emit(i, f"L.append(len({rest}))")

    def s_walrus(self, i: int, d: int) -> None:
        w = self.fresh("w")
        self.emit(i, f"if ({w} := {self.num()}) {self.r.choice(COMPARE)} {self.leaf()}:")
        self.emit(i + 1, f"a = {w}")

    def s_print(self, i: int, d: int) -> None:
        self.emit(i, f"print({self.fstring()}, {self.num()}, sep={self.r.choice(('',  ' ', '|'))!r})")

    def s_del(self, i: int, d: int) -> None:
        r = self.r
        form = r.randrange(4)
        if form == 0:
            t = self.fresh("t")
            self.emit(i, f"{t} = {self.num()}\ndel {t}")
        elif form == 1:
            self.emit(i, "del L[0]")
        elif form == 2:
            self.emit(i, "del d['k']")
        else:
            self.emit(i, "del L[::2]")

    def s_assert(self, i: int, d: int) -> None:
        self.emit(i, f"assert {self.cond()}, {self.fstring()}")

    def s_global(self, i: int, d: int) -> None:
        self.declares_global = True
        choice = self.r.randrange(5)
        if choice == 0:  # the helper main calls, rebound by main itself
            self.emit(i, f"helper = lambda a, b=2: a - b * {self.leaf()}")
        elif choice == 1:
            self.emit(i, "del COUNT\nCOUNT = 1")
        else:
            self.emit(i, f"COUNT = COUNT + {self.leaf()}")

    def s_slice(self, i: int, d: int) -> None:
        r = self.r
        lo, hi, step = (r.choice(("", "1", "-1", "c")) for _ in range(3))
        step = r.choice(("", "-1", "2", "-2"))
        self.emit(i, f"{r.choice(('L', 's'))}[{lo}:{hi}{':' + step if step else ''}]")
        self.emit(i, f"b = len(L[{lo}:{hi}{':' + step if step else ''}])")

    def s_call(self, i: int, d: int) -> None:
        r = self.r
        self.emit(i, r.choice(("a = helper(*L[:1])", f"b = helper(**{{'a': {self.leaf()}}})",
                               f"L.append({self.num()})", f"d[{self.leaf()}] = {self.leaf()}",
                               f"S.add({self.leaf()})")))

    def s_return(self, i: int, d: int) -> None:
        if d > 0 and self.r.random() < 0.5:
            self.emit(i, f"return {self.num()}")
        else:
            self.emit(i, "pass")

    def s_raise(self, i: int, d: int) -> None:
        r = self.r
        self.emit(i, "try:")
        cause = r.choice(("KeyError('k')", "None", "ValueError(a)"))
        self.emit(i + 1, f"raise {r.choice(('ValueError', 'TypeError'))}({self.leaf()}) from {cause}")
        self.emit(i, f"except {r.choice(('ValueError', '(TypeError, ValueError)', 'Exception'))} as e:")
        self.emit(i + 1, "b = repr(e.__cause__)")

    def s_unbind(self, i: int, d: int) -> None:
        """A local deleted, then read (UnboundLocalError) or bound again."""
        name = self.r.choice(("a", "b", "c"))
        self.emit(i, f"del {name}")
        if self.r.random() < 0.5:
            self.emit(i, f"{name} = {self.num()}")

    def s_dynamic(self, i: int, d: int) -> None:
        """Code that sees the frame: locals(), eval, the line number, warnings, a global
        changed by a call."""
        r = self.r
        self.emit(i, r.choice((
            "print(sorted(k for k in locals() if len(k) == 1))",
            f"b = eval('a + 1') if {self.cond()} else b",
            "c = sys._getframe().f_lineno",
            f"warnings.warn(f'w{{a!r}}', {r.choice(('UserWarning', 'RuntimeWarning'))})",
            f"a = COUNT\nbump({self.leaf()})\nb = COUNT - a",
            f"p = q = [{self.leaf()}]\np.append(1)\nc = len(q)",
            "fs = [lambda: k for k in range(3)]\nc = fs[0]() + len(fs)",
        )))

    def s_loop_exit(self, i: int, d: int) -> None:
        if self.in_loop:
            self.emit(i, f"if {self.cond()}:")
            self.emit(i + 1, self.r.choice(("break", "continue")))
        else:
            self.emit(i, "...")

    # compound statements

    def s_if(self, i: int, d: int) -> None:
        self.emit(i, f"if {self.cond()}:")
        self.block(i + 1, d + 1)
        for _ in range(self.r.randint(0, 2)):
            self.emit(i, f"elif {self.cond()}:")
            self.block(i + 1, d + 1)
        if self.r.random() < 0.5:
            self.emit(i, "else:")
            self.block(i + 1, d + 1)

    def _loop_body(self, i: int, d: int) -> None:
        outer, self.in_loop = self.in_loop, True
        self.block(i, d)
        self.in_loop = outer

    def s_for(self, i: int, d: int) -> None:
        var = self.fresh("k")
        self.emit(i, f"for {var} in {self.r.choice(('range(3)', 'L[:3]', 'list(d)', 'S.copy()', 'enumerate(s)', 'zip(L, L[1:])'))}:")
        self._loop_body(i + 1, d + 1)
        self.emit(i + 1, f"c = {var} if isinstance({var}, int) else c")
        if self.r.random() < 0.4:
            self.emit(i, "else:")
            self.block(i + 1, d + 1)

    def s_while(self, i: int, d: int) -> None:
        w = self.fresh("count")
        self.emit(i, f"{w} = 0")
        self.emit(i, f"while {w} < {self.r.randint(0, 3)}:")
        self.emit(i + 1, f"{w} += 1")
        self._loop_body(i + 1, d + 1)
        if self.r.random() < 0.4:
            self.emit(i, "else:")
            self.block(i + 1, d + 1)

    def s_try(self, i: int, d: int) -> None:
        r = self.r
        self.emit(i, "try:")
        self.block(i + 1, d + 1)
        handlers = r.randint(0 if r.random() < 0.3 else 1, 2)
        star = handlers and r.random() < 0.15
        for _ in range(handlers):
            kind = r.choice(("ZeroDivisionError", "ArithmeticError", "(TypeError, ValueError)",
                             "Exception", "OverflowError", "IndexError", "KeyError"))
            self.emit(i, f"except{'*' if star else ''} {kind} as e{self.uid}:")
            self.emit(i + 1, f"print('caught', type(e{self.uid}).__name__)")
            if not star and r.random() < 0.5:
                self.block(i + 1, d + 1, 1)
        if handlers and r.random() < 0.4:
            self.emit(i, "else:")
            self.block(i + 1, d + 1)
        if not handlers or r.random() < 0.4:
            self.emit(i, "finally:")
            self.emit(i + 1, f"print('finally', {self.leaf()})")

    def s_with(self, i: int, d: int) -> None:
        r = self.r
        first = f"CM({r.choice(('1', 'a', 's'))}, {r.choice(('False', 'True'))})"
        if r.random() < 0.3:
            self.emit(i, f"with {first} as t{self.uid}, CM('inner') as u{self.uid}:")
        else:
            self.emit(i, f"with {first} as t{self.uid}:")
        self.block(i + 1, d + 1)

    def s_match(self, i: int, d: int) -> None:
        r = self.r
        self.emit(i, f"match {r.choice(('a', 'L', 'd', 's', '(a, b)', 'c', 'm'))}:")
        patterns = ["0 | 1", "[p, *rest]", "{'k': p}", "int(p) if p > 2", "str() as p",
                    "(p, q)", "Mat(v=p)", "-1.5", "None", "float(p) if p != p", "[]", "{**rest}",
                    "[1, _, *_]", "True"]
        r.shuffle(patterns)
        for pattern in patterns[:r.randint(1, 4)]:
            self.emit(i + 1, f"case {pattern}:")
            self.block(i + 2, d + 1, 1)
        if r.random() < 0.7:
            self.emit(i + 1, "case _:")
            self.block(i + 2, d + 1, 1)

    def s_nested_def(self, i: int, d: int) -> None:
        r = self.r
        name = self.fresh("inner")
        form = r.randrange(5)
        if form == 0:  # nonlocal
            self.emit(i, f"def {name}(k):\n    nonlocal a\n    a = a + k\n    return a")
            self.emit(i, f"b = {name}({self.leaf()})")
        elif form == 1:  # decorated
            self.emit(i, f"@deco\ndef {name}(k, *rest, z={self.leaf()}, **kw):\n"
                         f"    return k * z + len(rest) + len(kw)")
            self.emit(i, f"a = {name}({self.leaf()}, 1, 2, q=3)")
        elif form == 2:  # generator
            self.emit(i, f"def {name}():\n    yield a\n    yield from L[:2]\n    return b")
            self.emit(i, f"L = L + list({name}())")
        elif form == 3:  # async def, driven by hand
            self.emit(i, f"async def {name}(k):\n    return k + {self.leaf()}")
            self.emit(i, f"co{self.uid} = {name}(a)\ntry:\n    co{self.uid}.send(None)\n"
                         f"except StopIteration as stop{self.uid}:\n    b = stop{self.uid}.value")
        else:  # recursion through a closure
            self.emit(i, f"def {name}(k):\n    return 0 if k <= 0 else k + {name}(k - 1)")
            self.emit(i, f"c = {name}(n)")

    def s_class(self, i: int, d: int) -> None:
        name = self.fresh("K")
        self.emit(i, f"class {name}:\n    scale = {self.leaf()}\n\n"
                     f"    def __init__(self, v):\n        self.v = v\n\n"
                     f"    def get(self):\n        return self.v * self.scale\n\n"
                     f"    @property\n    def twice(self):\n        return self.get() * 2")
        self.emit(i, f"a = {name}({self.leaf()}).{self.r.choice(('get()', 'twice', 'v'))}")

    # ------------------------------------------------------------------ the function

    def main(self) -> str:
        body_start = len(self.lines)
        while self.budget > 0:
            self.statement(1, 0)
        body = self.lines[body_start:]
        r = self.r
        result = r.choice(("(a, b, c, s, L, d, sorted(S, key=repr), m)", "a", self.num(),
                           "(a, c, COUNT)", "[a, b, L]", "f'{a}{b}'"))
        head = ["def main(x, y, n):"]
        if self.declares_global:
            head.append("    global COUNT, helper")
        head += ["    a, b, c = x, y, n", "    s = 'ab'", "    L = [x, y, n]",
                 "    d = {'k': x}", "    S = {1, 2}", "    m = Mat(1)"]
        return "\n".join(head + body + [f"    return {result}"]) + "\n"


SIMPLE = ("assign", "assign", "augment", "augment", "star", "walrus", "print", "del", "assert",
          "global", "slice", "call", "return", "raise", "loop_exit", "loop_exit", "unbind",
          "dynamic", "dynamic")
COMPOUND = ("if", "for", "while", "try", "try", "with", "match", "match", "nested_def",
            "nested_def", "class", "if")

ARGUMENTS = ("0", "1", "-1", "3", "2.5", "-0.0", "float('nan')", "float('inf')", "2 ** 70",
             "True", "0.1", "1e308", "-7")


def generate(seed: int) -> Case:
    r = random.Random(f"syntax:{seed}")
    source = PRELUDE + "\n" + Writer(r).main()
    steps = []
    for _ in range(r.randint(2, 4)):
        args = f"{r.choice(ARGUMENTS)}, {r.choice(ARGUMENTS)}, {r.randint(0, 4)}"
        steps.append(("call", f"({args},), {{}}"))
    return Case("syntax", seed, source, steps)
