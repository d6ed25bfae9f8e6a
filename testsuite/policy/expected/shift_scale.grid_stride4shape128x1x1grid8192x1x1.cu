/* cl1cc-launch: grid.x /4 */
__global__ void shift_scale(float *x, int n)
{
    /* cl1cc: a grid 4 times narrower; each block runs the original's blocks blockIdx.x + t * gridDim.x in turn (t < 4), each turn with the parameters as passed */
    for (unsigned cl1cc_turn = 0; cl1cc_turn < 4u; cl1cc_turn++) {
        const uint3 cl1cc_blockIdx = {blockIdx.x + cl1cc_turn * gridDim.x, blockIdx.y, blockIdx.z};
        [=]() mutable {
    x += cl1cc_blockIdx.x * blockDim.x;
    n -= cl1cc_blockIdx.x * blockDim.x;
    if ((int)threadIdx.x < n)
        x[threadIdx.x] *= 2;
        }();
    }
}
