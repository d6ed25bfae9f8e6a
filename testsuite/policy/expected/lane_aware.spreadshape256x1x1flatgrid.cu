refused: something else tells the threads apart (threadIdx)
