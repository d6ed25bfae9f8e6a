__global__ void squares(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = clampf(out[i], -1.f, 1.f);
    out[i] = v * v;
    atomicAdd(&hits, 1);
}
