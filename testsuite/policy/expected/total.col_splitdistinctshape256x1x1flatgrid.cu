refused: an element summed into is not indexed by the column
