refused: the block has a warp for each of its rows already (warp_rows)
