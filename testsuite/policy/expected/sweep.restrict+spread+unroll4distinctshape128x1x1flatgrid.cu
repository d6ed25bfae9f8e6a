/* cl1cc-launch: grid.y x4 */
__global__ void sweep(float *__restrict__ x, const float *__restrict__ a, const float *__restrict__ b)
{
    unsigned cl1cc_slice = (blockDim.x + gridDim.y - 1) / gridDim.y;
    if (threadIdx.x >= cl1cc_slice || blockIdx.y * cl1cc_slice + threadIdx.x >= blockDim.x)
        return;
    int r = blockIdx.x * blockDim.x + (blockIdx.y * cl1cc_slice + threadIdx.x);
    if (r < N)
        #pragma unroll 4
        for (int c = 1; c < N; c++)
            x[r * N + c] -= x[r * N + c - 1] * a[r * N + c] / b[r * N + c - 1];
}
