refused: something else tells the threads apart (row_total)
