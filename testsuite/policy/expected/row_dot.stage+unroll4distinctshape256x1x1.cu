refused: stage and warp_rows rewrite the loop itself: one of them, combined with restrict and launch_bounds only
