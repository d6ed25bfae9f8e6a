refused: after the loop, not straight-line statements storing the sum
