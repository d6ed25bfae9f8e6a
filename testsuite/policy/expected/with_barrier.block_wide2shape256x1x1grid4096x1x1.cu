refused: a barrier: the block's threads work together
