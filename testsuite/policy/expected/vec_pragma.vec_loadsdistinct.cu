refused: a #pragma stands before the loop
