refused: stage, warp_rows, wide_rows, block_reduce, regblock, col_split, vec_loads and stencil_tile rewrite the loop or reads themselves: one of them, combined with restrict and launch_bounds only
