refused: the product does not read one read-only float array by the row index and one by the column index (X[i*S+k] or X[k*S+i])
