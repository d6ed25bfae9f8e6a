/* cl1cc-launch: grid.x /16 */
__global__ void clamp_rows(int n, int m, float *__restrict__ x, float limit)
{
    /* cl1cc: a grid 16 times narrower; each block runs the original's blocks blockIdx.x + t * gridDim.x in turn (t < 16), each turn with the parameters as passed */
    const dim3 cl1cc_gridDim = {gridDim.x * 16u, gridDim.y, gridDim.z};
    for (unsigned cl1cc_turn = 0; cl1cc_turn < 16u; cl1cc_turn++) {
        const uint3 cl1cc_blockIdx = {blockIdx.x + cl1cc_turn * gridDim.x, blockIdx.y, blockIdx.z};
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
