__global__ void nest(int n, int m, const double *in, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int r = 0; r < m; ++r)
        for (int q = 0; q < m; ++q)
            out[i] += __ldg(&in[(r * m + q) * n + i]) * weight(1.0f);
}
