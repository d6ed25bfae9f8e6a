#include <cuda_fp16.h>
__global__ void scale_clamp(float *out, float *in, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = clamp01(__half2float(__float2half(in[i]) * __float2half(factor)));
}
