# MUST NOT CHANGE: a dict stored into (`a["m"] = ...`), a dict passed to a call, a key the
# display does not make (a KeyError, at its time), a list passed to a call, a loop over
# `enumerate` inside another loop over the list (it may hand the list to unseen code while a
# dict of it is held in locals).
def f(start, g):
    stored = [{"m": m} for m in start]
    for a in stored:
        a["m"] = a["m"] * 2.0
    passed = [{"m": m} for m in start]
    for b in passed:
        g(b)
        x = b["m"]
    missing = [{"m": m} for m in start]
    for c in missing:
        x = c["mass"]
    given = [{"m": m} for m in start]
    g(given)
    for d in given:
        x = d["m"]
    nested = [{"m": m} for m in start]
    for e in nested:
        for i, e2 in enumerate(nested):
            x = e["m"] + e2["m"]
    return x
# --- after hoist_record_items ---
def f(start, g):
    stored = [{'m': m} for m in start]
    for a in stored:
        a['m'] = a['m'] * 2.0
    passed = [{'m': m} for m in start]
    for b in passed:
        g(b)
        x = b['m']
    missing = [{'m': m} for m in start]
    for c in missing:
        x = c['mass']
    given = [{'m': m} for m in start]
    g(given)
    for d in given:
        x = d['m']
    nested = [{'m': m} for m in start]
    for e in nested:
        for i, e2 in enumerate(nested):
            x = e['m'] + e2['m']
    return x
