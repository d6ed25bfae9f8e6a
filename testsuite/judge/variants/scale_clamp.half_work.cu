__global__ void scale_clamp(float *out, float *in, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = clamp01(in[i] * factor);
}
