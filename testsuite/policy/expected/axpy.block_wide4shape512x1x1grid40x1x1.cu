refused: blocks of more than 1024 threads
