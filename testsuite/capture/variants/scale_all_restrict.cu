__global__ void scale_all(float *__restrict__ data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = scaled(data[i]);
}
