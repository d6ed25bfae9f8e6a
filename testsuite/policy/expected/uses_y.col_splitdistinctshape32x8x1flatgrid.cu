refused: something besides the column index tells threads apart (threadIdx)
