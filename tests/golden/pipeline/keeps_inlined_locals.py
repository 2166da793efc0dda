# The same for a callee's local: after inlining, h's i is main's h_i, and the loop that would
# bind it never runs; reading it must still raise UnboundLocalError.
def h(a):
    for i in range(0):
        a = a + 1
    return i

def main(x):
    return h(x)
# --- after pipeline ---
def main(x):
    if False:
        h_i = None
    return h_i
