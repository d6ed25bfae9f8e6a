refused: something before the loop is not a declaration with a value the same in every thread
