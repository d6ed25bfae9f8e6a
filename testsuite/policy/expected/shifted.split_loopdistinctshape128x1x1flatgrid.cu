refused: out[j1 * M + j2 - 1] is not indexed as digits "i * S + j" of the thread and the loop
