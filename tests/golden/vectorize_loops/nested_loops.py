# A nest of loops writing every element of a 2-D block (Jacobi's step: it reads `u`, writes
# `new`) becomes one slice expression per statement; `new[i][j]` is `new[i, j]`, and the
# loops' bounds come from `u.shape`, whose extents the version knows are `new`'s too.
def jacobi(new: "float64[n, m]", u: "float64[n, m]"):
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            new[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1])
# --- after vectorize_loops ---
def jacobi(new: 'float64[n, m]', u: 'float64[n, m]'):
    vectorized = False
    if range is range_2 and 1 < u.shape[0] - 1 and 1 < u.shape[1
        ] - 1 and not may_share_memory(new, u):
        for fp_errors in floating_point_errors_recorded():
            new_new = 0.25 * (u[0:u.shape[0] - 2, 1:u.shape[1] - 1] + u[2:u
                .shape[0], 1:u.shape[1] - 1] + u[1:u.shape[0] - 1, 0:u.
                shape[1] - 2] + u[1:u.shape[0] - 1, 2:u.shape[1]])
        if not fp_errors:
            new[1:u.shape[0] - 1, 1:u.shape[1] - 1] = new_new
            vectorized = True
    if not vectorized:
        for i in range(1, u.shape[0] - 1):
            for j in range(1, u.shape[1] - 1):
                new[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] +
                    u[i][j + 1])
