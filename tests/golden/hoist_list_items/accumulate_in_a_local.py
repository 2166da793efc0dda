# hoist_list_items keeps `c[i][j]` in a local across the `k` loop, which only adds into it:
# `c` is a list the function made, its rows made by `[0.0] * m` and handed to nobody, so no
# code but this statement can see the item while the loop runs. The row holds None meanwhile
# (the item is freed where the original's first `+=` frees it). Tested once where the `j`
# loop starts: `m` an int (else `[0.0] * m` may be any object's list), `i` in range, and, for
# `j`, `range` the builtin and `m <= len(c[i])`, so every `j` is an int in the row's range;
# where a test fails, the nest as written runs.
def f(a, b, m):
    n = len(a)
    c = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            for k in range(len(b)):
                c[i][j] += a[i][k] * b[k][j]
    return c
# --- after hoist_list_items ---
def f(a, b, m):
    n = len(a)
    c = [([0.0] * m) for _ in range(n)]
    for i in range(n):
        if type(i) is int and type(m) is int and 0 <= i < len_2(c
            ) and range is range_2 and m <= len_2(c[i]):
            if 0 <= i < len_2(c):
                c_item = c[i]
                for j in range(m):
                    c_value = c_item[j]
                    c_item[j] = None
                    for k in range(len(b)):
                        c_value += a[i][k] * b[k][j]
                    c_item[j] = c_value
                    c_value = None
                c_item = None
            else:
                for j in range(m):
                    c_value = c[i][j]
                    c[i][j] = None
                    for k in range(len(b)):
                        c_value += a[i][k] * b[k][j]
                    c[i][j] = c_value
                    c_value = None
        elif type(i) is int and 0 <= i < len_2(c):
            c_item_2 = c[i]
            for j in range(m):
                for k in range(len(b)):
                    c_item_2[j] += a[i][k] * b[k][j]
            c_item_2 = None
        else:
            for j in range(m):
                for k in range(len(b)):
                    c[i][j] += a[i][k] * b[k][j]
    return c
