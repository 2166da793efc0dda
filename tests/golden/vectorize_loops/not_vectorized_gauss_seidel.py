# MUST NOT CHANGE: Gauss-Seidel updates `u` in place, each element reading the neighbours
# already updated in this sweep (`u[i - 1, j]`, `u[i, j - 1]`): a loop-carried dependence.
def sweep(u: "float64[n, m]"):
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
# --- after vectorize_loops ---
def sweep(u: 'float64[n, m]'):
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i,
                j + 1])
