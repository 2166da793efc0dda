# A matrix product on lists of lists of Python floats, as a textbook writes it. On entry the
# lists are checked (every row a list, all of one length, the written rows held by no other
# list, every element read exactly a float) and converted to float64 arrays only when the
# loop's work by the cost model (~62 ns a turn, n**3 turns) exceeds the conversion's; the
# product then runs as for arrays (`k` a Python loop, each element's sum in the loop's order),
# with floating-point errors ignored as floats compute them, and the elements written are
# stored back into the caller's very rows, as Python floats. Any check failing runs the loop.
def matmul(c, A, B, n: int):
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c[i][j] += A[i][k] * B[k][j]
# --- after vectorize_loops ---
def matmul(c, A, B, n: int):
    vectorized = False
    if range is range_2 and type(A) is list and type(B) is list and type(c
        ) is list and 32 <= n * n * n and 8 <= n * n and 0 < n:
        arrays = lists_as_arrays(62.0 * n * n * n, ((c, 2, 'rw'), (A, 2,
            'r'), (B, 2, 'r')))
        if arrays is not None:
            c_array, A_array, B_array = arrays
            if n - 1 < c_array.shape[0] and n - 1 < c_array.shape[1
                ] and n - 1 < A_array.shape[0] and n - 1 < A_array.shape[1
                ] and n - 1 < B_array.shape[0] and n - 1 < B_array.shape[1]:
                for fp_ignored in floating_point_errors_ignored():
                    c_new = c_array[0:n, 0:n]
                    for k in range(n):
                        c_new = c_new + A_array[0:n, k][:, None] * B_array[
                            k, 0:n]
                c_array[0:n, 0:n] = c_new
                for row, values in zip(c[0:n], c_array[0:n, 0:n].tolist()):
                    row[0:n] = values
                vectorized = True
    if not vectorized:
        for i in range(n):
            for j in range(n):
                for k in range(n):
                    c[i][j] += A[i][k] * B[k][j]
