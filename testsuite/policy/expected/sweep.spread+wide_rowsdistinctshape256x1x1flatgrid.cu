refused: stage, warp_rows, wide_rows and block_reduce rewrite the loop itself: one of them, combined with restrict and launch_bounds only
