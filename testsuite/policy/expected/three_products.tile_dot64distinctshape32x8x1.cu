refused: the loop's sum adds more than two products a step, or subtracts
