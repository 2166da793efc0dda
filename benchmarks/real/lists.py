"""Real-code kernels: pure-Python loops over lists of floats and lists of lists.

Each kernel is written as it is found in scripts and course notebooks; ``*_hand`` is its best
bit-identical rewrite (same floating-point operations in the same order).
"""

from __future__ import annotations

import math
import random
from itertools import accumulate

from benchmarks.real import LISTS, Kernel, all_of_type

SEED = 1111

COEFFS = (1.5, -0.25, 3.0, 0.125, -2.0, 0.75, 1.0, -0.5)


def _lists_of_floats(rows: list[object]) -> bool:
    """Whether every row is a list and every item of theirs a float (no code of theirs runs)."""
    return all_of_type(rows, list) and all(all_of_type(row, float) for row in rows)  # type: ignore[arg-type]


def _floats(seed: int, n: int, low: float = -1.0, high: float = 1.0) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(low, high) for _ in range(n)]


def _grid(seed: int, n: int) -> list[list[float]]:
    rng = random.Random(seed)
    grid = [[0.0] * n for _ in range(n)]
    for j in range(n):
        grid[0][j] = 100.0 * rng.random()
    for i in range(1, n - 1):
        grid[i][0] = 50.0
        grid[i][n - 1] = 25.0 * rng.random()
    return grid


# ---------------------------------------------------------------- polynomials and roots


def horner_poly(xs):
    """Evaluate a fixed polynomial (module tuple of coefficients) at many points, Horner's way."""
    out = []
    for x in xs:
        acc = 0.0
        for c in COEFFS:
            acc = acc * x + c
        out.append(acc)
    return out


def horner_poly_hand(xs):
    # the coefficients are read once where the loop reads them for each point (an item's `*`
    # may rebind COEFFS): exact only where no code of the items runs (a list of floats)
    if type(xs) is not list or not all_of_type(xs, float):
        return horner_poly(xs)
    c0, c1, c2, c3, c4, c5, c6, c7 = COEFFS
    return [((((((((0.0 * x + c0) * x + c1) * x + c2) * x + c3) * x + c4) * x + c5) * x + c6)
             * x + c7) for x in xs]


def f_cubic(x, a):
    return x * x * x - x - a


def bisect_roots(targets):
    """Solve x**3 - x = a for many a by bisection with a helper f, 40 halvings each."""
    roots = []
    for a in targets:
        lo = 1.5
        hi = 4.0
        for _ in range(40):
            mid = (lo + hi) / 2
            if f_cubic(mid, a) > 0:
                hi = mid
            else:
                lo = mid
        roots.append((lo + hi) / 2)
    return roots


def bisect_roots_hand(targets):
    roots = []
    append = roots.append
    for a in targets:
        lo = 1.5
        hi = 4.0
        for _ in range(40):
            mid = (lo + hi) / 2
            if mid * mid * mid - mid - a > 0:
                hi = mid
            else:
                lo = mid
        append((lo + hi) / 2)
    return roots


def newton_sqrt(values, tol=1e-12):
    """Square roots by Newton's method, iterating until the residual is small (data-dependent)."""
    result = []
    for a in values:
        x = a if a > 1 else 1.0
        while abs(x * x - a) > tol * a:
            x = 0.5 * (x + a / x)
        result.append(x)
    return result


def newton_sqrt_hand(values, tol=1e-12):
    result = []
    for a in values:
        x = a if a > 1 else 1.0
        if type(a) is float and type(tol) is float:  # tol * a is pure and loop-invariant
            bound = tol * a
            while abs(x * x - a) > bound:
                x = 0.5 * (x + a / x)
        else:
            while abs(x * x - a) > tol * a:
                x = 0.5 * (x + a / x)
        result.append(x)
    return result


# ---------------------------------------------------------------- scans and sums


def prefix_sums(xs):
    """Running totals of a list, indexed the C way."""
    n = len(xs)
    out = [0.0] * n
    s = 0.0
    for i in range(n):
        s += xs[i]
        out[i] = s
    return out


def prefix_sums_hand(xs):
    # accumulate adds with + where the loop's += may call an item's __iadd__, and list() takes a
    # StopIteration an item's __add__ raises for the end of the sums: exact only where every
    # item is a float (no code of the items runs), tested in one pass first
    if type(xs) is not list or not all_of_type(xs, float):
        return prefix_sums(xs)
    sums = list(accumulate(xs, initial=0.0))
    del sums[0]
    return sums


def moving_average(xs, w):
    """A trailing moving average, one slice sum per position."""
    out = []
    for i in range(len(xs) - w + 1):
        out.append(sum(xs[i:i + w]) / w)
    return out


def moving_average_hand(xs, w):
    return [sum(xs[i:i + w]) / w for i in range(len(xs) - w + 1)]


def mean_variance(xs):
    """Two-pass mean and sample variance with sums of generators."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, var


def mean_variance_hand(xs):
    n = len(xs)
    mean = sum(xs) / n
    return mean, sum([(x - mean) ** 2 for x in xs]) / (n - 1)


def trapezoid_integral(a, b, n):
    """Trapezoid rule for exp(-x*x) * cos(3x) with the integrand as a module-level function."""
    h = (b - a) / n
    total = 0.5 * (integrand(a) + integrand(b))
    for k in range(1, n):
        total += integrand(a + k * h)
    return total * h


def integrand(x):
    return math.exp(-x * x) * math.cos(3 * x)


def trapezoid_integral_hand(a, b, n):
    exp = math.exp
    cos = math.cos
    h = (b - a) / n
    total = 0.5 * (exp(-a * a) * cos(3 * a) + exp(-b * b) * cos(3 * b))
    for k in range(1, n):
        x = a + k * h
        total += exp(-x * x) * cos(3 * x)
    return total * h


# ---------------------------------------------------------------- lists of lists


def avg4(a, b, c, d):
    return 0.25 * (a + b + c + d)


def laplace_relax(grid0, sweeps):
    """Jacobi relaxation of Laplace's equation on a list-of-lists grid, with a helper."""
    n = len(grid0)
    grid = [row[:] for row in grid0]
    for _ in range(sweeps):
        new = [row[:] for row in grid]
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                new[i][j] = avg4(grid[i - 1][j], grid[i + 1][j], grid[i][j - 1], grid[i][j + 1])
        grid = new
    return grid


def laplace_relax_hand(grid0, sweeps):
    # the rows are read once per row, and each item between additions where avg4 reads all four
    # first: exact only where no code of the rows or items runs (a list of lists of floats)
    if type(grid0) is not list or not _lists_of_floats(grid0):
        return laplace_relax(grid0, sweeps)
    n = len(grid0)
    grid = [row[:] for row in grid0]
    for _ in range(sweeps):
        new = [row[:] for row in grid]
        for i in range(1, n - 1):
            up = grid[i - 1]
            row = grid[i]
            down = grid[i + 1]
            out = new[i]
            for j in range(1, n - 1):
                out[j] = 0.25 * (up[j] + down[j] + row[j - 1] + row[j + 1])
        grid = new
    return grid


def gauss_seidel(grid0, sweeps):
    """In-place Gauss-Seidel sweeps on a list of lists, indexing grid[i][j] everywhere."""
    n = len(grid0)
    grid = [row[:] for row in grid0]
    change = 0.0
    for _ in range(sweeps):
        change = 0.0
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                old = grid[i][j]
                grid[i][j] = (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1]
                              + grid[i][j + 1]) / 4.0
                change = max(change, abs(grid[i][j] - old))
    return grid, change


def matmul_lists(a, b):
    """Triple-loop matrix product of lists of lists, accumulating into C[i][j]."""
    n = len(a)
    m = len(b[0])
    inner = len(b)
    c = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            for k in range(inner):
                c[i][j] += a[i][k] * b[k][j]
    return c


def matmul_lists_hand(a, b):
    # zip iterates where the loops index (stopping quietly at a short row), and takes b's
    # columns once: exact only for lists of lists of floats, b's rows none shorter than its
    # first and a's none shorter than b is long
    if type(a) is not list or type(b) is not list or not b or not _lists_of_floats(a) \
            or not _lists_of_floats(b) or min(map(len, b)) != len(b[0]) \
            or a and min(map(len, a)) < len(b):
        return matmul_lists(a, b)
    columns = list(zip(*b))
    result = []
    for row in a:
        out = []
        for col in columns:
            s = 0.0
            for x, y in zip(row, col):
                s += x * y
            out.append(s)
        result.append(out)
    return result


def transpose_scale(rows, factor):
    """Transpose a list of lists while scaling it, with nested index loops and appends."""
    out = []
    for j in range(len(rows[0])):
        col = []
        for i in range(len(rows)):
            col.append(rows[i][j] * factor)
        out.append(col)
    return out


def transpose_scale_hand(rows, factor):
    # zip(*rows) takes the rows once and stops at the shortest, where the loop indexes rows again
    # each turn and raises IndexError at a short row: exact only where no code of the items runs
    # (a list of lists of floats, none shorter than the first, a float factor), tested first
    if type(rows) is not list or not rows or type(factor) is not float \
            or not _lists_of_floats(rows) or min(map(len, rows)) != len(rows[0]):
        return transpose_scale(rows, factor)
    return [[x * factor for x in col] for col in zip(*rows)]


def mandelbrot_counts(width, height, max_iter):
    """Escape counts of the Mandelbrot set on a small grid, real and imaginary parts as floats."""
    rows = []
    for py in range(height):
        ci = -1.2 + 2.4 * py / height
        row = []
        for px in range(width):
            cr = -2.0 + 3.0 * px / width
            zr = 0.0
            zi = 0.0
            count = 0
            while count < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                count += 1
            row.append(count)
        rows.append(row)
    return rows


def mandelbrot_counts_hand(width, height, max_iter):
    if type(width) is not int or type(height) is not int:  # then cr and ci are floats
        return mandelbrot_counts(width, height, max_iter)
    rows = []
    for py in range(height):
        ci = -1.2 + 2.4 * py / height
        row = []
        for px in range(width):
            cr = -2.0 + 3.0 * px / width
            zr = 0.0
            zi = 0.0
            zr2 = 0.0
            zi2 = 0.0
            count = 0
            while count < max_iter and zr2 + zi2 <= 4.0:
                zi = 2.0 * zr * zi + ci
                zr = zr2 - zi2 + cr
                zr2 = zr * zr
                zi2 = zi * zi
                count += 1
            row.append(count)
        rows.append(row)
    return rows


def _args_horner(small: bool) -> tuple[object, ...]:
    return (_floats(SEED, 40 if small else 4000),)


def _args_bisect(small: bool) -> tuple[object, ...]:
    return (_floats(SEED + 1, 5 if small else 150, 0.5, 40.0),)


def _args_newton(small: bool) -> tuple[object, ...]:
    return (_floats(SEED + 2, 20 if small else 1500, 0.01, 1e4),)


def _args_prefix(small: bool) -> tuple[object, ...]:
    return (_floats(SEED + 3, 50 if small else 20000),)


def _args_moving(small: bool) -> tuple[object, ...]:
    return (_floats(SEED + 4, 60 if small else 5000), 8 if small else 24)


def _args_variance(small: bool) -> tuple[object, ...]:
    return (_floats(SEED + 5, 50 if small else 20000, 10.0, 20.0),)


def _args_trapezoid(small: bool) -> tuple[object, ...]:
    return (-2.0, 3.0, 30 if small else 3000)


def _args_grid(small: bool) -> tuple[object, ...]:
    return (_grid(SEED + 6, 6 if small else 30), 2 if small else 4)


def _args_matmul(small: bool) -> tuple[object, ...]:
    n = 4 if small else 24
    rng = random.Random(SEED + 7)
    a = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(n)]
    b = [[rng.uniform(-1, 1) for _ in range(n + 1)] for _ in range(n)]
    return a, b


def _args_transpose(small: bool) -> tuple[object, ...]:
    rows, cols = (3, 5) if small else (120, 150)
    rng = random.Random(SEED + 8)
    return [[rng.uniform(-9, 9) for _ in range(cols)] for _ in range(rows)], 0.3


def _args_mandelbrot(small: bool) -> tuple[object, ...]:
    return (6, 4, 20) if small else (40, 30, 40)


KERNELS: tuple[Kernel, ...] = (
    Kernel("horner_poly", LISTS, horner_poly, _args_horner, horner_poly_hand),
    Kernel("bisect_roots", LISTS, bisect_roots, _args_bisect, bisect_roots_hand),
    Kernel("newton_sqrt", LISTS, newton_sqrt, _args_newton, newton_sqrt_hand),
    Kernel("prefix_sums", LISTS, prefix_sums, _args_prefix, prefix_sums_hand),
    Kernel("moving_average", LISTS, moving_average, _args_moving, moving_average_hand),
    Kernel("mean_variance", LISTS, mean_variance, _args_variance, mean_variance_hand),
    Kernel("trapezoid", LISTS, trapezoid_integral, _args_trapezoid, trapezoid_integral_hand),
    Kernel("laplace_relax", LISTS, laplace_relax, _args_grid, laplace_relax_hand),
    Kernel("gauss_seidel", LISTS, gauss_seidel, _args_grid),
    Kernel("matmul_lists", LISTS, matmul_lists, _args_matmul, matmul_lists_hand),
    Kernel("transpose_scale", LISTS, transpose_scale, _args_transpose, transpose_scale_hand),
    Kernel("mandelbrot", LISTS, mandelbrot_counts, _args_mandelbrot,
           mandelbrot_counts_hand),
)
