refused: no read-only float or double array read at E + the loop variable
