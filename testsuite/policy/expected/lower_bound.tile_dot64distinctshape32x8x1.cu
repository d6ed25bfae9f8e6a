refused: the loop's bounds differ between threads
