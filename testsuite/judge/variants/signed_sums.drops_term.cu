__global__ void signed_sums(float *sums, const float *m, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.f;
        for (int c = 0; c + 1 < cols; c++)
            s += m[r * cols + c];
        sums[r] = s;
    }
}
