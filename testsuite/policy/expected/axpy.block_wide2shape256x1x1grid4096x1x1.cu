/* cl1cc-launch: block x*2 */
__global__ void axpy(int n, float alpha, const float *x, float *y)
{
    /* cl1cc: the thread's coordinates in the launch this kernel was written for (reshaped: block x*2) */
    const uint3 cl1cc_threadIdx = {threadIdx.x % (blockDim.x / 2u), threadIdx.y, threadIdx.z};
    const uint3 cl1cc_blockIdx = {blockIdx.x * 2u + threadIdx.x / (blockDim.x / 2u), blockIdx.y, blockIdx.z};
    const dim3 cl1cc_blockDim = {blockDim.x / 2u, blockDim.y, blockDim.z};
    int i = cl1cc_threadIdx.x + cl1cc_blockDim.x * cl1cc_blockIdx.x;
    if (i < n)
        y[i] = alpha * x[i] + y[i];
}
