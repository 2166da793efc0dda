# inline_reduce, without a start value (`from functools import reduce`): the list must not be
# empty (reduce raises its own TypeError for an empty one: the kept call raises it), and its
# first element, read from the list's iterator as reduce reads it, starts the accumulator.
from functools import reduce


def f(xs):
    return reduce(lambda a, b: a * b, xs)
# --- after inline_reduce ---
def f(xs):
    t = reduce
    if t is reduce_2 and type(xs) is list and xs:
        it = iter(xs)
        a_2 = next(it)
        for b_2 in it:
            a_2 = a_2 * b_2
        return a_2
    return t(lambda a, b: a * b, xs)
