refused: stage, warp_rows, wide_rows, block_reduce and regblock rewrite the loop itself: one of them, combined with restrict and launch_bounds only
