refused: no "i = blockIdx.x * blockDim.x + threadIdx.x" and "j = blockIdx.y * blockDim.y + threadIdx.y" at the top of the body
