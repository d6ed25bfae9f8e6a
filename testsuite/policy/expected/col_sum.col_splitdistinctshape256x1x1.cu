refused: a captured grid was not one block high and deep
