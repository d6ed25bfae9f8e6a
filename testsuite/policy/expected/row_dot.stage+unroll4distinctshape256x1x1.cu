refused: stage, warp_rows, wide_rows, block_reduce, regblock, col_split and vec_loads rewrite the loop itself: one of them, combined with restrict and launch_bounds only
