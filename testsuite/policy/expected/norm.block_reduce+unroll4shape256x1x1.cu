refused: stage, warp_rows, wide_rows, block_reduce, regblock and col_split rewrite the loop itself: one of them, combined with restrict and launch_bounds only
