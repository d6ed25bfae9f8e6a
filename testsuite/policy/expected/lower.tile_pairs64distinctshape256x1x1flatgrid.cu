refused: the loop's upper bound differs between threads
