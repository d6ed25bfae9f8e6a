__global__ void running_min(float *dif, const float *x, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        const float v = __ldg(&x[j]);
        dif[j] = fminf(dif[j], v);
    }
}
