refused: the sum's first value is not the same in every thread
