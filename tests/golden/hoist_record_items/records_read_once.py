# hoist_record_items: the dicts of `bodies` are made by the function and reach nobody else, and
# nothing stores into them: each loop binding one reads the keys it needs once per turn. The
# outer loop reads `enumerate`, which may be rebound and would then receive `bodies`: it runs
# so while `enumerate` is the builtin and the list has gone nowhere (`bodies_private`).
def f(start, dt):
    bodies = [{"pos": list(p), "vel": list(v), "m": m} for p, v, m in start]
    for i, a in enumerate(bodies):
        for b in bodies[i + 1:]:
            a["vel"][0] -= (a["pos"][0] - b["pos"][0]) * b["m"]
            b["vel"][0] += (a["pos"][0] - b["pos"][0]) * a["m"]
    for body in bodies:
        body["pos"][0] += dt * body["vel"][0]
    return bodies
# --- after hoist_record_items ---
def f(start, dt):
    bodies_private = True
    bodies = [{'pos': list(p), 'vel': list(v), 'm': m} for p, v, m in start]
    bodies_private = True
    if bodies_private and enumerate is enumerate_2:
        for i, a in enumerate(bodies):
            a_m = a['m']
            a_pos = a['pos']
            a_vel = a['vel']
            for b in bodies[i + 1:]:
                b_m = b['m']
                b_pos = b['pos']
                b_vel = b['vel']
                a_vel[0] -= (a_pos[0] - b_pos[0]) * b_m
                b_vel[0] += (a_pos[0] - b_pos[0]) * a_m
    else:
        bodies_private = False
        for i, a in enumerate(bodies):
            for b in bodies[i + 1:]:
                a['vel'][0] -= (a['pos'][0] - b['pos'][0]) * b['m']
                b['vel'][0] += (a['pos'][0] - b['pos'][0]) * a['m']
    if bodies_private:
        for body in bodies:
            body_pos = body['pos']
            body_vel = body['vel']
            body_pos[0] += dt * body_vel[0]
    else:
        bodies_private = False
        for body in bodies:
            body['pos'][0] += dt * body['vel'][0]
    return bodies
