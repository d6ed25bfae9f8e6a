__global__ void signed_sums(float *sums, const float *m, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float part[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
        int c = 0;
        for (; c + 8 <= cols; c += 8)
#pragma unroll
            for (int k = 0; k < 8; k++)
                part[k] += m[r * cols + c + k];
        for (; c < cols; c++)
            part[0] += m[r * cols + c];
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < 8; k++)
            s += part[k];
        sums[r] = s;
    }
}
