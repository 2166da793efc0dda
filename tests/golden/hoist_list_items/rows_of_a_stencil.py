# hoist_list_items reads the rows a Jacobi sweep uses once per `i`, before the `j` loop:
# `grid` and `new` are lists the function made and hands to nobody, the `j` loop stores only
# into their rows' items, and `i - 1`, `i + 1`, `i` are ints in range (tested where the `j`
# loop starts; where they are not, the loop as written runs).
def f(rows, n):
    grid = [row[:] for row in rows]
    new = [row[:] for row in grid]
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            new[i][j] = 0.25 * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1])
    return new
# --- after hoist_list_items ---
def f(rows, n):
    grid = [row[:] for row in rows]
    new = [row[:] for row in grid]
    for i in range(1, n - 1):
        if type(i) is int and 0 <= i < len(new) and 0 <= i - 1 and i + 1 < len(
            grid):
            new_item = new[i]
            grid_item = grid[i - 1]
            grid_item_2 = grid[i + 1]
            grid_item_3 = grid[i]
            for j in range(1, n - 1):
                new_item[j] = 0.25 * (grid_item[j] + grid_item_2[j] +
                    grid_item_3[j - 1] + grid_item_3[j + 1])
            new_item = grid_item = grid_item_2 = grid_item_3 = None
        else:
            for j in range(1, n - 1):
                new[i][j] = 0.25 * (grid[i - 1][j] + grid[i + 1][j] + grid[
                    i][j - 1] + grid[i][j + 1])
    return new
