# inline_map_filter writes `list(map(lambda x: E, filter(lambda y: P, xs)))` as the list
# comprehension `[E for x in xs if P]`: the predicate and the function computed in the same
# order on the same elements, the parameters renamed to one fresh name, the bodies' other names
# (`limit`, a local; `SCALE`, a global) read in a scope of their own as the lambdas read them.
# The comprehension runs when `list`, `map` and `filter` are still the builtins and `xs` is a
# list; the call as written is kept for the rest.
SCALE = 3.0


def f(xs, limit):
    return list(map(lambda x: x * SCALE, filter(lambda y: y < limit, xs)))
# --- after inline_map_filter ---
def f(xs, limit):
    return [(x_2 * SCALE) for x_2 in xs if x_2 < limit
        ] if list is list_2 and map is map_2 and filter is filter_2 and type(xs
        ) is list_2 else list(map(lambda x: x * SCALE, filter(lambda y: y <
        limit, xs)))
