refused: no read of a row by the thread's own index (A[i*n+k] with k the loop variable)
