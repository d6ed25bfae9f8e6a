/* cl1cc-launch: block x/2 y*2 */
__global__ void stamp(unsigned *out, int n)
{
    /* cl1cc: the thread's coordinates in the launch this kernel was written for (reshaped: block x/2 y*2) */
    const uint3 cl1cc_threadIdx = {blockIdx.x % 2u * blockDim.x + threadIdx.x, threadIdx.y % (blockDim.y / 2u), threadIdx.z};
    const uint3 cl1cc_blockIdx = {blockIdx.x / 2u, blockIdx.y * 2u + threadIdx.y / (blockDim.y / 2u), blockIdx.z};
    const dim3 cl1cc_blockDim = {blockDim.x * 2u, blockDim.y / 2u, blockDim.z};
    const dim3 cl1cc_gridDim = {gridDim.x / 2u, gridDim.y * 2u, gridDim.z};
    unsigned x = cl1cc_blockIdx.x * cl1cc_blockDim.x + cl1cc_threadIdx.x;
    unsigned y = cl1cc_blockIdx.y * cl1cc_blockDim.y + cl1cc_threadIdx.y;
    unsigned width = n < 0 ? 0u : cl1cc_gridDim.x * cl1cc_blockDim.x; /* threadIdx.x's row */
    if (x < (unsigned)n && y < (unsigned)n)
        out[y * width + x] = (cl1cc_blockIdx.x * 7u + cl1cc_blockIdx.y) * 1000u + cl1cc_threadIdx.y * cl1cc_blockDim.x +
                             cl1cc_threadIdx.x + (cl1cc_gridDim.y << 20);
}
