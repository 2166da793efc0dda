"""Export (issue 13 item 3): `symcompile.export(f, path, *example_args)` writes the version the
arguments select as a module that imports only NumPy and the standard library. Each exported
module is run in a new Python whose `sys.path` cannot reach symcompile, and its results are
compared with the compiled function's by bits."""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import symcompile as sc
from symcompile.examples import mlp
from symcompile.tools import cli

SITE_PACKAGES = Path(np.__file__).resolve().parent.parent

KERNELS = """
    import math
    import numpy as np
    import symcompile as sc

    SCALE = 2.0
    W = np.arange(6.0).reshape(2, 3)


    def add(a, b):
        return a + b


    @sc.symbolic
    def fancy(a, b, c, d):
        return add(add(a, b), add(c, d)) * SCALE + math.log1p(a)


    @sc.symbolic
    def lin(x, shift=np.float32(0.5)):
        return np.sqrt(x @ W + 1.0) + shift


    @sc.symbolic(static_argnames=("n",))
    def power(x, n):
        result = 1.0
        for _ in range(n):
            result = result * x
        return result


    class Opaque:
        pass


    THING = Opaque()


    def helper(x):
        return x


    @sc.symbolic
    def keeps_an_object(x):
        return THING if x else None
"""


def run_isolated(directory: Path, script: str) -> Any:
    """Run `script` in a Python that reaches only the standard library, NumPy and `directory`
    (not symcompile: checked), and return what it pickled to stdout."""
    prelude = f"""
        import sys
        sys.path[:0] = [{str(directory)!r}, {str(SITE_PACKAGES)!r}]
        import importlib.util
        assert importlib.util.find_spec("symcompile") is None, "symcompile is reachable"
    """
    done = subprocess.run(
        [sys.executable, "-S", "-I", "-c", textwrap.dedent(prelude) + textwrap.dedent(script)],
        capture_output=True, timeout=120, cwd=directory)
    assert done.returncode == 0, done.stderr.decode()
    return pickle.loads(done.stdout)


def bits(value: object) -> bytes:
    return pickle.dumps(np.asarray(value))


@pytest.fixture
def kernels(make_modules: Any) -> Any:
    return make_modules(kernels=KERNELS)["kernels"]


def test_an_exported_function_runs_without_symcompile_and_gives_the_same_bits(kernels, tmp_path):
    out = tmp_path / "shipped"
    out.mkdir()
    sc.export(kernels.fancy, out / "fancy_module.py", 1.5, 2.0, 3.0, 4.0)
    x = np.linspace(0.0, 1.0, 8).reshape(4, 2)
    sc.export(kernels.lin, out / "lin_module.py", x)
    assert (out / "lin_module.npz").exists() and not (out / "fancy_module.npz").exists()
    text = (out / "lin_module.py").read_text()
    assert "symcompile" not in text.split('"""')[2]  # (only the header names it)
    assert "allow_pickle=False" in text
    results = run_isolated(out, """
        import pickle, numpy as np
        import fancy_module, lin_module
        x = np.linspace(0.0, 1.0, 8).reshape(4, 2)
        result = (fancy_module.fancy(1.5, 2.0, 3.0, 4.0), lin_module.lin(x),
                  lin_module.lin(x, np.float32(2.0)))
        assert "symcompile" not in sys.modules
        sys.stdout.buffer.write(pickle.dumps(result))
    """)
    assert results[0] == kernels.fancy(1.5, 2.0, 3.0, 4.0)
    assert bits(results[1]) == bits(kernels.lin(x))
    assert bits(results[2]) == bits(kernels.lin(x, np.float32(2.0)))


def test_the_header_says_what_it_was_specialized_on_and_froze(kernels, tmp_path):
    sc.export(kernels.power, tmp_path / "power_module.py", 2.0, 3)
    header = (tmp_path / "power_module.py").read_text().split('"""')[1]
    assert "n is 3" in header and "type(x) is float" in header
    sc.export(kernels.fancy, tmp_path / "fancy_module.py", 1.5, 2.0, 3.0, 4.0)
    header = (tmp_path / "fancy_module.py").read_text().split('"""')[1]
    assert "global add: kernels.add" in header and "global SCALE: 2.0" in header


def test_a_call_outside_the_entry_conditions_raises_a_clear_error(kernels, tmp_path):
    sc.export(kernels.power, tmp_path / "power_module.py", 2.0, 3)
    results = run_isolated(tmp_path, """
        import pickle
        import power_module
        outcomes = [power_module.power(2.0, 3), power_module.power(1.5, n=3)]
        for args in [(2, 3), (2.0, 4), (2.0, 3.0)]:
            try:
                power_module.power(*args)
            except (TypeError, ValueError) as error:
                outcomes.append(f"{type(error).__name__}: {error}")
        sys.stdout.buffer.write(pickle.dumps(outcomes))
    """)
    assert results[:2] == [8.0, 1.5 ** 3]
    assert results[2].startswith("TypeError: power() was exported for arguments where "
                                 "type(x) is float; got int, int")
    assert results[3].startswith("ValueError: power() was exported for n = 3; got 4")
    assert results[4].startswith("ValueError: power() was exported for n = 3; got 3.0")


def test_a_compiled_object_exports_with_its_weights(tmp_path):
    net = mlp.get_net()
    compiled = sc.symbolic(net)
    x = np.random.default_rng(2).standard_normal((5, 512)).astype(np.float32)
    sc.export(compiled, tmp_path / "net_module.py", x)
    weights = np.load(tmp_path / "net_module.npz", allow_pickle=False)
    assert bits(weights["W"]) == bits(net.layers[0].W)
    results = run_isolated(tmp_path, """
        import pickle, numpy as np
        import net_module
        x = np.random.default_rng(2).standard_normal((5, 512)).astype(np.float32)
        outcomes = [net_module.sequential(x)]
        try:
            net_module.sequential(x.astype(np.float64))
        except TypeError as error:
            outcomes.append(str(error))
        sys.stdout.buffer.write(pickle.dumps(outcomes))
    """)
    assert bits(results[0]) == bits(compiled(x)) == bits(net(x))
    assert "exported for arguments where type(x) is ndarray[float32, 2-d]" in results[1]


def test_what_cannot_leave_the_process_is_refused_with_the_name_holding_it(kernels, tmp_path):
    with pytest.raises(sc.SymbolicError, match="`THING` holds .*kernels.Opaque"):
        sc.export(kernels.keeps_an_object, tmp_path / "object_module.py", 1)
    assert not (tmp_path / "object_module.py").exists()


def test_the_export_command_writes_the_module(kernels, tmp_path, capsys):
    out = tmp_path / "cli_power.py"
    status = cli.main(["export", f"{kernels.__file__}::power", "--args", "2.0, 3", "-o", str(out)])
    assert status == 0, capsys.readouterr().err
    results = run_isolated(tmp_path, """
        import pickle
        import cli_power
        sys.stdout.buffer.write(pickle.dumps(cli_power.power(2.0, 3)))
    """)
    assert results == 8.0
    assert str(out) in capsys.readouterr().out


def test_the_export_command_says_why_it_cannot(kernels, tmp_path, capsys):
    out = tmp_path / "cli_object.py"
    status = cli.main(["export", f"{kernels.__file__}::keeps_an_object", "--args", "1",
                       "-o", str(out)])
    assert status == 1 and "cannot export" in capsys.readouterr().err
    assert not out.exists()


def test_nan_payloads_and_signed_zeros_are_written_by_bits(make_modules, tmp_path):
    made = make_modules(payloads="""
        import struct
        import symcompile as sc
        ODD_NAN = struct.unpack("<d", bytes.fromhex("0100000000f8ffff"))[0]
        MINUS_ZERO = -0.0

        @sc.symbolic
        def constants(x):
            return (x, ODD_NAN, MINUS_ZERO)
    """)["payloads"]
    sc.export(made.constants, tmp_path / "payloads_module.py", 1.0)
    results = run_isolated(tmp_path, """
        import pickle, struct
        import payloads_module
        sys.stdout.buffer.write(pickle.dumps([struct.pack("<d", v)
                                              for v in payloads_module.constants(1.0)]))
    """)
    assert results == [struct.pack("<d", v) for v in made.constants(1.0)]
    assert os.path.getsize(tmp_path / "payloads_module.py") > 0
