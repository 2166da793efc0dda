"""Stale globals: what the compiler read from globals is checked on entry, and a change makes
the function recompile instead of returning an answer computed from the old value."""

from __future__ import annotations

import pytest

from symcompile.runtime import api

MODULE = """
    import symcompile as sc

    SCALE = 2.0
    DEBUG = False

    @sc.symbolic
    def scaled(x):
        if DEBUG:
            print("debug")
        return x * (SCALE + 0.0)

    @sc.symbolic
    def plain(x):
        return x * SCALE

    @sc.symbolic(guards=False)
    def frozen(x):
        return x * (SCALE + 0.0)

    def set_scale(value):
        global SCALE
        SCALE = value

    @sc.symbolic
    def rebinds_then_reads(x):
        set_scale(5.0)
        return x * (SCALE + 0.0)

    @sc.symbolic
    def prints_then_uses(x):
        print("before")
        return x * (SCALE + 0.0)
"""


@pytest.fixture
def module(make_module):
    return make_module(MODULE)


def test_folded_global_is_checked_and_a_change_recompiles(module):
    assert module.scaled(1.0) == 2.0
    assert "return x * 2.0" in module.scaled.source
    assert "SCALE is not SCALE_2" in module.scaled.source
    module.SCALE = 3.0
    assert module.scaled(1.0) == 3.0
    assert "return x * 3.0" in module.scaled.source
    module.DEBUG = True
    assert module.scaled(1.0) == 3.0


def test_deleted_global_raises_where_the_original_would(module, capsys):
    assert module.prints_then_uses(1.0) == 2.0
    del module.SCALE
    with pytest.raises(NameError):
        module.prints_then_uses(1.0)
    assert capsys.readouterr().out == "before\nbefore\n"  # printed before the NameError, as before


def test_guards_off_freeze_the_values_until_recompile(module):
    assert module.frozen(1.0) == 2.0
    assert "stale" not in module.frozen.source
    module.SCALE = 3.0
    assert module.frozen(1.0) == 2.0  # documented: frozen
    module.frozen.recompile()
    assert module.frozen(1.0) == 3.0


def test_a_global_rebound_during_the_call_is_read_after_the_change(module):
    assert module.rebinds_then_reads(1.0) == 5.0
    assert "x * (SCALE + 0.0)" in module.rebinds_then_reads.source


def test_a_global_is_not_folded_where_that_buys_nothing(module):
    assert module.plain(2.0) == 4.0
    assert "stale" not in module.plain.source
    assert "return x * SCALE" in module.plain.source


def test_globals_that_keep_changing_stop_being_relied_on(module):
    for step in range(api.MAX_STALE_RECOMPILES + 3):
        module.SCALE = float(step)
        assert module.scaled(2.0) == 2.0 * step
    assert "stale" not in module.scaled.source
    assert "x * (SCALE + 0.0)" in module.scaled.source
    module.SCALE = 7.0
    assert module.scaled(1.0) == 7.0


def test_builtins_the_code_relies_on_are_checked_too(make_module):
    module = make_module("""
        import symcompile as sc

        @sc.symbolic
        def f():
            return abs(-3)
    """)
    assert module.f() == 3
    module.abs = lambda value: "shadowed"
    assert module.f() == "shadowed"


def test_a_global_tuple_spread_into_an_inlined_call_is_checked(make_module):
    module = make_module("""
        import symcompile as sc

        PAIR = (1.0, 2.0)

        def add(a, b):
            return a + b

        @sc.symbolic
        def f():
            return add(*PAIR)
    """)
    assert module.f() == 3.0
    assert "PAIR is not PAIR_2" in module.f.source
    assert "return 3.0" in module.f.source
    module.PAIR = (10.0, 20.0)
    assert module.f() == 30.0
    module.PAIR = (1.0, 2.0, 3.0)
    with pytest.raises(TypeError):
        module.f()
