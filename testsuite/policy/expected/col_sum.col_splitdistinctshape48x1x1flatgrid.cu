refused: the block's x size is not whole slices of columns, or leaves one row phase
