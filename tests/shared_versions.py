"""Compiled copies of test kernels, shared by the calls that would compile the same version.

`compiled(module, name)` is a fresh `@symbolic` copy of a kernel; `compiled_for(module, name,
args)` is one copy per kinds of arguments (and compiler settings), so a test that runs a kernel
on many values of one kind (sizes, special values, seeds) compiles it once, not once per call.
A fresh copy's first call compiles the version for its argument kinds (`cache.key_for`: exact
types of numbers, classes, array kinds), so the shared copy runs the version a fresh one would
make; the key here is finer than the runtime's, so a shared copy never meets other kinds.
"""

from __future__ import annotations

import itertools
import textwrap
import types
from typing import Callable, Hashable

import numpy as np
import pytest

import symcompile as sc
from symcompile.passes import pipeline, vectorize_build
from tests.source_module import import_source

_module_numbers = itertools.count()

# the copies `compiled_for` made, by kernel, argument kinds and settings
_SHARED: dict[tuple[object, ...], Callable[..., object]] = {}


def module_of(source: str, tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    """The (dedented) source imported as a module of its own, for a module-scoped fixture whose
    kernels the tests compile through `compiled_for`."""
    path = tmp_path_factory.mktemp("kernels") / f"shared_kernels_{next(_module_numbers)}.py"
    return import_source(textwrap.dedent(source), path)


def compiled(module: types.ModuleType, name: str, **options: object) -> Callable[..., object]:
    """A fresh `@symbolic(**options)` copy of the kernel: its first call compiles the version
    for its argument types (a compiled function called with other types runs its untyped
    version)."""
    original = getattr(module, name)
    fresh = types.FunctionType(original.__code__, original.__globals__, name, original.__defaults__)
    return sc.symbolic(fresh, **options)


def argument_kinds(args: tuple[object, ...]) -> tuple[Hashable, ...]:
    """Per argument what a version is compiled for, finer than the runtime's key: its exact
    type and, for an array, its dtype (and whether it is NumPy's own), dimensions,
    C-contiguity and the first argument of the same shape."""
    kinds: list[Hashable] = []
    for arg in args:
        if isinstance(arg, np.ndarray):
            owner = next(k for k, other in enumerate(args)
                         if isinstance(other, np.ndarray) and other.shape == arg.shape)
            kinds.append((type(arg), arg.dtype.str, arg.dtype is np.dtype(arg.dtype.char),
                          arg.ndim, arg.flags.c_contiguous, owner))
        else:
            kinds.append(type(arg))
    return tuple(kinds)


def compiler_settings() -> tuple[object, ...]:
    """What else may decide what a compile makes: the module constants tests change
    (monkeypatch) and NumPy's error state (constants are folded under it)."""
    return (vectorize_build.MIN_ITERATIONS, vectorize_build.MIN_ELEMENTS_PER_TURN,
            pipeline.WEIGH_SPECIALIZATIONS, tuple(sorted(np.geterr().items())))


def compiled_for(module: types.ModuleType, name: str, args: tuple[object, ...],
                 **options: object) -> Callable[..., object]:
    """The `@symbolic(**options)` copy of the kernel shared by the calls with arguments of the
    kinds of `args` under the same settings."""
    key = (module, name, argument_kinds(args), compiler_settings(), tuple(sorted(options.items())))
    if key not in _SHARED:
        _SHARED[key] = compiled(module, name, **options)
    return _SHARED[key]
