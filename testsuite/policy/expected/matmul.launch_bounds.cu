refused: no captured launch tells the block size
