"""tests/shared_versions.py: a shared compiled copy runs the version a fresh copy would compile
for the same arguments, and copies are shared only between calls of the same kinds under the
same settings (else the tests that use it would check another version than they say)."""

from __future__ import annotations

import types

import numpy as np
import pytest

import symcompile as sc
from symcompile.passes import vectorize_build
from tests.shared_versions import argument_kinds, compiled, compiled_for, module_of

KERNELS = '''
import numpy as np

def scale(out, x, s):
    for i in range(len(x)):
        out[i] = x[i] * s

def total(xs, start):
    t = start
    for x in xs:
        t = t + x
    return t
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    return module_of(KERNELS, tmp_path_factory)


CALLS = [
    ("scale", (np.zeros(40), np.ones(40), 2.0)),
    ("scale", (np.zeros(40, np.float32), np.ones(40, np.float32), 2.0)),
    ("scale", (np.zeros(40), np.ones(40), 2)),
    ("scale", (np.zeros(40), np.ones(80)[::2], 2.0)),
    ("total", ([1.0, 2.5], 0.0)),
    ("total", ([1, 2], 0)),
]


@pytest.mark.parametrize("name, args", CALLS)
def test_same_version_a_shared_copy_runs_what_a_fresh_copy_compiles(kernels: types.ModuleType,
                                                                   name: str, args: tuple[object, ...]) -> None:
    shared = compiled_for(kernels, name, args)
    shared(*args)
    assert sc.source(shared, *args) == sc.source(compiled(kernels, name), *args)
    assert compiled_for(kernels, name, args) is shared


def test_same_version_copies_differ_by_kinds_settings_error_state_and_options(
        kernels: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    args = (np.zeros(40), np.ones(40), 2.0)
    shared = compiled_for(kernels, "scale", args)
    assert compiled_for(kernels, "scale", (np.zeros(3), np.ones(3), -1.5)) is shared  # values only
    others = [compiled_for(kernels, "scale", (np.zeros(40), np.ones(41), 2.0)),  # shapes differ
              compiled_for(kernels, "scale", (np.zeros(40), np.ones(40), np.float64(2.0))),
              compiled_for(kernels, "scale", args, fastmath=True)]
    with np.errstate(all="raise"):
        others.append(compiled_for(kernels, "scale", args))
    monkeypatch.setattr(vectorize_build, "MIN_ITERATIONS", 1)
    others.append(compiled_for(kernels, "scale", args))
    assert len({id(shared), *map(id, others)}) == 1 + len(others)


def test_argument_kinds_tell_apart_what_the_runtime_compiles_for() -> None:
    a = np.zeros((4, 4))
    kinds = {argument_kinds(args) for args in [
        (a,), (a.T,), (a.astype(np.float32),), (a[0],), (a, a), (a, a[::-1]), (a, np.zeros((4, 5))),
        (1,), (1.0,), (True,), (np.float64(1.0),), ([1.0],)]}
    assert len(kinds) == 12
    assert argument_kinds((np.zeros(3), 0.5)) == argument_kinds((np.ones(9), -2.0))
