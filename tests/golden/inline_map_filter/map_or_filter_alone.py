# inline_map_filter: `list(map(lambda x: E, xs))` and `list(filter(lambda x: P, xs))` alone,
# anywhere in an expression (the tests read the names in the order the original reads them).
def f(xs):
    squares = list(map(lambda v: v * v, xs))
    return squares, len(list(filter(lambda v: v, xs)))
# --- after inline_map_filter ---
def f(xs):
    squares = [(v_2 * v_2) for v_2 in xs
        ] if list is list_2 and map is map_2 and type(xs) is list_2 else list(
        map(lambda v: v * v, xs))
    return squares, len([v_3 for v_3 in xs if v_3] if list is list_2 and 
        filter is filter_2 and type(xs) is list_2 else list(filter(lambda v:
        v, xs)))
