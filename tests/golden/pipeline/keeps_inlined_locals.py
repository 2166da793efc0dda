# MUST NOT CHANGE: h may read its local i before binding it (the loop that would bind it
# never runs). Each call of h starts with i unbound; inlined into a loop, h's i would keep
# its value from the call before. So h is not inlined.
def h(a):
    for i in range(0):
        a = a + 1
    return i

def main(x):
    return h(x)
# --- after pipeline ---
def main(x):
    return h(x)
