refused: the pointer arguments may alias (not distinct at every captured launch)
