__global__ void tiled(int n, float *x, float *y)
{
    __shared__ float tile[TILE];
    int i = threadIdx.x;
    #pragma unroll 2
    for (int j = 0; j < n; j += TILE) {
        tile[i % TILE] = x[j + i % TILE];
        __syncthreads();
        y[i] += tile[(i + 1) % TILE];
        __syncthreads();
    }
}
