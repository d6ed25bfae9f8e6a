refused: the loop does not only add to elements the thread owns
