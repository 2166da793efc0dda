# Arithmetic on literals is done once, by the real Python operation, so the value is exactly
# what the program would compute (0.1 + 0.2 is 0.30000000000000004, not 0.3).
def f(x):
    return x * (2 + 3), 2 ** 10, 0.1 + 0.2, 7 // -2, -7 % 3, 'ab' * 3, (1, 2) + (3,), 1e308 * 10
# --- after fold_constants ---
def f(x):
    return x * 5, 1024, 0.30000000000000004, -4, 2, 'ababab', (1, 2, 3), 1e309
