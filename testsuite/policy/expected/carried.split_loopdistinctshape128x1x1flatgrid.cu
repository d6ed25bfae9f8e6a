refused: the loop carries s from one iteration to the next
