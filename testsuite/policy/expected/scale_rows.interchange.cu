__global__ void scale_rows(const float *a, float *b, float alpha)
{
    int i = (((unsigned long long)blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x) / ((unsigned long long)gridDim.y * blockDim.y);
    int j = (((unsigned long long)blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x) % ((unsigned long long)gridDim.y * blockDim.y);
    if (i < NI && j < NJ)
        b[i * NJ + j] = alpha * a[i * NJ + j];
}
