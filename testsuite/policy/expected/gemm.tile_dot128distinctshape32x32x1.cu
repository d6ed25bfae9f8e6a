refused: the tiles are made for blocks of 256 threads
