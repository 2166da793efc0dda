"""fold_budget: what folding one operation may cost, estimated before it runs.

fold_constants runs the real operation on constant operands, and some operations on small
operands take minutes (`pow(10, 10**8, None)`, `round(7, -10**7)`) or build huge values. Every
operation the folder may run is priced here from its operands' sizes (an int's 30-bit digits, a
string's characters, a tuple's items), in units of about one digit operation (~2 ns); folding
is refused above `COST_BUDGET` (a few milliseconds) or where a value on the way would pass the
folder's size caps. An operation with no price listed here is refused: the default is "run it
when the program does". A refused operation stays in the code, where it runs when (and if) the
original would run it.
"""

from __future__ import annotations

import math
import operator
from typing import Callable, SupportsIndex

from ..ir.ops import OPS

# the folder refuses results above these sizes (CPython's own folder: 128 bits, 4096 items)
MAX_INT_BITS = 4096
MAX_STR_LENGTH = 4096
MAX_TUPLE_LENGTH = 256
MAX_TUPLE_SIZE = 8192  # its items' sizes summed (see `size`)

# about two milliseconds of digit operations
COST_BUDGET = 1_000_000

Pricer = Callable[[tuple[object, ...]], "int | str"]


def size(value: object) -> int:
    """How big a value is for its operations: 30-bit digits of an int, characters of a string,
    the sizes of a tuple's items summed; 1 for a float, a complex or any fixed-size value."""
    if isinstance(value, int):
        return value.bit_length() // 30 + 1
    if isinstance(value, (str, bytes)):
        return len(value) + 1
    if isinstance(value, tuple):
        return 1 + sum(map(size, value))
    return 1


def _integer(value: object) -> int | None:
    """The int an integer-like value (bool, int, NumPy integer) stands for, else None."""
    if not isinstance(value, SupportsIndex):  # (a float, a str, a tuple...)
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _linear(args: tuple[object, ...]) -> int:
    return sum(map(size, args))


def _quadratic(args: tuple[object, ...]) -> int:
    return math.prod(map(size, args)) if len(args) != 1 else size(args[0]) ** 2


def _items(args: tuple[object, ...]) -> tuple[object, ...]:
    """The items of `sum((1, 2))` and of `math.gcd(1, 2)` alike."""
    return args[0] + args[1:] if args and isinstance(args[0], tuple) else args


def _sum(args: tuple[object, ...]) -> int:
    """Each step of a sum costs at most the whole (ints grow, tuples are copied)."""
    items = _items(args)
    return len(items) * _linear(items)


def _product(args: tuple[object, ...]) -> int:
    """`math.prod`, `math.lcm`, `math.gcd`, `math.sumprod`: each step multiplies (or divides)
    what has been built so far by one item: at most the whole's size times the item's."""
    return _linear(_items(args)) ** 2


def _int_bits(bits: float) -> int | str:
    """The cost of building an int of `bits` bits, or why that is too big."""
    if bits > MAX_INT_BITS:
        return f"would build an int of about {bits:.3g} bits"
    return (int(bits) // 30 + 1) ** 2


def _mul(args: tuple[object, ...]) -> int | str:
    left, right = args
    for sequence, count in ((left, right), (right, left)):
        times = _integer(count)
        if isinstance(sequence, (str, bytes, tuple)) and times is not None:
            length = len(sequence) * max(times, 0)
            return f"would repeat to {length} items" if length > MAX_STR_LENGTH else length + 1
    return _quadratic(args)


def _mod(args: tuple[object, ...]) -> int | str:
    if isinstance(args[0], (str, bytes)):  # `'%0100000000d' % 0`: CPython does not fold it either
        return "formats a string"
    return _quadratic(args)


def _pow(args: tuple[object, ...]) -> int | str:
    """`base ** exp`, `pow(base, exp, mod)`: an int power's size is its base's times its
    exponent; a modular power takes a multiplication modulo `mod` per bit of the exponent."""
    if len(args) < 2:
        return _linear(args)  # raises TypeError
    base, exponent = _integer(args[0]), _integer(args[1])
    modulus = args[2] if len(args) == 3 else None
    if base is None or exponent is None:
        return _linear(args)  # float and complex powers take constant time
    if modulus is not None:
        mod = _integer(modulus)
        if mod is None:
            return _linear(args)
        return size(base) * size(mod) + (abs(exponent).bit_length() + 1) * size(mod) ** 2
    if exponent < 0 or abs(base) <= 1:
        return _linear(args)  # a float power, or a result of one digit
    return _int_bits(exponent * math.log2(abs(base)) + 1)


def _lshift(args: tuple[object, ...]) -> int | str:
    value, shift = _integer(args[0]), _integer(args[1])
    if value is None or shift is None or value == 0 or shift < 0:
        return _linear(args)
    return _int_bits(value.bit_length() + shift)


def _round(args: tuple[object, ...]) -> int | str:
    """`round(7, -10**7)` computes 10**(10**7) on the way to 0."""
    if not args:
        return 1  # raises TypeError
    number = _integer(args[0])
    digits = _integer(args[1]) if len(args) > 1 and args[1] is not None else None
    if number is None or digits is None or digits >= 0:
        return _linear(args)
    return _int_bits(-digits * math.log2(10))


def _combinations(args: tuple[object, ...], ordered: bool) -> int | str:
    """`math.comb(n, k)`, `math.perm(n, k)`, `math.factorial(n)`: priced by their results' size
    (at most k·log2(n) bits; a tighter estimate from the gamma function where that is too many)."""
    if not args:
        return 1  # raises TypeError
    n = _integer(args[0])
    k = _integer(args[1]) if len(args) > 1 and args[1] is not None else n
    if n is None or k is None or n < 0 or k < 0 or k > n:
        return _linear(args)
    taken = k if ordered else min(k, n - k)
    if taken * n.bit_length() <= MAX_INT_BITS:
        return _int_bits(taken * n.bit_length())
    if n > 2 ** 50:
        return "would build an int of more than 2**50 bits"
    log_gamma = math.lgamma(n + 1) - math.lgamma(n - k + 1) - (0 if ordered else math.lgamma(k + 1))
    return _int_bits(log_gamma / math.log(2))


def _int(args: tuple[object, ...]) -> int:
    """`int('123…')` converts a string in quadratic time (9 decimal digits to a digit)."""
    text = args[0] if args and isinstance(args[0], (str, bytes)) else ""
    return (len(text) // 9 + 1) ** 2 + _linear(args)


_FLOAT_MATH = ("acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil",
               "copysign", "cos", "cosh", "degrees", "dist", "erf", "erfc", "exp", "exp2",
               "expm1", "fabs", "floor", "fma", "fmod", "frexp", "fsum", "gamma", "hypot",
               "isclose", "isfinite", "isinf", "isnan", "ldexp", "lgamma", "log", "log10",
               "log1p", "log2", "modf", "nextafter", "pow", "radians", "remainder", "sin",
               "sinh", "sqrt", "tan", "tanh", "trunc", "ulp")
_LINEAR_OPS = ("add", "sub", "rshift", "bitor", "bitxor", "bitand", "neg", "pos",
               "invert", "not", "eq", "ne", "lt", "le", "gt", "ge", "is", "isnot", "in", "notin")


def _prices() -> dict[Callable[..., object], Pricer]:
    """Every operation the folder may run, with its price."""
    prices: dict[Callable[..., object], Pricer] = {OPS[name].evaluate: _linear for name in _LINEAR_OPS}
    prices.update({function: _linear for function in (
        abs, bool, len, chr, ord, float, complex, min, max, operator.getitem,
        *(getattr(math, name) for name in _FLOAT_MATH if hasattr(math, name)))})
    prices.update({
        OPS["truediv"].evaluate: _quadratic, OPS["floordiv"].evaluate: _quadratic,
        divmod: _quadratic, math.isqrt: _quadratic, math.gcd: _product, math.lcm: _product,
        math.prod: _product, sum: _sum, int: _int,
        OPS["mul"].evaluate: _mul, OPS["mod"].evaluate: _mod, OPS["pow"].evaluate: _pow,
        pow: _pow, OPS["lshift"].evaluate: _lshift, round: _round,
        math.factorial: lambda args: _combinations(args, ordered=True),
        math.perm: lambda args: _combinations(args, ordered=True),
        math.comb: lambda args: _combinations(args, ordered=False),
    })
    if hasattr(math, "sumprod"):  # Python 3.12+
        prices[math.sumprod] = _product
    return prices


_PRICES = _prices()
# keyword arguments of the priced functions that take them, in positional order
_PARAMETERS: dict[Callable[..., object], tuple[str, ...]] = {
    pow: ("base", "exp", "mod"), round: ("number", "ndigits")}


def _positional(function: Callable[..., object], args: tuple[object, ...],
                kwargs: dict[str, object]) -> tuple[object, ...]:
    """`args` with the keyword arguments that change the price put in their places."""
    names = _PARAMETERS.get(function, ())
    return args + tuple(kwargs.get(name) for name in names[len(args):] if name in kwargs) \
        if names and kwargs else args + tuple(kwargs.values())


def refusal(function: Callable[..., object], args: tuple[object, ...],
            kwargs: dict[str, object] | None = None) -> str | None:
    """Why `function(*args, **kwargs)` may cost too much to run at compile time, or None."""
    price = _PRICES.get(function)
    if price is None:
        return f"no cost estimate for {getattr(function, '__name__', 'this operation')}()"
    estimate = price(_positional(function, args, kwargs or {}))
    if isinstance(estimate, str):
        return estimate
    if estimate > COST_BUDGET:
        return f"would take about {estimate:.2g} digit operations"
    return None
