refused: two iterations of the loop may touch the same element of total
