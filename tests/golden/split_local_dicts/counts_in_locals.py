# split_local_dicts keeps the items of a dict made with constant keys in locals: `+=` stays
# `+=` on each item, reads and stores (unpacking too) go to the item's local, and the dict is
# made again, keys in the display's order, where it is returned (here in a tuple, after the
# items read first: no mention of it follows). The values are computed in the display's
# order, as Python does.
def f(scores, start):
    stats = {"n": 0, "total": start, 1: None}
    for s in scores:
        stats["n"] += 1
        stats["total"] = stats["total"] + s
    stats[1], low = stats["n"] - 1, min(scores)
    return stats["total"] / stats["n"], low, stats
# --- after split_local_dicts ---
def f(scores, start):
    stats_n = 0
    stats_total = start
    stats_1 = None
    for s in scores:
        stats_n += 1
        stats_total = stats_total + s
    stats_1, low = stats_n - 1, min(scores)
    return stats_total / stats_n, low, {'n': stats_n, 'total': stats_total,
        (1): stats_1}
