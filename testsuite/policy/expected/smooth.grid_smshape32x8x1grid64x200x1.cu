/* cl1cc-launch: grid.x sm */
__global__ void smooth(const float *a, float *b, unsigned int cl1cc_grid_x)
{
    /* cl1cc: a grid as wide as the GPU holds at once, sized at run time; each block runs the original's blocks blockIdx.x, blockIdx.x + gridDim.x, ... below cl1cc_grid_x (the original grid's width) in turn, each turn with the parameters as passed */
    for (unsigned cl1cc_bx = blockIdx.x; cl1cc_bx < cl1cc_grid_x; cl1cc_bx += gridDim.x) {
        const uint3 cl1cc_blockIdx = {cl1cc_bx, blockIdx.y, blockIdx.z};
        [=]() mutable {
    int j = cl1cc_blockIdx.x * blockDim.x + threadIdx.x;
    int i = cl1cc_blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < NI - 1 && j > 0 && j < NJ - 1)
        b[FLAT(i, j)] = 0.2f * (a[FLAT(i, j)] + a[FLAT(i - 1, j)] + a[FLAT(i + 1, j)] +
                                a[FLAT(i, j - 1)] + a[FLAT(i, j + 1)]);
        }();
    }
}
