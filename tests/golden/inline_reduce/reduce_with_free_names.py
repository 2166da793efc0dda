# inline_reduce: the lambda's free names (`rate`, a local of the function; `OFFSET`, a global)
# mean in the loop what they mean in the lambda; its parameters get fresh names, so the
# function's own `acc` is neither read nor changed by the loop.
import functools

OFFSET = 1.0


def f(xs, rate):
    acc = -1.0
    return functools.reduce(lambda acc, x: acc * rate + x + OFFSET + 0 * acc, xs, acc)
# --- after inline_reduce ---
def f(xs, rate):
    acc = -1.0
    t = functools.reduce
    if t is reduce and type(xs) is list:
        acc_2 = acc
        for x_2 in xs:
            acc_2 = acc_2 * rate + x_2 + OFFSET + 0 * acc_2
        return acc_2
    return t(lambda acc, x: acc * rate + x + OFFSET + 0 * acc, xs, acc)
