refused: something else tells the threads apart (__shared__)
