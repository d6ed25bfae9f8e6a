refused: the statements around the loop are not simple (declarations with values, blocks, comments, or the loop variable used after it)
