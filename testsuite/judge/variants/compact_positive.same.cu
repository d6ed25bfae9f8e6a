__global__ void compact_positive(float *out, int *count, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = __ldg(&x[i]);
        if (v > 0.f)
            out[atomicAdd(count, 1)] = v;
    }
}
