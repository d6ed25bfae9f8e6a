__global__ void smooth(int n, const double *in, const double *w, double *out)
{
    unsigned int j = (((unsigned long long)blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x) % ((unsigned long long)gridDim.y * blockDim.y);
    unsigned int i = (((unsigned long long)blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x) / ((unsigned long long)gridDim.y * blockDim.y);
    if (i >= 1 && i < n - 1 && j < n) {
        double s = 0;
        #pragma unroll 2
        for (int k = 0; k < 3; k++)
            s += __ldg(&w[k]) * __ldg(&in[(i + k - 1) * n + j]);
        out[i * n + j] = s * __ldg(&w[i]);
    }
}
