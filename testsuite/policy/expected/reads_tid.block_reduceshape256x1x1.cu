refused: the loop does not only add to locals, with terms the same in every thread
