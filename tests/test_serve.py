"""`symcompile serve`, the local playground (tools/serve.py), over real HTTP: a server on a free
port of 127.0.0.1 in a thread, code posted as the page posts it. What a student sees (the
textbook's program compiles to `return 10`), that the code runs in a limited worker process
and never in the server, that a hung program is stopped with a clear message, and that the
server refuses to listen anywhere but 127.0.0.1 and to take code from another site's page.
The page in a real browser: tests/test_html_report_browser.py.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from symcompile.tools import cli, serve

# subprocesses, servers or a browser: the full suite's tier (`pytest -m "not slow"` skips them)
pytestmark = pytest.mark.slow


LIMITS = serve.Limits(seconds=30, megabytes=1024)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    server = serve.make_server(port=0, limits=LIMITS)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(
        f"{url}/compile", data=body, method="POST",
        headers=headers if headers is not None else {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def compile_code(url: str, source: str, function: str = "", args: str = "") -> dict[str, Any]:
    status, body = post(url, json.dumps({"source": source, "function": function,
                                         "args": args}).encode())
    assert status == 200
    answer: dict[str, Any] = json.loads(body)
    return answer


def test_always_explainable_playground_compiles_the_textbook_program_to_return_10(url: str) -> None:
    answer = compile_code(url, serve.EXAMPLE)
    assert "error" not in answer
    assert answer["name"] == "main"
    assert answer["optimized"].rstrip().endswith("return 10")
    assert "fold_constants" in [step["name"] for step in answer["steps"]]
    inlining = next(step for step in answer["steps"] if step["name"] == "inline_calls")
    assert "inline fancy_func" in inlining["rules"] and "+" in inlining["diff"]
    assert answer["dag"][0][1].startswith("<svg") and "10" in answer["dag"][0][1]
    assert "def main():\n    return 10\n" in answer["module"]
    assert answer["timing"] is None


def test_playground_times_before_and_after_with_example_arguments(url: str) -> None:
    answer = compile_code(url, serve.EXAMPLE, "fancy_func", "1, 2, c=3, d=np.float64(4)")
    assert "error" not in answer, answer.get("error")
    timing = answer["timing"]
    assert timing["before"] > 0 and timing["after"] > 0
    assert timing["speedup"] == pytest.approx(timing["before"] / timing["after"])


def test_playground_runs_the_code_in_another_process(url: str) -> None:
    answer = compile_code(url, "import os\nprint(os.getpid())\ndef f():\n    return 1\n")
    assert "error" not in answer
    assert int(answer["printed"]) != os.getpid()


def test_playground_says_what_the_users_code_did_wrong(url: str) -> None:
    answer = compile_code(url, "def f(x):\n    return x\n\nraise ValueError('no')\n")
    assert answer["error"] == "line 4: raise ValueError('no')\nValueError: no"
    answer = compile_code(url, "def f(x):\n    return x +\n")
    assert answer["error"].startswith("line 2: SyntaxError")
    answer = compile_code(url, "def f(x):\n    return x\n", "g")
    assert answer["error"] == "NameError: the file defines no function named 'g'"
    answer = compile_code(url, "def f(x):\n    return x\n")
    assert answer["error"] == ("TypeError: missing a required argument: 'x': give example "
                               "arguments for f, they select the version compiled")


def test_playground_stops_a_hung_program_at_the_time_limit() -> None:
    limits = serve.Limits(seconds=2, megabytes=1024)
    started = time.perf_counter()
    answer = serve.run_worker({"source": "def f():\n    while True:\n        pass\n",
                               "args": " "}, limits)  # arguments: the function is timed
    elapsed = time.perf_counter() - started
    assert answer["error"] == "stopped after 2 s: the time limit (does the code loop forever?)"
    assert 2 <= elapsed < 10


def test_playground_stops_a_program_at_the_memory_limit() -> None:
    limits = serve.Limits(seconds=20, megabytes=400)
    answer = serve.run_worker({"source": "def f():\n    pass\n\nx = bytearray(600 << 20)\n"},
                              limits)
    assert answer["error"] == "MemoryError: the code needed more than the 400 MB it may use"


def test_page_says_where_code_runs_and_its_limits(url: str) -> None:
    with urllib.request.urlopen(f"{url}/", timeout=10) as response:
        page = response.read().decode()
    assert "separate Python process limited to 30 s and 1024 MB" in page
    assert "listens on 127.0.0.1 only" in page
    assert "def fancy_func(a, b, c, d):" in page
    assert "http" not in page.split("<script>")[1]  # fetches only its own server


def test_playground_refuses_code_from_another_sites_page(url: str) -> None:
    body = json.dumps({"source": "def f():\n    pass\n"}).encode()
    status, text = post(url, body, {"Content-Type": "application/json",
                                    "Origin": "http://evil.example"})
    assert (status, text) == (403, b"the playground takes code only from its own page")
    # a form post (no preflight in a browser) is refused too
    status, text = post(url, body, {"Content-Type": "text/plain"})
    assert (status, text) == (403, b"send JSON (Content-Type: application/json)")
    status, text = post(url, body, {"Content-Type": "application/json",
                                    "Host": "attacker.example:80"})
    assert status == 403


@pytest.mark.parametrize("host", ["0.0.0.0", "", "::", "192.168.1.2", "example.com"])
def test_playground_refuses_to_listen_beyond_127_0_0_1(host: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="listens on 127.0.0.1 only"):
        serve.make_server(host, 0)
    assert cli.main(["serve", "--host", host, "--port", "0"]) == 2
    assert "listens on 127.0.0.1 only" in capsys.readouterr().err
