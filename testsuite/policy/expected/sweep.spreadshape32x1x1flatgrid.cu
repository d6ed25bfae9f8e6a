refused: the captured blocks are not one-dimensional with at least two warps
