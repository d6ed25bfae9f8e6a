__global__ void matmul(int n, const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        c[i * n + j] = 0.0f;
        { float cl1_acc0 = c[i * n + j];
        for (int k = 0; k < n; k++) {
            cl1_acc0 += __ldg(&a[i * n + k]) * __ldg(&b[k * n + j]); /* read-modify-write */
        } c[i * n + j] = cl1_acc0; }
    }
}
