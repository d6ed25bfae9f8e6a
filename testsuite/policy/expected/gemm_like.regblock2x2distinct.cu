refused: the captured launches do not agree on one block shape
