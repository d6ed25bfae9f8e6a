/* cl1cc-launch: grid.x sm */
__global__ void axpy(int n, float alpha, const float *x, float *y, unsigned int cl1cc_grid_x)
{
    /* cl1cc: a grid as wide as the GPU holds at once, sized at run time; each block runs the original's blocks blockIdx.x, blockIdx.x + gridDim.x, ... below cl1cc_grid_x (the original grid's width) in turn, each turn with the parameters as passed */
    for (unsigned cl1cc_bx = blockIdx.x; cl1cc_bx < cl1cc_grid_x; cl1cc_bx += gridDim.x) {
        const uint3 cl1cc_blockIdx = {cl1cc_bx, blockIdx.y, blockIdx.z};
        [=]() mutable {
    int i = threadIdx.x + blockDim.x * cl1cc_blockIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
        }();
    }
}
