__global__ void running_max(float *dif, const float *x, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n)
        dif[j] = x[j];
}
