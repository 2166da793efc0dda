# Assignments of constants and copies that nothing reads go, in branches and loops too; an
# expression statement that does nothing goes; the docstring stays.
def f(x, n):
    """Docstring."""
    unused = 5
    copy = x
    x
    for i in range(n):
        scratch = 1.5
    if n:
        other = x
    return x
# --- after eliminate_dead_code ---
def f(x, n):
    """Docstring."""
    for i in range(n):
        pass
    if n:
        pass
    return x
