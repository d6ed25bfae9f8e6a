refused: a captured grid's x is not a multiple of the factor
