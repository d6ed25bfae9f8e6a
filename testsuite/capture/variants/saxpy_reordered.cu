__global__ void saxpy(int n, float a, const float *x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = y[i] + a * x[i];
}
