refused: the guard is not 'tid == 0' (tid = blockIdx.x * blockDim.x + threadIdx.x) with only thread indices declared before it
