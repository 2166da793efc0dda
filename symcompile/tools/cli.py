"""The command line: `symcompile demo | show TARGET | explain TARGET | optimize FILE | bench |
export TARGET | serve` (also `python -m symcompile`).

A thin layer over the public API, addressed to someone at a shell. A TARGET is `FILE::NAME`
or `MODULE::NAME` (`symcompile.examples.fancy::fancy_func`, which works from an installed
package); NAME is a function, `Class.method` or a callable object. Exit codes (`EXIT_CODES`,
shown by `--help`): 0 success, 1 your code or the compiler failed, 2 what was typed is wrong.
Errors go to stderr as one clear line, never a traceback.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import math
import os
import sys
import tempfile
import threading
import time
import timeit
import tokenize
import types
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from ..errors import SymbolicError
from ..examples import fancy, mlp
from ..runtime import api
from ..runtime import export as exporting
from . import modules, serve
from .explain import explain

EXIT_CODES = """exit codes:
  0  success
  1  your code or the compiler failed: the file raised while it ran, or the function
     cannot be compiled
  2  what was typed is wrong: an unknown command or option, a missing file, module or
     name, a name that is not a function, --args that do not parse or do not fit"""

PROGRESS_AFTER = 1.0  # seconds a compile runs before the command line says it is working


class UsageError(Exception):
    """Bad input on the command line (exit code 2)."""


class ScriptError(Exception):
    """The user's file raised while it was being imported (exit code 1)."""


def _check_source(path: Path, path_text: str) -> None:
    try:
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    except SyntaxError as error:
        raise UsageError(f"{path_text}:{error.lineno}: syntax error: {error.msg}") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise UsageError(f"{path_text}: cannot read as Python source: {error}") from None


def _load_module(where: str) -> types.ModuleType:
    """The module of a target: a file, run as `python FILE` would (said on stderr, since its
    top-level code runs), or an importable module's dotted name."""
    path = Path(where)
    if not path.is_file():
        if where.endswith(".py") or not all(part.isidentifier() for part in where.split(".")):
            raise UsageError(f"{where}: no such file")
        return _import(where)
    _check_source(path, where)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    print(f"symcompile: running {where} (its top-level code runs, as on import)", file=sys.stderr)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise ScriptError(f"{where}: running the file failed: {type(error).__name__}: {error}")
    return module


def _import(name: str) -> types.ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            raise UsageError(f"{name}: no such file or module") from None
        raise ScriptError(f"{name}: importing it failed: {error}") from None
    except Exception as error:
        raise ScriptError(f"{name}: importing it failed: {type(error).__name__}: {error}")


def _split_target(spec: str) -> tuple[str, str]:
    where, sep, name = spec.rpartition("::")
    if not sep or not where or not name:
        raise UsageError(f"{spec!r}: expected FILE::FUNCTION, for example "
                         "symcompile.examples.fancy::fancy_func or demo.py::fancy_func")
    return where, name


def _find_target(spec: str) -> tuple[Any, dict[str, Any]]:
    """`FILE::NAME` (NAME may be dotted, `Class.method`) → the function or callable object,
    and the globals of its module (for --args)."""
    where, name = _split_target(spec)
    module = _load_module(where)
    found: Any = module
    for part in name.split("."):
        if not hasattr(found, part):
            raise UsageError(f"{where}: no function named {name!r}")
        found = getattr(found, part)
    if isinstance(found, types.MethodType) and not api.is_symbolic(found):
        found = found.__func__
    if isinstance(found, type):
        methods = [key for key, value in vars(found).items()
                   if inspect.isfunction(value) and not key.startswith("__")]
        example = f" ({name}.{methods[0]})" if methods else ""
        raise UsageError(f"{where}: {name!r} is a class: name one of its methods{example} "
                         "or an instance")
    if not callable(found):
        raise UsageError(f"{where}: {name!r} is not a function")
    if isinstance(found, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        raise UsageError(f"{where}: {name!r} is built into Python: symcompile compiles "
                         "functions written in Python")
    return found, vars(module)


def _symbolic_version(function: Any) -> Any:
    return function if api.is_symbolic(function) else api.symbolic(function)


def _call_arguments(text: str, names: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """`--args "np.ones(3), y=2"` → the positional and keyword arguments: any Python
    argument list, evaluated with `np`, `numpy`, `math` and the file's own globals."""
    try:
        call = ast.parse(f"_({text})", mode="eval").body
    except SyntaxError as error:
        raise UsageError(f"--args {text!r}: not a Python argument list ({error.msg})") from None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise UsageError(f"--args {text!r}: not a Python argument list")

    def collect(*args: Any, **kwargs: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return args, kwargs

    namespace = {"np": np, "numpy": np, "math": math, **names, "_": collect}
    try:
        return eval(compile(ast.Expression(call), "--args", "eval"), namespace)  # noqa: S307
    except Exception as error:
        raise UsageError(f"--args {text!r}: {type(error).__name__}: {error}") from None


@contextlib.contextmanager
def _progress(what: str) -> Iterator[None]:
    """Say on stderr that `what` is under way, if it takes more than `PROGRESS_AFTER`
    seconds, and how long it took."""
    started = time.perf_counter()
    timer = threading.Timer(PROGRESS_AFTER, lambda: print(
        f"symcompile: {what}...", file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        elapsed = time.perf_counter() - started
        if elapsed > PROGRESS_AFTER:
            print(f"symcompile: {what}: done in {elapsed:.1f} s", file=sys.stderr, flush=True)


def _qualname(function: Any) -> str:
    return str(getattr(function, "__qualname__", type(function).__qualname__))


def command_show(args: argparse.Namespace) -> int:
    target, names = _find_target(args.target)
    function = _symbolic_version(target)
    if args.args is None:
        if isinstance(function, types.MethodType):
            raise UsageError(f"{args.target.rpartition('::')[2]} is a callable object: give a "
                             "call's arguments with --args to see the version they select")
        with _progress(f"compiling {_qualname(target)}"):
            try:
                text = str(function.source)
            except TypeError as error:  # `power specializes on n: it has no version ...`
                raise UsageError(f"{str(error).split(':')[0]}: give a call's arguments with "
                                 "--args to see the version they select") from None
    else:
        positional, keywords = _call_arguments(args.args, names)
        with _progress(f"compiling {_qualname(target)}"):
            text = _with_arguments(api.source, function, positional, keywords)
    print(text, end="")
    return 0


def _with_arguments(run: Any, function: Any, positional: tuple[Any, ...],
                    keywords: dict[str, Any]) -> Any:
    try:
        return run(function, *positional, **keywords)
    except TypeError as error:  # the arguments do not fit the function's parameters
        raise UsageError(f"--args: {error}") from None


def command_explain(args: argparse.Namespace) -> int:
    target, names = _find_target(args.target)
    positional, keywords = _call_arguments(args.args, names)
    with _progress(f"compiling and explaining {_qualname(target)}"):
        explanation = _with_arguments(explain, target, positional, keywords)
    print(explanation, end="")
    if args.html is not None:
        _write_atomically(Path(args.html), explanation.html_page())
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
          f"{fancy.__name__}::fancy_func --args \"1, 2, 3, 4\" (the file: {fancy.__file__})")
    _demo_mlp(100 if args.quick else 1000)
    return 0


def _demo_mlp(calls: int) -> None:
    """The chapter's MLP experiment: the net before and after `symbolic(net)`."""
    print("\n\nThe chapter's second experiment: an MLP as a Sequential of Dense layers, in NumPy "
          f"({mlp.__file__}):\n")
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


TARGET_HELP = ("FILE::NAME or MODULE::NAME: a function, Class.method or a callable object, "
               "for example symcompile.examples.fancy::fancy_func or demo.py::fancy_func; a "
               "FILE's top-level code runs first, as on import (said on stderr)")
ARGS_HELP = ("the call's arguments, as Python source: any expressions, keyword arguments "
             "too, with np, numpy, math and the file's own globals defined, for example "
             '"np.ones(3), y=2"; they select the version (static values, argument types)')


def _add_target(command: argparse.ArgumentParser, args_default: str | None) -> None:
    command.add_argument("target", metavar="TARGET", help=TARGET_HELP)
    command.add_argument("--args", default=args_default, metavar='"1, 2, 3, 4"', help=ARGS_HELP)


def _add_command(commands: Any, name: str, help_text: str,
                 description: str) -> argparse.ArgumentParser:
    command: argparse.ArgumentParser = commands.add_parser(
        name, help=help_text, description=description, epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return command


def _version() -> str:
    try:
        return importlib.metadata.version("symcompile")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed: run from a source checkout)"


# ---- `symcompile export` (issue 13): one version as a module importing only NumPy


def command_export(args: argparse.Namespace) -> int:
    target, names = _find_target(args.target)
    positional, keywords = _call_arguments(args.args, names)
    with _progress(f"compiling {_qualname(target)}"):
        written = _with_arguments(exporting.export, _symbolic_version(target), (args.output,
                                  *positional), keywords)
    arrays = written.with_suffix(".npz")
    print(f"wrote {written}" + (f" and its arrays, {arrays}" if arrays.exists() else ""))
    return 0


def _add_export_command(commands: Any) -> None:
    export = _add_command(
        commands, "export", "write one compiled version as a module that imports only NumPy",
        "Compile TARGET for the given arguments and write that version as a standalone module "
        "importing only NumPy and the standard library (arrays in a sibling .npz), its entry "
        "conditions kept.")
    _add_target(export, "")
    export.add_argument("-o", "--output", required=True, metavar="OUT.py",
                        help="the module to write (arrays go to OUT.npz)")
    export.set_defaults(run=command_export)


# ---- `symcompile serve` (issue 14): the local web playground (tools/serve.py)


def command_serve(args: argparse.Namespace) -> int:
    limits = serve.Limits(seconds=args.timeout, megabytes=args.memory)
    try:
        server = serve.make_server(args.host, args.port, limits, verbose=args.verbose)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    port = server.server_address[1]
    print(f"symcompile playground: http://{serve.HOST}:{port}/ (Ctrl-C stops it)\n{limits.sentence()}",
          file=sys.stderr, flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def _add_serve_command(commands: Any) -> None:
    command = _add_command(
        commands, "serve", "a local web playground: source on the left, what it compiles to "
        "on the right", "Serve a playground page on http://127.0.0.1:PORT/: type a function, "
        "see its optimized source, each pass's diff and rules, its DAG and, given example "
        "arguments, its time per call before and after. Code runs only in a separate, limited "
        "process; the server listens on 127.0.0.1 only.")
    command.add_argument("--port", type=int, default=8000, help="the port (0: any free one)")
    command.add_argument("--host", default=serve.HOST, help="127.0.0.1 or localhost; any "
                         "other host is refused, since the playground runs the code it is sent")
    command.add_argument("--timeout", type=float, default=serve.Limits.seconds, metavar="S",
                         help="seconds each compile may run (default %(default)s)")
    command.add_argument("--memory", type=int, default=serve.Limits.megabytes, metavar="MB",
                         help="megabytes each compile may use (default %(default)s)")
    command.add_argument("--verbose", action="store_true", help="log each request on stderr")
    command.set_defaults(run=command_serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="symcompile", epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="symcompile: compile numeric Python functions into optimized Python source.",
    )
    parser.add_argument("--version", action="version", version=f"symcompile {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    demo = _add_command(commands, "demo", "the textbook's fancy_func and MLP, imperative vs "
                        "compiled", "Compile the textbook's fancy_func and its MLP (a "
                        "Sequential of Dense layers, in NumPy) and show the source symcompile "
                        "generates and the time each takes, before and after.")
    demo.add_argument("--quick", action="store_true", help="time fewer calls")
    demo.set_defaults(run=command_demo)
    show = _add_command(commands, "show", "print the optimized source of a function",
                        "Print the source symcompile generates for the function TARGET names "
                        "(with --args: the version those arguments select).")
    _add_target(show, None)
    show.set_defaults(run=command_show)
    explain_command = _add_command(
        commands, "explain", "show every change the compiler makes to a function, pass by pass",
        "Explain how symcompile compiles the function TARGET names for the given arguments: "
        "the IR, each pass that changed something with its diff and rules, the generated "
        "source, and what was kept as written or left alone.")
    _add_target(explain_command, "")
    explain_command.add_argument("--html", metavar="OUT.html",
                                 help="also write a self-contained HTML report to OUT.html")
    explain_command.set_defaults(run=command_explain)
    optimize = _add_command(
        commands, "optimize", "print a whole file, optimized (its functions and top-level code)",
        "Optimize FILE without running it: its functions are compiled as @symbolic "
        "would, and calls in its top-level statements are inlined and folded where that is "
        "sound (print(fancy_func(1, 2, 3, 4)) becomes print(10)). The result goes to stdout, "
        "or to OUT. It never runs FILE.")
    optimize.add_argument("file", metavar="FILE", help="the Python file to optimize")
    optimize.add_argument("-o", "--output", metavar="OUT",
                          help="write the result to OUT (replaced atomically; OUT may be FILE "
                          "itself) instead of stdout")
    optimize.set_defaults(run=command_optimize)
    bench = _add_command(commands, "bench", "run the benchmark suite (ratios from one run)",
                         "Run the benchmarks in benchmarks/ of a source checkout and print ratios.")
    bench.add_argument("--quick", action="store_true", help="fewer repeats, for a smoke test")
    bench.set_defaults(run=command_bench)
    _add_export_command(commands)
    _add_serve_command(commands)
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
