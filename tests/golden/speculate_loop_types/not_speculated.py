# MUST NOT CHANGE: no body here would get simpler for float elements (the check would cost a
# type test per turn for nothing), or the loop holds another loop (which may still change), or
# the target is not a single name.
def f(values, pairs, n):
    out = []
    for a in values:
        out.append(a * 2.0 + 1.5)
    for a in values:
        for i in range(n):
            out.append(1.0 * a)
    for a, b in pairs:
        out.append(1.0 * a)
    return out
# --- after speculate_loop_types ---
def f(values, pairs, n):
    out = []
    for a in values:
        out.append(a * 2.0 + 1.5)
    for a in values:
        for i in range(n):
            out.append(1.0 * a)
    for a, b in pairs:
        out.append(1.0 * a)
    return out
