refused: no array element updated in a loop at a fixed index
