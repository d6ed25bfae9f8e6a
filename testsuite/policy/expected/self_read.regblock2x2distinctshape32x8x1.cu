refused: the loop stores to memory other than through its accumulators, or reads an accumulated array
