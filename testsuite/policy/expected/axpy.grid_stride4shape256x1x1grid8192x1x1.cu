/* cl1cc-launch: grid.x /4 */
__global__ void axpy(int n, float alpha, const float *x, float *y)
{
    /* cl1cc: a grid 4 times narrower; each block runs the original's blocks blockIdx.x + t * gridDim.x in turn (t < 4), each turn with the parameters as passed */
    for (unsigned cl1cc_turn = 0; cl1cc_turn < 4u; cl1cc_turn++) {
        const uint3 cl1cc_blockIdx = {blockIdx.x + cl1cc_turn * gridDim.x, blockIdx.y, blockIdx.z};
        [=]() mutable {
    int i = threadIdx.x + blockDim.x * cl1cc_blockIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
        }();
    }
}
