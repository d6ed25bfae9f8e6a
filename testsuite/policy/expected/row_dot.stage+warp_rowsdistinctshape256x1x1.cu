refused: stage and warp_rows rewrite the loop itself: each combines with restrict and launch_bounds only
