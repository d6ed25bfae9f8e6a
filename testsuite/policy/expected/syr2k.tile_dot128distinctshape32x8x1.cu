refused: the loop's sum adds more than one product a step
