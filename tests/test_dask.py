"""Compiled code on a dask cluster (issue 13 item 5): `@symbolic` functions and a compiled MLP
sent to process workers through `client.map`, `client.submit` and `dask.array.map_blocks`
arrive compiled (pickled by reference, compiled again there: runtime/pickling.py) and give the
local run's results bit for bit; docs/cluster.md's code runs.

One `LocalCluster` of two single-threaded process workers serves the module (starting one
takes seconds), shut down when the module ends, passed or not.
"""

from __future__ import annotations

import logging
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pytest

import symcompile as sc
from symcompile.examples import mlp
from symcompile.runtime.oracle import explain_difference
from tests.source_module import import_source
from tests.test_docs import code_blocks, run_page

pytestmark = pytest.mark.slow  # it starts a scheduler and two worker processes

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "cluster.md"
RUN_ON_A_CLUSTER = "<!-- run on a dask cluster -->"
MODULE_FILE = "<!-- kernels.py -->"
# dask starts its workers with OMP/MKL/OPENBLAS_NUM_THREADS=1 (`pre-spawn-environ`), and
# OpenBLAS rounds a float32 matrix product differently on one thread than on two, compiled or
# not (the MLP's first layer, 64 rows): the workers keep this process's settings instead.
SAME_BLAS_THREADS = {"MALLOC_TRIM_THRESHOLD_": 65536}

KERNELS = """
    import numpy as np
    import symcompile as sc


    def add(a, b):
        return a + b


    @sc.symbolic
    def fancy(a, b, c, d):
        return add(add(a, b), add(c, d))


    @sc.symbolic
    def horner(x):
        y = np.empty_like(x)
        for i in range(x.shape[0]):
            y[i] = (3.0 * x[i] + 2.0) * x[i] + 1.0
        return y


    @sc.symbolic
    def scaled_sum(x, scale):
        total = 0.0
        for value in x:
            total += scale * value
        return total
"""


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real module of `@symbolic` functions, importable here (and by its directory on the
    workers: see `client`)."""
    path = tmp_path_factory.mktemp("dask_kernels") / "dask_kernels.py"
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(path.parent))
        yield import_source(textwrap.dedent(KERNELS), path)
        patch.delitem(sys.modules, "dask_kernels")


@pytest.fixture(scope="module")
def client(kernels: Any) -> Iterator[Any]:
    """A client of a new local cluster: two process workers of one thread each, no dashboard,
    quiet logs, BLAS threads as here; the workers can import `kernels`. (dask is imported
    here, not at collection: the quick tier leaves this module out and need not pay for it.)"""
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("dask.distributed")
    with dask.config.set({"distributed.nanny.pre-spawn-environ": SAME_BLAS_THREADS}):
        # (the scheduler's HTTP server always starts: on a free port, else dask warns when
        # 8787 is taken)
        cluster = distributed.LocalCluster(
            processes=True, n_workers=2, threads_per_worker=1, silence_logs=logging.ERROR,
            dashboard_address="127.0.0.1:0", scheduler_kwargs={"dashboard": False})
    with cluster, distributed.Client(cluster) as connected:
        connected.run(sys.path.insert, 0, str(Path(kernels.__file__).parent))
        yield connected


def assert_same(remote: object, local: object) -> None:
    """Same type, and the same value bit for bit (arrays: dtype, shape and bytes)."""
    assert type(remote) is type(local)
    assert explain_difference(remote, local) is None
    if isinstance(local, np.ndarray):
        assert isinstance(remote, np.ndarray) and remote.dtype == local.dtype
        assert remote.tobytes() == local.tobytes()


def compiled_here(function: Callable[..., Any], *args: Any) -> tuple[bool, bool, str]:
    """Run on a worker: whether `function` is a `@symbolic` one, and after a call whether its
    `.source` is a `str` (generated code installed: a plain function has none), and that code."""
    function(*args)
    return sc.is_symbolic(function), isinstance(function.source, str), function.source


def test_compiled_functions_run_on_the_workers_with_the_local_bits(client, kernels):
    rng = np.random.default_rng(0)
    chunks = [rng.standard_normal(n) for n in (1, 7, 500, 1000)]
    assert_same(client.gather(client.map(kernels.horner, chunks)),
                [kernels.horner(chunk) for chunk in chunks])
    assert_same(client.submit(kernels.fancy, 1.5, 2, 3, 4).result(),
                kernels.fancy(1.5, 2, 3, 4))
    assert_same(client.submit(kernels.fancy, np.float32(0.1), 2, 3, 4).result(),
                kernels.fancy(np.float32(0.1), 2, 3, 4))
    assert_same(client.submit(kernels.scaled_sum, chunks[2], 0.1).result(),
                kernels.scaled_sum(chunks[2], 0.1))
    assert_same(client.submit(kernels.scaled_sum, chunks[2], 0.1).result(),
                kernels.scaled_sum.original(chunks[2], 0.1))


def test_the_function_arriving_on_every_worker_is_compiled(client, kernels):
    arrived = client.run(compiled_here, kernels.fancy, 1.5, 2, 3, 4)
    assert len(arrived) == 2
    for is_symbolic, source_is_text, source in arrived.values():
        assert is_symbolic and source_is_text
        assert "a + b" in source  # `add` inlined: the compiled version ran
        assert source == sc.source(kernels.fancy, 1.5, 2, 3, 4)


def test_a_compiled_mlp_runs_through_submit_with_the_local_bits(client):
    net = sc.symbolic(mlp.get_net())
    x = np.random.default_rng(1).standard_normal((64, 512)).astype(np.float32)
    assert_same(client.submit(net, x).result(), net(x))
    assert_same(client.submit(net, x[:1]).result(), net(x[:1]))


def flattened_here(net: Any) -> tuple[bool, bool, str]:
    """Run on a worker: `compiled_here` for the MLP, on an input made there (an array that
    arrives by pickle runs the version for any types: the xfail in test_pickling.py)."""
    return compiled_here(net, np.ones((4, 512), np.float32))


def test_the_mlp_arriving_on_a_worker_is_compiled(client):
    is_symbolic, source_is_text, source = client.submit(flattened_here,
                                                        sc.symbolic(mlp.get_net())).result()
    assert is_symbolic and source_is_text
    assert "for layer in" not in source  # flattened: compiled, not as written


def test_a_compiled_mlp_runs_through_map_blocks_with_the_local_bits(client):
    net = sc.symbolic(mlp.get_net())
    x = np.random.default_rng(2).standard_normal((1000, 512)).astype(np.float32)
    da = pytest.importorskip("dask.array")
    chunked = da.from_array(x, chunks=(250, 512))
    result = chunked.map_blocks(net, chunks=(250, 2), meta=np.empty((0, 2), np.float32))
    local = np.concatenate([net(x[start:start + 250]) for start in range(0, 1000, 250)])
    assert_same(result.compute(), local)


def test_a_compiled_mlp_held_by_a_lambda_goes_through_cloudpickle(client):
    """dask sends a lambda with cloudpickle, which stored the compiled MLP's bound method by
    value (refused: 'cannot pickle the compiled state') until runtime/pickling.py registered
    its reduction with cloudpickle too."""
    net = sc.symbolic(mlp.get_net())
    x = np.random.default_rng(3).standard_normal((8, 512)).astype(np.float32)
    assert_same(client.submit(lambda v: net(v), x).result(), net(x))


def test_what_cannot_be_sent_says_why(client):
    @sc.symbolic
    def inner(x):
        return x + 1

    class Local:
        def __call__(self, x):
            return x + 1

    with pytest.raises(TypeError, match="Could not serialize") as raised:
        client.submit(inner, 1.0).result()
    cause = raised.value.__cause__
    assert "test_what_cannot_be_sent_says_why.<locals>.inner" in str(cause)
    assert "defined inside a function" in str(cause)
    with pytest.raises(TypeError, match="Could not serialize") as raised:
        client.submit(sc.symbolic(Local()), 1.0).result()
    assert "so cloudpickle sends it by value, with its code but not its source" in str(
        raised.value.__cause__)


def test_the_cluster_page_runs_on_the_cluster(client, tmp_path, monkeypatch):
    """docs/cluster.md: its module written where the page says, its cluster code run with this
    module's client, printing what the page shows."""
    [module] = [block for block in code_blocks(PAGE) if block.marker == MODULE_FILE]
    (tmp_path / "kernels.py").write_text(module.text + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        results = run_page(PAGE, {"__name__": "__main__", "client": client},
                           marker=RUN_ON_A_CLUSTER)
    finally:
        sys.modules.pop("kernels", None)
    assert len(results) >= 2
    for block, expected, actual in results:
        assert actual == expected, f"docs/cluster.md line {block.line} printed\n{actual}"
