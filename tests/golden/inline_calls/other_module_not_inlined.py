# MUST NOT CHANGE: functions of another module (here tests/corpus.py) that read a global their
# module may rebind at any time: `_read_counter` reads the number `_COUNTER`, `_checked_div`
# raises `CorpusError`, a class of its module. No guard can check another module's globals.
from tests.corpus import _checked_div, _read_counter

def f(x, y):
    return _read_counter() + _checked_div(x, y)
# --- after inline_calls ---
def f(x, y):
    return _read_counter() + _checked_div(x, y)
