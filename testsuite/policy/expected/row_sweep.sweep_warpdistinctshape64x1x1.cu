refused: the kernel reads blockIdx.y or gridDim.y, which the taller grid changes, or a captured grid was not one block high and deep
