"""The textbook's second experiment in NumPy: a multilayer perceptron as a student writes it.

A `Sequential` of `Dense` layers (512 inputs, 256 and 128 hidden units with ReLU, 2 outputs),
float32, like the chapter's `HybridSequential` of `nn.Dense`; `symcompile.symbolic(net)` plays
the part of `net.hybridize()`.
"""

from __future__ import annotations

import time

import numpy as np


def relu(x):
    return np.maximum(x, 0)


class Dense:
    """A fully connected layer: `activation(x @ W + b)`."""

    def __init__(self, n_in, n_out, activation=None, seed=0):
        rng = np.random.default_rng(seed)
        self.W = (rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)).astype(np.float32)
        self.b = np.zeros(n_out, dtype=np.float32)
        self.activation = activation

    def __call__(self, x):
        y = x @ self.W + self.b
        if self.activation is not None:
            y = self.activation(y)
        return y


class Sequential:
    """Layers applied one after another."""

    def __init__(self, *layers):
        self.layers = list(layers)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def get_net():
    return Sequential(Dense(512, 256, relu, seed=1), Dense(256, 128, relu, seed=2),
                      Dense(128, 2, seed=3))


def benchmark(net, x, calls=1000):
    """Seconds for `calls` calls of `net(x)` (best of three), as the chapter measures."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(calls):
            net(x)
        best = min(best, time.perf_counter() - start)
    return best * 1000 / calls
