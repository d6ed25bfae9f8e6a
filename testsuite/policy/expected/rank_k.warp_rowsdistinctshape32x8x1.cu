refused: the block is not whole warps, or the kernel indexes threads along y or z
