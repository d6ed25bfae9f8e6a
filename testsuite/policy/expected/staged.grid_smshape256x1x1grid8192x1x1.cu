refused: the block's threads share more than memory (__shared__)
