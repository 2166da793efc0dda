# Returns in nested loops: a return in the inner loop breaks out of it, and the outer loop
# follows it with `if returned: break`. A return in a loop's `else:` sets the flag too, and
# where that `else:` sits in an outer loop, its `break` leaves the outer loop, as the return
# does. A loop's own `break` leaves the flag unset, so the code after the loop runs.
def find(n, m, limit):
    count = 0
    i = 0
    while i < n:
        i += 1
        for j in range(m):
            if j == limit:
                break
            if i * j > limit:
                return i, j
            count += 1
        else:
            if count > limit:
                return count, -1
    else:
        if n < 0:
            return None
    count += 100
    return count, 0

def f(n, m):
    return find(n, m, 3)
# --- after inline_calls ---
def f(n, m):
    find_n = n
    find_m = m
    find_limit = 3
    find_count = 0
    find_i = 0
    find_returned = False
    while find_i < find_n:
        find_i += 1
        for find_j in range(find_m):
            if find_j == find_limit:
                break
            if find_i * find_j > find_limit:
                find_result = find_i, find_j
                find_returned = True
                break
            find_count += 1
        else:
            if find_count > find_limit:
                find_result = find_count, -1
                find_returned = True
                break
        if find_returned:
            break
    else:
        if find_n < 0:
            find_result = None
            find_returned = True
    if not find_returned:
        find_count += 100
        find_result = find_count, 0
    return find_result
