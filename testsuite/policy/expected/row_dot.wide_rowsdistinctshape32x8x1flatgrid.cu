refused: the block is not one-dimensional
