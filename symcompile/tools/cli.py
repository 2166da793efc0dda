"""The command line: `symcompile demo | show FILE::FUNC | explain FILE::FUNC | optimize FILE |
bench` (also `python -m symcompile`).

A thin layer over the public API. Exit codes: 0 success, 1 the command ran and failed (for
example a function that cannot be compiled), 2 bad usage or input (missing file, missing
function, a file that does not parse). Errors go to stderr as one clear line, never a traceback.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import inspect
import os
import sys
import tempfile
import timeit
import tokenize
import types
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import SymbolicError
from ..examples import fancy, mlp
from ..runtime import api
from ..runtime import export as exporting
from . import modules
from .explain import explain


class UsageError(Exception):
    """Bad input on the command line (exit code 2)."""


class ScriptError(Exception):
    """The user's file raised while it was being imported (exit code 1)."""


def _load_module(path_text: str) -> types.ModuleType:
    path = Path(path_text)
    if not path.is_file():
        raise UsageError(f"{path_text}: no such file")
    try:
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    except SyntaxError as error:
        raise UsageError(f"{path_text}:{error.lineno}: syntax error: {error.msg}") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise UsageError(f"{path_text}: cannot read as Python source: {error}") from None
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise ScriptError(f"{path_text}: running the file failed: {type(error).__name__}: {error}")
    return module


def _find_function(spec: str) -> Any:
    """`FILE::NAME` (NAME may be dotted, `Class.method`) → the function object."""
    file_part, sep, name = spec.rpartition("::")
    if not sep or not file_part or not name:
        raise UsageError(f"{spec!r}: expected FILE::FUNCTION, for example demo.py::fancy_func")
    found: Any = _load_module(file_part)
    for part in name.split("."):
        if not hasattr(found, part):
            raise UsageError(f"{file_part}: no function named {name!r}")
        found = getattr(found, part)
    if isinstance(found, types.MethodType):
        found = found.__func__
    if not callable(found):
        raise UsageError(f"{file_part}: {name!r} is not a function")
    return found


def _symbolic_version(function: Any) -> Any:
    return function if hasattr(function, "_symcompile") else api.symbolic(function)


def command_show(args: argparse.Namespace) -> int:
    function = _symbolic_version(_find_function(args.target))
    try:
        text = str(function.source)
    except TypeError as error:  # a function with static arguments has no general version
        raise UsageError(str(error)) from None
    print(text, end="")
    return 0


def _call_arguments(text: str) -> tuple[Any, ...]:
    """`--args "1, 2.5, (3, 4)"` → the tuple of those Python literals."""
    try:
        value = ast.literal_eval(f"({text.strip().rstrip(',')},)") if text.strip() else ()
    except (SyntaxError, ValueError) as error:
        raise UsageError(f"--args {text!r}: not a list of Python literals ({error})") from None
    return tuple(value)


def command_explain(args: argparse.Namespace) -> int:
    function = _find_function(args.target)
    arguments = _call_arguments(args.args)
    try:
        explanation = explain(function, *arguments)
    except TypeError as error:  # the arguments do not fit the function's parameters
        raise UsageError(f"--args: {error}") from None
    print(explanation, end="")
    if args.html is not None:
        _write_atomically(Path(args.html), explanation._repr_html_())
        print(f"\nthe HTML report: {args.html}")
    return 0


def _read_source(path_text: str) -> str:
    """The text of a Python file, decoded as Python does (PEP 263 coding cookie)."""
    if not Path(path_text).is_file():
        raise UsageError(f"{path_text}: no such file")
    try:
        with tokenize.open(path_text) as stream:
            return stream.read()
    except (SyntaxError, UnicodeDecodeError, OSError) as error:
        raise UsageError(f"{path_text}: cannot read as Python source: {error}") from None


def _write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file renamed over it, so a failure leaves
    the old file whole; an existing file keeps its permissions."""
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                                 suffix=".tmp")
    except OSError as error:
        raise UsageError(f"{path}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except OSError as error:
        os.unlink(temporary)
        raise UsageError(f"{path}: cannot write: {error.strerror}") from None
    except BaseException:
        os.unlink(temporary)
        raise


def command_optimize(args: argparse.Namespace) -> int:
    text = _read_source(args.file)
    try:
        modules.parse_module(text, args.file)
    except SymbolicError as error:
        where = f"{error.filename}:{error.lineno}:{(error.col or 0) + 1}" if error.lineno \
            else str(error.filename)
        raise UsageError(f"{where}: {error.message}") from None
    optimized = modules.optimize_source(text, args.file)
    if args.output is None:
        sys.stdout.write(optimized)
    else:
        _write_atomically(Path(args.output), optimized)
    return 0


def _per_thousand_calls(function: Any, number: int) -> float:
    """Seconds per 1000 calls of `function(1, 2, 3, 4)`, best of five runs."""
    runs = timeit.repeat("f(1, 2, 3, 4)", globals={"f": function}, number=number, repeat=5)
    return min(runs) / number * 1000


def command_demo(args: argparse.Namespace) -> int:
    imperative = fancy.fancy_func
    compiled = api.symbolic(imperative)
    print("The imperative program (from the textbook chapter on hybrid programming):\n")
    print(inspect.getsource(fancy))
    print(f"fancy_func(1, 2, 3, 4): imperative {imperative(1, 2, 3, 4)}, "
          f"compiled {compiled(1, 2, 3, 4)}\n")
    print("The source symcompile generated for it (print(fancy_func.source)):\n")
    print(compiled.source)  # type: ignore[attr-defined]  # symbolic sets it; api types it later
    number = 20_000 if args.quick else 200_000
    before = _per_thousand_calls(imperative, number)
    after = _per_thousand_calls(compiled, number)
    print(f"before: {before:.6f} s per 1000 calls (imperative)")
    print(f"after:  {after:.6f} s per 1000 calls (compiled), {before / after:.2f}x")
    program = inspect.getsource(fancy) + "\n\nprint(fancy_func(1, 2, 3, 4))\n"
    print("\nThe whole program, with its last line print(fancy_func(1, 2, 3, 4)), optimized as "
          "a module (symcompile.optimize_source; symcompile optimize FILE):\n")
    print(modules.optimize_source(program, "fancy.py"), end="")
    print("\nEvery step that led there: symcompile explain "
          f"{Path(fancy.__file__)}::fancy_func --args \"1, 2, 3, 4\"")
    _demo_mlp(100 if args.quick else 1000)
    return 0


def _demo_mlp(calls: int) -> None:
    """The chapter's MLP experiment: the net before and after `symbolic(net)`."""
    print("\n\nThe chapter's second experiment: an MLP as a Sequential of Dense layers, in NumPy "
          "(symcompile/examples/mlp.py):\n")
    print(inspect.getsource(mlp.Dense))
    print(inspect.getsource(mlp.Sequential))
    net = mlp.get_net()
    x = np.random.default_rng(0).standard_normal((1, 512)).astype(np.float32)
    compiled = api.symbolic(net)  # what net.hybridize() does in the chapter
    same = np.array_equal(compiled(x), net(x))
    print("compiled = symcompile.symbolic(net); symcompile.source(compiled, x) is:\n")
    print(api.source(compiled, x))
    print(f"same result as net(x), bit for bit: {same}")
    before, after = mlp.benchmark(net, x, calls), mlp.benchmark(compiled, x, calls)
    print(f"before: {before:.4f} s per 1000 calls (net(x))")
    print(f"after:  {after:.4f} s per 1000 calls (symcompile.symbolic(net)), {before / after:.2f}x")
    print("the chapter: MXNet before hybridizing 0.4733 s, after 0.2195 s (2.16x); "
          "TorchScript 0.1361 s, 0.1204 s (1.13x)")


def command_bench(args: argparse.Namespace) -> int:
    checkout = Path(__file__).resolve().parents[1]
    if not (checkout / "benchmarks" / "__main__.py").is_file():
        raise UsageError("the benchmark suite lives in benchmarks/ of a source checkout; "
                         "install symcompile from one (pip install -e .) to run it")
    sys.path.insert(0, str(checkout))
    from benchmarks.__main__ import main as benchmark_main
    return benchmark_main(["--quick"] if args.quick else [], prog="symcompile bench")


# ---- `symcompile export` (issue 13): one version as a module importing only NumPy


def command_export(args: argparse.Namespace) -> int:
    function = _symbolic_version(_find_function(args.target))
    try:
        written = exporting.export(function, args.output, *_call_arguments(args.args))
    except TypeError as error:  # the arguments do not fit the function's parameters
        raise UsageError(f"--args: {error}") from None
    arrays = written.with_suffix(".npz")
    print(f"wrote {written}" + (f" and its arrays, {arrays}" if arrays.exists() else ""))
    return 0


def _add_export_command(commands: Any) -> None:
    export = commands.add_parser(
        "export", help="write one compiled version as a module that imports only NumPy",
        description="Import FILE, compile FUNCTION (a function or a callable object) for the "
        "given arguments, and write that version as a standalone module importing only NumPy "
        "and the standard library (arrays in a sibling .npz), its entry conditions kept.")
    export.add_argument("target", metavar="FILE::FUNCTION",
                        help="for example examples/fancy.py::fancy_func")
    export.add_argument("--args", default="", metavar='"1.0, 2"',
                        help="example arguments, as Python literals (they select the version)")
    export.add_argument("-o", "--output", required=True, metavar="OUT.py",
                        help="the module to write (arrays go to OUT.npz)")
    export.set_defaults(run=command_export)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="symcompile",
        description="symcompile: compile numeric Python functions into optimized Python source.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    demo = commands.add_parser("demo", help="the textbook's fancy_func and MLP, imperative vs "
                               "compiled", description="Compile the textbook's fancy_func and "
                               "its MLP (a Sequential of Dense layers, in NumPy) and show the "
                               "source symcompile generates and the time each takes, before "
                               "and after.")
    demo.add_argument("--quick", action="store_true", help="time fewer calls")
    demo.set_defaults(run=command_demo)
    show = commands.add_parser("show", help="print the optimized source of a function",
                               description="Import FILE and print the source symcompile "
                               "generates for FUNCTION.")
    show.add_argument("target", metavar="FILE::FUNCTION",
                      help="for example examples/fancy.py::fancy_func (Class.method works too)")
    show.set_defaults(run=command_show)
    explain_command = commands.add_parser(
        "explain", help="show every change the compiler makes to a function, pass by pass",
        description="Import FILE and explain how symcompile compiles FUNCTION for the given "
        "arguments: the IR, each pass that changed something with its diff and rules, the "
        "generated source, and what was kept as written or left alone.")
    explain_command.add_argument("target", metavar="FILE::FUNCTION",
                                 help="for example examples/fancy.py::fancy_func")
    explain_command.add_argument("--args", default="", metavar='"1, 2, 3, 4"',
                                 help="the call's arguments, as Python literals (they select "
                                 "the version: static values and argument types)")
    explain_command.add_argument("--html", metavar="OUT.html",
                                 help="also write a self-contained HTML report to OUT.html")
    explain_command.set_defaults(run=command_explain)
    optimize = commands.add_parser(
        "optimize", help="print a whole file, optimized (its functions and top-level code)",
        description="Optimize FILE without running it: its functions are compiled as @symbolic "
        "would, and calls in its top-level statements are inlined and folded where that is "
        "sound (print(fancy_func(1, 2, 3, 4)) becomes print(10)). The result goes to stdout, "
        "or to OUT.")
    optimize.add_argument("file", metavar="FILE", help="the Python file to optimize")
    optimize.add_argument("-o", "--output", metavar="OUT",
                          help="write the result to OUT (replaced atomically; OUT may be FILE "
                          "itself) instead of stdout")
    optimize.set_defaults(run=command_optimize)
    bench = commands.add_parser("bench", help="run the benchmark suite (ratios from one run)",
                                description="Run the benchmarks in benchmarks/ and print ratios.")
    bench.add_argument("--quick", action="store_true", help="fewer repeats, for a smoke test")
    bench.set_defaults(run=command_bench)
    _add_export_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except UsageError as error:
        print(f"symcompile: error: {error}", file=sys.stderr)
        return 2
    except (SymbolicError, ScriptError) as error:
        print(f"symcompile: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
