__global__ void running_max(float *dif, const float *x, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        const float v = __ldg(&x[j]);
        dif[j] = fmaxf(dif[j], v);
    }
}
