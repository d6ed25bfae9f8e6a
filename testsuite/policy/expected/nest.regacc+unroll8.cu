__global__ void nest(int n, int m, const double *in, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    { double cl1_acc0 = out[i];
    for (int r = 0; r < m; ++r)
        #pragma unroll 8
        for (int q = 0; q < m; ++q)
            cl1_acc0 += in[(r * m + q) * n + i] * weight(1.0f); out[i] = cl1_acc0; }
}
