__global__ void matmul(int n, const float *a, float *b, float *c)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) {
        c[i * n + j] = 0.0f;
        { float cl1_acc0 = c[i * n + j];
        for (int k = 0; k < n; k++) {
            cl1_acc0 += a[i * n + k] * b[k * n + j]; /* read-modify-write */
        } c[i * n + j] = cl1_acc0; }
    }
}
