refused: the atomicAdd's result is used (it is not a statement of its own)
