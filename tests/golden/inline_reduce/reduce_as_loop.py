# inline_reduce writes `return functools.reduce(lambda ...)` out as a loop: the lambda's body
# computed in order for each element, its parameters renamed. The loop runs when the callee,
# read once as the original reads it, is still `functools.reduce` and `xs` a list; the
# statement as written is kept for the rest (another callee, a tuple, a generator, what is not
# iterable: reduce's own TypeError).
import functools


def f(xs):
    return functools.reduce(lambda acc, x: acc * 0.5 + x, xs, 0.0)
# --- after inline_reduce ---
def f(xs):
    t = functools.reduce
    if t is reduce and type(xs) is list:
        acc_2 = 0.0
        for x_2 in xs:
            acc_2 = acc_2 * 0.5 + x_2
        return acc_2
    return t(lambda acc, x: acc * 0.5 + x, xs, 0.0)
