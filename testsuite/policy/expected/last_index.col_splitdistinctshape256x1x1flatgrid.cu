refused: the loop variable is read after the loop
