# The callee reads a global named like one of its renamed locals would be (`add_a`): the
# local takes another name, so the global is still read.
add_a = 10

def add(a):
    return a + add_a

def f(x):
    return add(x)
# --- after inline_calls ---
def f(x):
    add_a_2 = x
    return add_a_2 + add_a
