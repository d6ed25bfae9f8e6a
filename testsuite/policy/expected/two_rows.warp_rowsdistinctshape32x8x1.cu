refused: the block is not one-dimensional in whole warps
