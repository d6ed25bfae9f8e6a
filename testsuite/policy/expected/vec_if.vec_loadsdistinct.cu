refused: the loop holds a barrier, an if or an inner loop
