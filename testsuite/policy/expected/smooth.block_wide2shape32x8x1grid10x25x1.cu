/* cl1cc-launch: block x*2 y/2 */
__global__ void smooth(const float *a, float *b)
{
    /* cl1cc: the thread's coordinates in the launch this kernel was written for (reshaped: block x*2 y/2) */
    const uint3 cl1cc_threadIdx = {threadIdx.x % (blockDim.x / 2u), blockIdx.y % 2u * blockDim.y + threadIdx.y, threadIdx.z};
    const uint3 cl1cc_blockIdx = {blockIdx.x * 2u + threadIdx.x / (blockDim.x / 2u), blockIdx.y / 2u, blockIdx.z};
    const dim3 cl1cc_blockDim = {blockDim.x / 2u, blockDim.y * 2u, blockDim.z};
    int j = cl1cc_blockIdx.x * cl1cc_blockDim.x + cl1cc_threadIdx.x;
    int i = cl1cc_blockIdx.y * cl1cc_blockDim.y + cl1cc_threadIdx.y;
    if (i > 0 && i < NI - 1 && j > 0 && j < NJ - 1)
        b[FLAT(i, j)] = 0.2f * (a[FLAT(i, j)] + a[FLAT(i - 1, j)] + a[FLAT(i + 1, j)] +
                                a[FLAT(i, j - 1)] + a[FLAT(i, j + 1)]);
}
