# A helper that returns from inside a loop, inlined twice in a loop and optimized: each copy
# keeps its own flag and result; the flag is set to False before each copy's loop.
def index_of(xs, t):
    for i in range(len(xs)):
        if xs[i] > t:
            return i
    return -1

def count_above(xs, ts):
    total = 0
    for t in ts:
        total += index_of(xs, t) + index_of(xs, -t)
    return total
# --- after pipeline ---
def count_above(xs, ts):
    total = 0
    for t in ts:
        if index_of is index_of_2:
            index_of_returned = False
            for index_of_i in range(len(xs)):
                if xs[index_of_i] > t:
                    index_of_result = index_of_i
                    index_of_returned = True
                    break
            if not index_of_returned:
                index_of_result = -1
        else:
            index_of_result = index_of(xs, t)
        if index_of is index_of_2:
            index_of_t_2 = -t
            index_of_returned_2 = False
            for index_of_i_2 in range(len(xs)):
                if xs[index_of_i_2] > index_of_t_2:
                    index_of_result_2 = index_of_i_2
                    index_of_returned_2 = True
                    break
            if not index_of_returned_2:
                index_of_result_2 = -1
            index_of_t_2 = None
        else:
            index_of_result_2 = index_of(xs, -t)
        total += index_of_result + index_of_result_2
        index_of_result = None
        index_of_result_2 = None
    return total
