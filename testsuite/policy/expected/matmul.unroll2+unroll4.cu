refused: two unroll factors
