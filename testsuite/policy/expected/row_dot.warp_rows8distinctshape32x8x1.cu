refused: the block's rows do not split evenly over its warps, or into groups of rows
