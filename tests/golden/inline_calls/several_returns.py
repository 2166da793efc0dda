# A callee with several returns becomes structured code: each return assigns the result, and
# the code after an if that may return moves into the branch that does not.
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    return 0

def f(v):
    s = sign(v)
    return s
# --- after inline_calls ---
def f(v):
    sign_x = v
    if sign_x > 0:
        sign_result = 1
    elif sign_x < 0:
        sign_result = -1
    else:
        sign_result = 0
    s = sign_result
    return s
