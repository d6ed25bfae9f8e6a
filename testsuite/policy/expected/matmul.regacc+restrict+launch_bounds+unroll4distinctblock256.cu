__global__ void __launch_bounds__(256) matmul(int n, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        c[i * n + j] = 0.0f;
        { float cl1_acc0 = c[i * n + j];
        #pragma unroll 4
        for (int k = 0; k < n; k++) {
            cl1_acc0 += a[i * n + k] * b[k * n + j]; /* read-modify-write */
        } c[i * n + j] = cl1_acc0; }
    }
}
