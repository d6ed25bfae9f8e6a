refused: the captured block is not one-dimensional, of 64 to 1024 threads in whole warps
