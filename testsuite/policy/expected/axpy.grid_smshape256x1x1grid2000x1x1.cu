refused: a grid of fewer than 2112 blocks (two of 8 an SM), or fewer than 8 wide: the GPU holds most of it at once
