refused: the loop reads no read-only float array at E + its variable (or stores by it)
