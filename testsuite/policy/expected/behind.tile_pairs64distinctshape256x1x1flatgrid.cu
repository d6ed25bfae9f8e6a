refused: the loop's lower bound is neither the same in every thread nor the row plus a constant
