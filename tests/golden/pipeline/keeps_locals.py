# A loop that never runs goes, and with it the only assignment to i. The read of i must still
# raise UnboundLocalError (not read a global i), so i is kept local by an assignment that never
# runs.
i = 'a global i'

def f(n):
    for i in range(0):
        n = n + 1
    return i
# --- after pipeline ---
def f(n):
    if False:
        i = None
    return i
