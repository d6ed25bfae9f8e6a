__global__ void row_sums(float *sums, float *m, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float *row = m + (size_t)r * cols;
        float s = 0.f;
#pragma unroll 4
        for (int c = 0; c < cols; c++)
            s += row[c];
        sums[r] = s;
    }
}
