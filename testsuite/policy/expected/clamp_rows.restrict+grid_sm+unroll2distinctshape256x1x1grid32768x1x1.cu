/* cl1cc-launch: grid.x sm */
__global__ void clamp_rows(int n, int m, float *__restrict__ x, float limit, unsigned int cl1cc_grid_x)
{
    /* cl1cc: a grid as wide as the GPU holds at once, sized at run time; each block runs the original's blocks blockIdx.x, blockIdx.x + gridDim.x, ... below cl1cc_grid_x (the original grid's width) in turn, each turn with the parameters as passed */
    const dim3 cl1cc_gridDim = {cl1cc_grid_x, gridDim.y, gridDim.z};
    for (unsigned cl1cc_bx = blockIdx.x; cl1cc_bx < cl1cc_grid_x; cl1cc_bx += gridDim.x) {
        const uint3 cl1cc_blockIdx = {cl1cc_bx, blockIdx.y, blockIdx.z};
        [=]() mutable {
    int row = cl1cc_blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n)
        return;
    #pragma unroll 2
    for (int c = 0; c < m; c++) {
        if (x[row * m + c] > limit)
            return;
        x[row * m + c] += (float)(cl1cc_gridDim.x * blockDim.x - row); }
        }();
    }
}
