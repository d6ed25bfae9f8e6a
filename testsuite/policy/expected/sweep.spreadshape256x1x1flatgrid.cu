/* cl1cc-launch: grid.y x8 */
__global__ void sweep(float *x, const float *a, const float *b)
{
    unsigned cl1cc_slice = (blockDim.x + gridDim.y - 1) / gridDim.y;
    if (threadIdx.x >= cl1cc_slice || blockIdx.y * cl1cc_slice + threadIdx.x >= blockDim.x)
        return;
    int r = blockIdx.x * blockDim.x + (blockIdx.y * cl1cc_slice + threadIdx.x);
    if (r < N)
        for (int c = 1; c < N; c++)
            x[r * N + c] -= x[r * N + c - 1] * a[r * N + c] / b[r * N + c - 1];
}
