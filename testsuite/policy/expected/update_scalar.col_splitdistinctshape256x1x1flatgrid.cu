refused: the loop after the sum declares or assigns a variable, or branches
