"""The disk cache (`@symbolic(cache=True)`, runtime/disk_cache): a version compiled in one
process is read back in the next with the same results, never when an inlined callee or a
global it relied on changed (numba issues 1833 and 9316: its cache served stale code after an
inlined callee's file changed); damaged entries warn and are rebuilt; the directory is the
user's own (0700); two processes writing at once leave a whole entry; what cannot be kept says
why."""

from __future__ import annotations

import json
import pickle
import os
import stat
import struct
import subprocess
import sys
import textwrap
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime import disk_cache
from symcompile.runtime.disk_cache import DiskCacheWarning

# subprocesses, servers or a browser: the full suite's tier (`pytest -m "not slow"` skips them)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

HELPERS = """
import math

def scaled(x):
    return math.sqrt(x) * 2.0 + 1.0
"""

KERNELS = """
import math
import numpy as np
import symcompile as sc
from helpers import scaled

OFFSET = 0.1
COUNT = 3
WEIGHTS = np.array([0.5, 0.25, 0.125])

def bump(x):
    return x * 3.0 + 1.0

@sc.symbolic(cache=True)
def poly(x, y):
    return bump(x) * y + scaled(y) + OFFSET

@sc.symbolic(cache=True)
def mix(a):
    s = 0.0
    for i in range(COUNT):
        s += a * WEIGHTS[i]
    return s + np.sum(a)

@sc.symbolic(cache=True, static_argnames=("n",))
def power(x, n):
    return bump(x) ** n

@sc.symbolic(cache=True, static_argnames=("s",))
def shifted(x, s):
    return x * s + 1e300 * s
"""

RUN = """
import json, warnings
import numpy as np
import symcompile as sc
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import kernels
    results = [kernels.poly(1.5, 2.25).hex(), kernels.mix(np.linspace(0.1, 1.7, 5)).tobytes().hex(),
               kernels.power(0.3, 5).hex(), kernels.shifted(1.0, 2.5).hex(),
               kernels.shifted(1.0, float("2.5")).hex()]
events = [sc.cache_info(f).disk for f in (kernels.poly, kernels.mix, kernels.power,
                                          kernels.shifted)]
print(json.dumps({"results": results, "events": events,
                  "warnings": [type(w.message).__name__ for w in caught]}))
"""


def run(directory: Path, script: str = RUN) -> dict:
    """`script` in a new Python reaching symcompile and `directory`, caching in
    `directory/cache`; its JSON output."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (ROOT, directory))),
           disk_cache.ENV_DIR: str(directory / "cache")}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True,
                          env=env, timeout=300, cwd=directory)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout.decode().splitlines()[-1])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "kernels.py").write_text(KERNELS)
    return tmp_path


def expected(directory: Path) -> list[str]:
    """The results of the functions as written (no symcompile)."""
    script = RUN.replace("import json, warnings", "import json, warnings, os\n"
                         "os.environ['SYMCOMPILE_DISABLE'] = '1'")
    return run(directory, script)["results"]


def test_never_a_wrong_answer_a_new_process_reads_the_version_with_identical_results(project):
    first = run(project)
    assert first["events"] == [["disk miss: first use"]] * 4
    second = run(project)
    assert all(len(events) == 1 and events[0].startswith("disk hit: ")
               for events in second["events"]), second
    assert second["results"] == first["results"] == expected(project)
    assert second["warnings"] == first["warnings"] == []


def test_never_a_wrong_answer_an_edited_inlined_callee_is_compiled_again(project):
    """numba's stale-callee bug: only the callee's file changes, the caller's text does not."""
    run(project)
    kernels = project / "kernels.py"
    kernels.write_text(kernels.read_text().replace("x * 3.0 + 1.0", "x * 4.0 - 1.0"))
    edited = run(project)
    assert edited["events"][0] == ["disk miss: callee kernels.bump changed"]
    assert edited["events"][2] == ["disk miss: callee kernels.bump changed"]
    assert edited["events"][1][0].startswith("disk hit: ")  # mix does not call bump
    assert edited["results"] == expected(project)
    (project / "helpers.py").write_text(HELPERS.replace("* 2.0", "* 2.5"))
    foreign = run(project)
    assert foreign["events"][0] == ["disk miss: callee helpers.scaled changed"]
    assert foreign["results"] == expected(project)
    assert all(events[0].startswith("disk hit: ") for events in run(project)["events"])


def test_never_a_wrong_answer_a_changed_global_is_compiled_again(project):
    run(project)
    kernels = project / "kernels.py"
    kernels.write_text(kernels.read_text().replace("[0.5, 0.25, 0.125]", "[0.5, 0.25, 0.5]")
                       .replace("OFFSET = 0.1", "OFFSET = 0.2").replace("COUNT = 3", "COUNT = 2"))
    again = run(project)
    assert again["events"][1] == ["disk miss: global COUNT changed"]  # range(COUNT) unrolled
    assert again["results"] == expected(project)


def _entries(directory: Path) -> list[Path]:
    return sorted((directory / "cache").glob("*.npz"))


def _foreign(path: Path) -> None:
    """Rewrite an entry's header as another NumPy's."""
    with np.load(path, allow_pickle=False) as entry:
        arrays = {name: entry[name] for name in entry.files}
    meta = json.loads(str(arrays["meta"][()]))
    meta["versions"]["numpy"] = "0.0.1"
    arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as file:
        np.savez(file, **arrays)


DAMAGES = {
    "truncated": lambda path: path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2]),
    "empty": lambda path: path.write_bytes(b""),
    "garbage": lambda path: path.write_bytes(os.urandom(300)),
    "flipped": lambda path: path.write_bytes(bytes(b ^ 0x5A if i % 7 == 3 else b
                                                   for i, b in enumerate(path.read_bytes()))),
    "not json": lambda path: np.savez(path, meta=np.array("{not json")),
    "foreign version": _foreign,
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_never_a_wrong_answer_a_damaged_entry_warns_and_is_rebuilt(make_modules, tmp_path,
                                                                    monkeypatch, damage):
    monkeypatch.setenv(disk_cache.ENV_DIR, str(tmp_path / "cache"))
    modules = make_modules(helpers=HELPERS, kernels=KERNELS)
    kernels = modules["kernels"]
    want = kernels.poly.original(1.5, 2.25)
    assert kernels.poly(1.5, 2.25) == want
    (entry,) = [path for path in _entries(tmp_path) if path.name.startswith("poly-")]
    DAMAGES[damage](entry)
    again = sc.symbolic(cache=True)(kernels.poly.original)
    foreign = damage == "foreign version"
    with pytest.warns(DiskCacheWarning, match="another version" if foreign else "ignored the entry"):
        assert again(1.5, 2.25).hex() == want.hex()
    (event,) = sc.cache_info(again).disk
    assert event == (f"disk miss: the entry was written by another version (numpy 0.0.1 → "
                     f"{np.__version__}): replaced" if foreign
                     else "disk miss: the entry was damaged (ignored)")
    rebuilt = sc.symbolic(cache=True)(kernels.poly.original)
    assert rebuilt(1.5, 2.25).hex() == want.hex()
    assert sc.cache_info(rebuilt).disk[0].startswith("disk hit: ")


def test_the_cache_directory_is_the_users_own(make_modules, tmp_path, monkeypatch):
    directory = tmp_path / "deep" / "cache"
    monkeypatch.setenv(disk_cache.ENV_DIR, str(directory))
    old = os.umask(0o000)
    try:
        kernels = make_modules(helpers=HELPERS, kernels=KERNELS)["kernels"]
        kernels.poly(1.0, 2.0)
    finally:
        os.umask(old)
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    for entry in directory.iterdir():
        assert stat.S_IMODE(entry.stat().st_mode) & 0o077 == 0
    directory.chmod(0o777)  # others could plant code: not used
    again = sc.symbolic(cache=True)(kernels.poly.original)
    with pytest.warns(DiskCacheWarning, match="not the user's own"):
        assert again(1.0, 2.0) == kernels.poly.original(1.0, 2.0)
    assert sc.cache_info(again).disk == ("disk miss: directory not usable",)


def test_default_directory_is_the_platform_cache(monkeypatch, tmp_path):
    monkeypatch.delenv(disk_cache.ENV_DIR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert disk_cache.default_directory() == tmp_path / "symcompile"


CONCURRENT = """
import json, sys, time
start = float(sys.argv[1])
while time.time() < start:
    time.sleep(0.001)
import numpy as np
import kernels
print(json.dumps({"results": [kernels.poly(1.5, 2.25).hex()], "events": [], "warnings": []}))
"""


def test_two_processes_writing_the_same_entry_lose_nothing(project):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (ROOT, project))),
           disk_cache.ENV_DIR: str(project / "cache")}
    import time
    start = str(time.time() + 3.0)
    writers = [subprocess.Popen([sys.executable, "-c", CONCURRENT, start], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=project)
               for _ in range(2)]
    outputs = [writer.communicate(timeout=300) for writer in writers]
    assert all(writer.returncode == 0 for writer in writers), [err for _, err in outputs]
    results = {json.loads(out)["results"][0] for out, _ in outputs}
    assert results == {expected(project)[0]}
    assert not list((project / "cache").glob("*.tmp"))  # no temporary left behind
    for entry in _entries(project):
        with zipfile.ZipFile(entry) as archive:
            assert archive.testzip() is None
    assert run(project)["events"][0][0].startswith("disk hit: ")


def test_always_explainable_what_cannot_be_kept_says_why(make_modules, tmp_path, monkeypatch):
    monkeypatch.setenv(disk_cache.ENV_DIR, str(tmp_path / "cache"))
    local = make_modules(holder="""
        import symcompile as sc

        def make():
            def helper(x):
                return x + 1.0
            class Box:
                pass
            box = Box()

            @sc.symbolic(cache=True, static_argnames=("b",))
            def uses(x, b):
                return helper(x) + (b is box)
            return uses, box
        """)["holder"]
    uses, box = local.make()
    assert uses(1.0, box) == 3.0
    (event,) = sc.cache_info(uses).disk
    assert event.startswith("disk miss: not cacheable: static argument b holds <")
    assert "cannot find again by module and name" in event
    assert not _entries(tmp_path)


def test_a_static_argument_selects_its_own_entry(make_modules, tmp_path, monkeypatch):
    monkeypatch.setenv(disk_cache.ENV_DIR, str(tmp_path / "cache"))
    kernels = make_modules(helpers=HELPERS, kernels=KERNELS)["kernels"]
    with warnings.catch_warnings():
        assert kernels.power(0.3, 5) == kernels.power.original(0.3, 5)
        assert kernels.power(0.3, 2) == kernels.power.original(0.3, 2)
    assert len([path for path in _entries(tmp_path) if path.name.startswith("power-")]) == 2
    again = sc.symbolic(cache=True, static_argnames=("n",))(kernels.power.original)
    assert again(0.3, 2).hex() == kernels.power.original(0.3, 2).hex()
    assert sc.cache_info(again).disk[0].startswith("disk hit: ")


def test_never_a_wrong_answer_a_global_array_relied_on_is_found_again_and_checked(make_modules):
    holder = make_modules(holder="""
        import numpy as np
        TABLE = np.array([1.0, 2.0, 3.0])
        """)["holder"]
    encoder = disk_cache.Encoder(vars(holder), {})
    recipe = encoder.encode(holder.TABLE, "TABLE")
    assert recipe["k"] == "global_array" and recipe["module"] == "holder"
    copied = encoder.encode(np.array([4.0, 5.0]), "a copy")
    assert copied["k"] == "array"
    decoder = disk_cache.Decoder(encoder.arrays, {})
    assert decoder.decode(recipe) is holder.TABLE  # the very array, not a copy
    assert decoder.decode(copied).tolist() == [4.0, 5.0]
    holder.TABLE[1] = -0.0
    with pytest.raises(disk_cache.Stale, match="global array holder.TABLE changed"):
        disk_cache.Decoder(encoder.arrays, {}).decode(recipe)


def test_a_compiled_object_is_not_kept_and_says_why(make_modules, tmp_path, monkeypatch):
    monkeypatch.setenv(disk_cache.ENV_DIR, str(tmp_path / "cache"))
    layers = make_modules(layers="""
        class Scale:
            def __init__(self, k):
                self.k = k

            def __call__(self, x):
                return x * self.k
        """)["layers"]
    compiled = sc.symbolic(cache=True)(layers.Scale(2.0))
    assert compiled(1.5) == 3.0
    (event,) = sc.cache_info(compiled).disk
    assert event == "disk miss: not cacheable: a compiled object (its weights live in the process)"


DECORATED = """
import symcompile as sc

@sc.symbolic
def half(x):
    return x * 0.5

@sc.symbolic(cache=True)
def uses_half(x):
    return half(x) + 1.0
"""

RUN_DECORATED = """
import json
import pickle
import symcompile as sc
import decorated

print(json.dumps({"result": decorated.uses_half(3.0), "disk": sc.cache_info(decorated.uses_half).disk}))
"""


def test_never_a_wrong_answer_an_edited_symbolic_callee_is_compiled_again(tmp_path):
    (tmp_path / "decorated.py").write_text(DECORATED)
    assert run(tmp_path, RUN_DECORATED) == {"result": 2.5, "disk": ["disk miss: first use"]}
    assert run(tmp_path, RUN_DECORATED)["disk"][0].startswith("disk hit: ")
    (tmp_path / "decorated.py").write_text(DECORATED.replace("x * 0.5", "x * 0.25"))
    assert run(tmp_path, RUN_DECORATED) == {
        "result": 1.75, "disk": ["disk miss: callee decorated.half changed"]}


def test_always_explainable_a_version_read_from_disk_is_explained_as_compiled(
        make_modules, tmp_path, monkeypatch):
    from symcompile.runtime import api
    from symcompile.tools import explain

    monkeypatch.setenv(disk_cache.ENV_DIR, str(tmp_path / "cache"))
    kernels = make_modules(helpers=HELPERS, kernels=KERNELS)["kernels"]
    compiled = api.version_for(kernels.poly, 1.5, 2.25)
    again = sc.symbolic(cache=True)(kernels.poly.original)
    assert again(1.5, 2.25) == kernels.poly(1.5, 2.25)
    assert sc.cache_info(again).disk[0].startswith("disk hit: ")
    assert sc.source(again, 1.5, 2.25) == compiled.source
    shown = api.version_for(again, 1.5, 2.25)  # compiled again: IR and pass log
    assert shown.from_disk is None and shown.ir is not None and shown.log
    assert shown.source == compiled.source
    assert "inline bump" in str(explain.explain(again, 1.5, 2.25))


NAN_WITH_PAYLOAD = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000123))[0]


@pytest.mark.parametrize("value", [
    10**5000, -3, True, 0.0, -0.0, NAN_WITH_PAYLOAD, complex(-0.0, float("inf")), b"\x00\xff",
    "ünï", (1, (2.5, None)), Ellipsis, np.float32(1.5), np.int8(-7)],
    ids=lambda value: type(value).__name__)
def test_never_a_wrong_answer_values_are_stored_exactly(value):
    encoder = disk_cache.Encoder({}, {})
    recipe = json.loads(json.dumps(encoder.encode(value, "value")))  # as stored
    back = disk_cache.Decoder(encoder.arrays, {}).decode(recipe)
    assert type(back) is type(value)
    assert pickle.dumps(back) == pickle.dumps(value)  # every bit, NaN payloads too


def test_never_a_wrong_answer_a_fuzz_of_damaged_entries(make_modules, tmp_path, monkeypatch):
    """Random byte flips and cuts: each read either warns and compiles again or (a flip the
    format ignores) hits; the result is always the original's, bit for bit."""
    monkeypatch.setenv(disk_cache.ENV_DIR, str(tmp_path / "cache"))
    kernels = make_modules(helpers=HELPERS, kernels=KERNELS)["kernels"]
    args = (np.linspace(0.1, 1.7, 5),)
    want = kernels.mix.original(*args).tobytes()
    assert kernels.mix(*args).tobytes() == want
    (entry,) = [path for path in _entries(tmp_path) if path.name.startswith("mix-")]
    good = entry.read_bytes()
    generator = np.random.default_rng(13)
    outcomes = set()
    for _ in range(40):
        damaged = bytearray(good)
        if generator.random() < 0.25:
            damaged = damaged[:int(generator.integers(0, len(good)))]
        else:
            for position in generator.integers(0, len(good), int(generator.integers(1, 4))):
                damaged[position] ^= int(generator.integers(1, 256))
        entry.write_bytes(bytes(damaged))
        again = sc.symbolic(cache=True)(kernels.mix.original)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert again(*args).tobytes() == want
        (event,) = sc.cache_info(again).disk
        warned = [w for w in caught if issubclass(w.category, DiskCacheWarning)]
        assert len(caught) == len(warned)
        assert bool(warned) == (event == "disk miss: the entry was damaged (ignored)"), event
        outcomes.add("hit" if event.startswith("disk hit") else "rebuilt")
        entry.write_bytes(good)
    assert "rebuilt" in outcomes
