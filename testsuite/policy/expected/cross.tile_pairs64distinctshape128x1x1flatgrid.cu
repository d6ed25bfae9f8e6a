refused: the tiles are made for one-dimensional blocks of 256 threads
