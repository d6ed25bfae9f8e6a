refused: the grid of larger blocks would have fewer than 1056 blocks (8 an SM)
