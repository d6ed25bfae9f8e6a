refused: not one float output updated in the loop
