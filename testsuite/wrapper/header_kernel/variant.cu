static __global__ void __launch_bounds__(256) scale_all(float *__restrict__ data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = scaled(data[i]);
}
