refused: the loop variable is used after the loop
