__global__ void with_math(int n, float *__restrict__ x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { x[i] = __expf(x[i]) + __sinf(x[i]) * sqrtf(x[i]); }
}
