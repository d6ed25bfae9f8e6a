/* cl1cc-launch: grid.x /4 */
__global__ void smooth(const float *a, float *b)
{
    /* cl1cc: a grid 4 times narrower; each block runs the original's blocks blockIdx.x + t * gridDim.x in turn (t < 4), each turn with the parameters as passed */
    for (unsigned cl1cc_turn = 0; cl1cc_turn < 4u; cl1cc_turn++) {
        const uint3 cl1cc_blockIdx = {blockIdx.x + cl1cc_turn * gridDim.x, blockIdx.y, blockIdx.z};
        [=]() mutable {
    int j = cl1cc_blockIdx.x * blockDim.x + threadIdx.x;
    int i = cl1cc_blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < NI - 1 && j > 0 && j < NJ - 1)
        b[FLAT(i, j)] = 0.2f * (a[FLAT(i, j)] + a[FLAT(i - 1, j)] + a[FLAT(i + 1, j)] +
                                a[FLAT(i, j - 1)] + a[FLAT(i, j + 1)]);
        }();
    }
}
