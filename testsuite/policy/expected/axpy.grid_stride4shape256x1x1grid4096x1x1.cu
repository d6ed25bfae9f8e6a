refused: the narrower grid would have fewer than 1056 blocks (8 an SM)
