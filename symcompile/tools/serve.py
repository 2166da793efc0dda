"""symcompile serve: a local web playground, in the manner of Compiler Explorer.

A tool on top of `explain` (the top layer). `make_server` gives a standard-library HTTP server
bound to 127.0.0.1 (any other host is refused): `GET /` is one self-contained page, the source
on the left; on the right the optimized source, each pass's diff with its rules and the DAG
before and after it (the values it changed marked, `report.step_dag`), the expression DAG, the
whole file optimized and, when example arguments are given, the time per call before
and after. `POST /compile` takes `{"source", "function", "args"}` as JSON and answers JSON.

The submitted code never runs in the server: each request starts a worker process (`worker`,
`python -c ...`) that sets its own CPU-time and address-space limits (`resource.setrlimit`)
before it imports the code, and the server kills the worker's process group when the time limit
passes. The page says so. A request must come from the page itself (JSON content type, a local
`Host`, no foreign `Origin`), so another web site cannot make the browser post code to it.
"""

from __future__ import annotations

import ast
import contextlib
import http.server
import importlib.util
import io
import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import timeit
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..runtime import api
from . import modules
from .explain import explain
from .report import STYLE, rules_text, step_dag, step_key

HOST = "127.0.0.1"
LOCAL_NAMES = ("127.0.0.1", "localhost")
MAX_REQUEST = 1 << 20  # bytes of JSON a request may hold
WORKER = "from symcompile.tools.serve import worker; worker()"
EXAMPLE = '''def add(a, b):
    return a + b


def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g


def main():
    return fancy_func(1, 2, 3, 4)
'''


@dataclass(frozen=True)
class Limits:
    """What one worker may use: wall-clock (and CPU) seconds, and megabytes of address space."""

    seconds: float = 10.0
    megabytes: int = 1024

    def sentence(self) -> str:
        return (f"Your code runs on this machine, in a separate Python process limited to "
                f"{self.seconds:g} s and {self.megabytes} MB, never in the server itself; the "
                f"server listens on {HOST} only.")


# ---- the worker: runs in its own process, reads a request on stdin, writes JSON on stdout


def worker() -> None:
    """Limit this process (`sys.argv[1:]`: seconds, megabytes), then answer the request."""
    seconds, megabytes = float(sys.argv[1]), int(sys.argv[2])
    cpu = math.ceil(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    memory = megabytes << 20
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    request = json.loads(sys.stdin.read())
    with tempfile.TemporaryDirectory(prefix="symcompile-playground-") as directory:
        os.chdir(directory)
        answer = answer_request(request, Path(directory) / "playground.py", megabytes)
    sys.stdout.write(json.dumps(answer))


def answer_request(request: dict[str, Any], path: Path, megabytes: int) -> dict[str, Any]:
    """The answer to one request, or `{"error": ...}` saying what went wrong in the user's terms."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            return {**_compiled(request, path), "printed": printed.getvalue()}
    except MemoryError:
        return {"error": f"MemoryError: the code needed more than the {megabytes} MB it may use",
                "printed": printed.getvalue()}
    except Exception as error:
        return {"error": _user_error(error, path), "printed": printed.getvalue()}


def _user_error(error: Exception, path: Path) -> str:
    """The error's last line, after the lines of the user's file the traceback went through."""
    if isinstance(error, SyntaxError):
        return f"line {error.lineno}: SyntaxError: {error.msg}"
    frames = [f"line {frame.lineno}: {frame.line}" for frame in traceback.extract_tb(error.__traceback__)
              if frame.filename == str(path)]
    return "\n".join([*frames, "".join(traceback.format_exception_only(error)).strip()])


def _compiled(request: dict[str, Any], path: Path) -> dict[str, Any]:
    source = str(request.get("source", ""))
    path.write_text(source, encoding="utf-8")
    name = str(request.get("function") or "").strip() or _last_function(source)
    module = _run_file(path)
    function = getattr(module, name, None)
    if not callable(function):
        raise NameError(f"the file defines no function named {name!r}")
    positional, keywords = _arguments(str(request.get("args") or ""), vars(module))
    try:
        explanation = explain(function, *positional, **keywords)
    except TypeError as error:
        if request.get("args"):
            raise
        raise TypeError(f"{error}: give example arguments for {name}, they select the "
                        "version compiled") from None
    return {
        "name": explanation.name,
        "optimized": explanation.final,
        "commented": explanation.commented,
        "steps": [{"name": step.name, "round": step.round, "diff": step.diff,
                   "nodes": [step.nodes_before, step.nodes_after],
                   "rules": rules_text(step),
                   "dag": step_dag(step)}
                  for step in explanation.steps],
        "dag": explanation.dag_pictures(),
        "kept": list(explanation.kept),
        "missed": list(explanation.missed),
        "module": _optimized_file(source, path),
        "timing": _timing(function, positional, keywords) if request.get("args") else None,
    }


def _last_function(source: str) -> str:
    """The name of the file's last top-level function (what the playground compiles unless
    told otherwise)."""
    defined = [node.name for node in ast.parse(source).body
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defined:
        raise NameError("the file defines no function to compile")
    return defined[-1]


def _run_file(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _arguments(text: str, names: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """`"np.ones(3), y=2"` → the positional and keyword arguments, evaluated with `np`,
    `numpy`, `math` and the file's globals (as `symcompile explain --args` does)."""
    if not text.strip():
        return (), {}

    def collect(*args: Any, **kwargs: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return args, kwargs

    namespace = {"np": np, "numpy": np, "math": math, **names, "_symcompile_collect": collect}
    result: tuple[tuple[Any, ...], dict[str, Any]] = eval(  # noqa: S307 (in the worker only)
        compile(f"_symcompile_collect({text})", "arguments", "eval"), namespace)
    return result


def _optimized_file(source: str, path: Path) -> str:
    try:
        return modules.optimize_source(source, path.name)
    except Exception as error:
        return f"# the file as a whole was not optimized: {type(error).__name__}: {error}\n"


def _per_call(function: Callable[..., Any], positional: tuple[Any, ...],
              keywords: dict[str, Any]) -> float:
    timer = timeit.Timer(lambda: function(*positional, **keywords))
    number, took = timer.autorange()  # calls enough to take 0.2 s, the first of three runs
    return min([took, *timer.repeat(2, number)]) / number


def _timing(function: Any, positional: tuple[Any, ...],
            keywords: dict[str, Any]) -> dict[str, float] | None:
    """Seconds per call of the original and of the compiled function (best of three runs)."""
    compiled = function if api.is_symbolic(function) else api.symbolic(function)
    original = getattr(compiled, "__wrapped__", function)
    compiled(*positional, **keywords)  # compiled before it is timed
    before = _per_call(original, positional, keywords)
    after = _per_call(compiled, positional, keywords)
    return {"before": before, "after": after, "speedup": before / after if after else 0.0}


# ---- the server: never runs the code itself


def run_worker(request: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """The worker's answer to `request`, or an error saying which limit stopped it."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [package_root, *filter(None, [os.environ.get("PYTHONPATH")])]),
        "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(limits.seconds), str(limits.megabytes)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env, start_new_session=True)
    try:
        out, err = process.communicate(json.dumps(request), timeout=limits.seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return {"error": f"stopped after {limits.seconds:g} s: the time limit (does the code "
                         "loop forever?)", "printed": ""}
    try:
        answer: dict[str, Any] = json.loads(out)
        return answer
    except json.JSONDecodeError:
        return {"error": _worker_death(process.returncode, err, limits), "printed": ""}


def _worker_death(code: int, err: str, limits: Limits) -> str:
    if code == -signal.SIGXCPU or code == -signal.SIGKILL:
        return f"stopped: the code used more than the {limits.seconds:g} s of CPU time it may use"
    last = err.strip().splitlines()[-1:] or ["no message"]
    return (f"the worker process ended with code {code} (its memory limit is "
            f"{limits.megabytes} MB): {last[0]}")


class Handler(http.server.BaseHTTPRequestHandler):
    """`GET /`: the page; `POST /compile`: JSON in, JSON out."""

    server: Playground

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        if self.path not in ("/", "/index.html"):
            self._send(404, "text/plain", b"not found")
        elif not self._local_host():
            self._send(403, "text/plain", b"the playground answers only to 127.0.0.1")
        else:
            self._send(200, "text/html; charset=utf-8", page(self.server.limits).encode())

    def do_POST(self) -> None:  # noqa: N802
        refusal = self._refusal()
        if refusal is not None:
            self._send(403 if self.path == "/compile" else 404, "text/plain", refusal.encode())
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_REQUEST:
            self._send(413, "text/plain", b"the request is too large")
            return
        try:
            request = json.loads(self.rfile.read(length))
        except json.JSONDecodeError:
            self._send(400, "text/plain", b"the request is not JSON")
            return
        answer = run_worker(request if isinstance(request, dict) else {}, self.server.limits)
        self._send(200, "application/json", json.dumps(answer).encode())

    def _refusal(self) -> str | None:
        """Why this POST is refused, or None: only the page itself may post code."""
        if self.path != "/compile":
            return "not found"
        if not self._local_host():
            return "the playground answers only to 127.0.0.1"
        origin = self.headers.get("Origin")
        if origin is not None and origin.partition("://")[2] != self.headers.get("Host"):
            return "the playground takes code only from its own page"
        if self.headers.get_content_type() != "application/json":
            return "send JSON (Content-Type: application/json)"
        return None

    def _local_host(self) -> bool:
        host = (self.headers.get("Host") or "").rpartition(":")[0]
        return host in LOCAL_NAMES

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        if self.server.verbose:
            super().log_message(format, *args)


class Playground(http.server.ThreadingHTTPServer):
    """The server, with the limits each worker gets."""

    daemon_threads = True

    def __init__(self, port: int, limits: Limits, verbose: bool = False) -> None:
        self.limits = limits
        self.verbose = verbose
        super().__init__((HOST, port), Handler)


def make_server(host: str = HOST, port: int = 8000, limits: Limits = Limits(),
                verbose: bool = False) -> Playground:
    """The playground on `host:port` (port 0: a free one); ValueError for a host other than
    127.0.0.1 or localhost."""
    if host not in LOCAL_NAMES:
        raise ValueError(f"the playground runs the code it is sent, so it listens on {HOST} "
                         f"only, not on {host!r}")
    return Playground(port, limits, verbose)


def page(limits: Limits) -> str:
    """The playground's page: no network beyond its own server, no library."""
    return PAGE.replace("$NOTE", limits.sentence()).replace("$REPORT_STYLE", STYLE).replace(
        "$STEP_KEY", step_key()).replace(
        "$EXAMPLE", EXAMPLE.replace("&", "&amp;").replace("<", "&lt;"))


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>symcompile playground</title>
<link rel="icon" href="data:,">
<style>
body { margin: 0; font-family: system-ui, sans-serif; color: #222; }
header { padding: .5em 1em; background: #24292f; color: #fff; }
header p { margin: .2em 0; font-size: 85%; color: #d0d7de; }
main { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); height: calc(100vh - 4.5em); }
#left { display: flex; flex-direction: column; padding: .5em; border-right: 1px solid #ddd; }
#source { flex: 1; font: 13px monospace; tab-size: 4; }
#right { overflow: auto; padding: .5em 1em; }
label { display: block; margin: .3em 0; font-size: 90%; }
input { font: 13px monospace; width: 60%; }
pre { background: #f6f8fa; padding: .6em; overflow-x: auto; font-size: 13px; margin: .3em 0; }
.add { background: #e6ffec; display: block; } .del { background: #ffebe9; display: block; }
.hunk { color: #57606a; display: block; } .rules { color: #0a3069; font-size: 90%; }
#error { color: #cf222e; white-space: pre-wrap; font-family: monospace; }
.dag-picture { overflow-x: auto; } h2 { font-size: 110%; margin: .8em 0 .2em; }
h3 { font-size: 100%; margin: .5em 0 .1em; }
$REPORT_STYLE
</style></head><body>
<header><b>symcompile playground</b><p id="note">$NOTE</p></header>
<main><div id="left">
<label>function <input id="function" placeholder="the file's last function"></label>
<label>example arguments <input id="args" placeholder="1, 2, 3, 4 (timing before/after)"></label>
<textarea id="source" spellcheck="false">$EXAMPLE</textarea>
<p><button id="compile">Compile</button> <span id="status"></span></p></div>
<div id="right"><p id="error"></p>
<h2>The optimized source</h2><pre id="optimized"></pre><p id="timing"></p>
<h2>Each pass</h2><div class="symcompile-report">$STEP_KEY<div id="passes"></div></div>
<h2>The expression DAG</h2><div id="dag"></div>
<h2>The whole file, optimized</h2><pre id="module"></pre>
<h2>What it printed</h2><pre id="printed"></pre>
<h2>Kept as written, left alone</h2><ul id="notes"></ul></div></main>
<script>
const $ = id => document.getElementById(id);
function text(tag, content, cls) {
  const node = document.createElement(tag); node.textContent = content;
  if (cls) node.className = cls; return node;
}
function diff(lines) {
  const pre = document.createElement('pre');
  for (const line of lines.split('\\n').filter(l => l)) {
    const cls = line.startsWith('@@') ? 'hunk' : line.startsWith('+++') || line.startsWith('---')
      ? '' : line[0] === '+' ? 'add' : line[0] === '-' ? 'del' : '';
    pre.appendChild(text('span', line + '\\n', cls));
  }
  return pre;
}
function seconds(s) { return s < 1e-3 ? (s * 1e6).toFixed(2) + ' µs' : (s * 1e3).toFixed(3) + ' ms'; }
function show(answer) {
  $('error').textContent = answer.error || '';
  $('printed').textContent = answer.printed || '';
  if (answer.error) return;
  $('optimized').textContent = answer.optimized;
  $('module').textContent = answer.module;
  const t = answer.timing;
  $('timing').textContent = t ? `per call: before ${seconds(t.before)}, after ${seconds(t.after)}`
    + ` (${t.speedup.toFixed(2)}x)` : 'give example arguments to time it before and after';
  const passes = $('passes'); passes.replaceChildren();
  for (const step of answer.steps) {
    const section = document.createElement('section'); section.className = 'pass';
    section.append(text('h3', `${step.name} (round ${step.round}): ${step.nodes[0]} → ${step.nodes[1]} nodes`));
    if (step.rules) section.append(text('p', 'rules: ' + step.rules, 'rules'));
    section.append(diff(step.diff));
    const pictures = document.createElement('div'); pictures.innerHTML = step.dag;
    section.append(...pictures.childNodes); passes.append(section);
  }
  if (!answer.steps.length) passes.append(text('p', 'no pass changed anything'));
  const dag = $('dag'); dag.replaceChildren();
  answer.dag.forEach(([title, svg], index) => {
    const box = document.createElement(index ? 'details' : 'div');
    if (title) box.append(text(index ? 'summary' : 'p', title));
    const picture = document.createElement('div'); picture.className = 'dag-picture';
    picture.innerHTML = svg; box.append(picture); dag.append(box);
  });
  const list = $('notes'); list.replaceChildren();
  for (const item of [...answer.kept, ...answer.missed]) list.append(text('li', item));
}
let pending = null, running = false;
async function run() {
  if (running) { pending = true; return; }
  running = true; $('status').textContent = 'compiling…';
  try {
    const response = await fetch('/compile', {method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({source: $('source').value, function: $('function').value,
                            args: $('args').value})});
    show(response.ok ? await response.json() : {error: await response.text()});
  } catch (error) { show({error: String(error)}); }
  running = false; $('status').textContent = '';
  if (pending) { pending = null; run(); }
}
let timer = null;
for (const id of ['source', 'function', 'args'])
  $(id).addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(run, 600); });
$('compile').addEventListener('click', run);
run();
</script></body></html>
"""
