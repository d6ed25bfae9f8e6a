__global__ void matmul(int n, const float *a, float *b, float *c)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        c[i * n + j] = 0.0f;
        for (int k = 0; k < n; k++) {
            c[i * n + j] += __ldg(&a[i * n + k]) * __ldg(&b[k * n + j]); /* read-modify-write */
        }
    }
}
