refused: the captured grids are not one block high (the variant's grid is taller)
