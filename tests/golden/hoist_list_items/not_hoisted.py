# MUST NOT CHANGE: a list the caller gave (`rows`), one passed to a call (`seen`), one whose
# length is taken with the name `len` (which may be rebound to a function that keeps it), one
# the loop stores into (`out[i] = ...`) or changes with a method, one another name may hold
# (`alias = acc`, stored through `alias`), and, of a list it could read once (`fine`), an index
# the loop assigns (`k`) and one that is no sum of names and ints (`i * 2`) are read on every
# turn, as written.
def f(rows, n, log):
    seen = [[0.0] * n for _ in range(n)]
    log(seen)
    counted = [[1.0] * n for _ in range(n)]
    size = len(counted)
    out = [[0.0] * n for _ in range(n)]
    acc = [[0.0] * n for _ in range(n)]
    alias = acc
    fine = [[1.0] * n for _ in range(n)]
    total = 0.0
    for i in range(n):
        k = 0
        for j in range(n):
            total += rows[i][j] + seen[i][j] + counted[i][j] + counted[i][j]
            out[i] = out[i - 1]
            out.append(out[i])
            alias[i] = acc[i]
            total += acc[i][j] + acc[i][j] + fine[k][j] + fine[k][j] + fine[i * 2][j] + fine[i * 2][j]
            k = k + 1
    return total, size
# --- after hoist_list_items ---
def f(rows, n, log):
    seen = [[0.0] * n for _ in range(n)]
    log(seen)
    counted = [[1.0] * n for _ in range(n)]
    size = len(counted)
    out = [[0.0] * n for _ in range(n)]
    acc = [[0.0] * n for _ in range(n)]
    alias = acc
    fine = [[1.0] * n for _ in range(n)]
    total = 0.0
    for i in range(n):
        k = 0
        for j in range(n):
            total += rows[i][j] + seen[i][j] + counted[i][j] + counted[i][j]
            out[i] = out[i - 1]
            out.append(out[i])
            alias[i] = acc[i]
            total += acc[i][j] + acc[i][j] + fine[k][j] + fine[k][j] + fine[i * 2][j] + fine[i * 2][j]
            k = k + 1
    return total, size
