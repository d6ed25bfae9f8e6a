refused: two transforms that each make the grid taller
