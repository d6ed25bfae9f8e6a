// signed_sums.cu: row sums of terms that mostly cancel (+1000, -1000, ...):
// a reordered sum is as accurate as the original yet differs from it by
// far more than 1e-5 of the result.  The judge test checks that such a
// variant passes and that one dropping a term does not.
#include <cstdio>
#include <cstdlib>

__global__ void signed_sums(float *sums, const float *m, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.f;
        for (int c = 0; c < cols; c++)
            s += m[r * cols + c];
        sums[r] = s;
    }
}

int main()
{
    const int rows = 2048, cols = 2048;
    size_t n = (size_t)rows * cols;
    float *h = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) {
        int r = (int)(i / cols), c = (int)(i % cols);
        h[i] = (c & 1 ? -1000.f : 1000.f) + (float)((r + c) % 13) * 0.37f;
    }
    float *d_m, *d_sums;
    if (cudaMalloc(&d_m, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&d_sums, rows * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(d_m, h, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "signed_sums: CUDA setup failed\n");
        return 2;
    }
    signed_sums<<<(rows + 127) / 128, 128>>>(d_sums, d_m, rows, cols);
    float first;
    if (cudaMemcpy(&first, d_sums, sizeof first, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "signed_sums: the kernel failed\n");
        return 2;
    }
    printf("signed_sums: row 0 sums to %g\n", first);
    return 0;
}
