# MUST NOT CHANGE: a dict that escapes (`g(a)`), is asked with a method, `in` or `len`, has an
# item deleted, read at a key it lacks (KeyError) or a computed key, has a bool or float key
# (equal to an int key), made in a branch or loop, bound twice, returned together with a later
# read of an item (user code between may change it), or has a duplicate key stays a dict.
def f(g, k, flag):
    a = {"x": 0}
    g(a)
    b = {"x": 0}
    n = b.get("x")
    c = {"x": 0}
    n = "x" in c
    d = {"x": 0, "y": 1}
    del d["y"]
    e = {"x": 0}
    n = e["y"]
    h = {"x": 0}
    n = h[k]
    i = {True: 0}
    n = i[1]
    j = {1.0: 0}
    n = j[1.0]
    if flag:
        m = {"x": 0}
        m["x"] += 1
    p = {"x": 0}
    p = {"x": 1}
    q = {"x": 0, "x": 1}
    q["x"] += 1
    r = {"x": 0}
    return a, b, c, d, e, h, i, j, m, p, q, n, r, g(r), r["x"], len(r)
# --- after split_local_dicts ---
def f(g, k, flag):
    a = {'x': 0}
    g(a)
    b = {'x': 0}
    n = b.get('x')
    c = {'x': 0}
    n = 'x' in c
    d = {'x': 0, 'y': 1}
    del d['y']
    e = {'x': 0}
    n = e['y']
    h = {'x': 0}
    n = h[k]
    i = {(True): 0}
    n = i[1]
    j = {(1.0): 0}
    n = j[1.0]
    if flag:
        m = {'x': 0}
        m['x'] += 1
    p = {'x': 0}
    p = {'x': 1}
    q = {'x': 0, 'x': 1}
    q['x'] += 1
    r = {'x': 0}
    return a, b, c, d, e, h, i, j, m, p, q, n, r, g(r), r['x'], len(r)
