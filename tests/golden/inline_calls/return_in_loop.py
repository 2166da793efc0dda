# A `return` inside a loop assigns the result, sets a flag and breaks out; the code after the
# loop runs only if the flag is not set. The flag is set to False just before the loop, on
# every run of the inlined body (the caller here is a loop), and each inlined call has a flag
# and a result of its own.
def index_of(xs, t):
    for i in range(len(xs)):
        if xs[i] > t:
            return i
    return -1

def f(xs, t):
    total = 0
    for k in range(3):
        total += index_of(xs, t + k) + index_of(xs, t - k)
    return total
# --- after inline_calls ---
def f(xs, t):
    total = 0
    for k in range(3):
        if index_of is index_of_2:
            index_of_xs = xs
            index_of_t = t + k
            index_of_returned = False
            for index_of_i in range(len(index_of_xs)):
                if index_of_xs[index_of_i] > index_of_t:
                    index_of_result = index_of_i
                    index_of_returned = True
                    break
            if not index_of_returned:
                index_of_result = -1
            index_of_t = None
        else:
            index_of_result = index_of(xs, t + k)
        if index_of is index_of_2:
            index_of_xs_2 = xs
            index_of_t_2 = t - k
            index_of_returned_2 = False
            for index_of_i_2 in range(len(index_of_xs_2)):
                if index_of_xs_2[index_of_i_2] > index_of_t_2:
                    index_of_result_2 = index_of_i_2
                    index_of_returned_2 = True
                    break
            if not index_of_returned_2:
                index_of_result_2 = -1
            index_of_t_2 = None
        else:
            index_of_result_2 = index_of(xs, t - k)
        total += index_of_result + index_of_result_2
        index_of_result = None
        index_of_result_2 = None
    return total
