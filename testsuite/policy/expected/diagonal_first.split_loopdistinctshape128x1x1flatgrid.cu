refused: the loop may touch an element of sym that the statements around it touch
