# MUST NOT CHANGE: the method `m[i]` calls is not a plain function of a plain class here.
# `Table.__getitem__` is a staticmethod, `Lookup` finds items through `__getattr__` (which
# Python never asks for `__getitem__`: `l[i]` raises TypeError), and `Row` derives from `list`
# (a builtin's slot). Each runs as written.
class Table:
    @staticmethod
    def __getitem__(index):
        return index * 2


class Lookup:
    def __getattr__(self, name):
        return lambda index: index


class Row(list):
    def __getitem__(self, index):
        return 0.0


def f(t: Table, l: Lookup, r: Row, i):
    return t[i] + r[i] + l[i]
# --- after inline_calls ---
def f(t: Table, l: Lookup, r: Row, i):
    return t[i] + r[i] + l[i]
