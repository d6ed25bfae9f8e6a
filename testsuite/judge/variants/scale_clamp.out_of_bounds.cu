__global__ void scale_clamp(float *out, float *in, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = clamp01(in[i] * factor);
    if (i == 0)
        out[n + (1 << 24)] = 0.f; /* far past the end: an illegal address */
}
