refused: the captured grids are not known
