refused: the sum is kept in a variable: one row at a time only (warp_rows, wide_rows)
