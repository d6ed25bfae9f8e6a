// vector_scale.cu: the bundled example.  A small program whose kernels the
// tuner can improve; it checks its own result and exits non-zero if wrong.
#include <cstdio>
#include <cstdlib>

#define N (1 << 22)
#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                               \
            exit(2);                                                       \
        }                                                                  \
    } while (0)

__device__ float clamp01(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); }

__global__ void scale_clamp(float *out, float *in, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = clamp01(in[i] * factor);
}

__global__ void row_sums(float *sums, float *m, int rows, int cols)
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
    const int rows = 2048, cols = N / 2048;
    float *h = (float *)malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        h[i] = (float)(i % 1000) / 1000.f;
    float *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, N * sizeof(float)));
    CHECK(cudaMalloc(&d_out, N * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, rows * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h, N * sizeof(float), cudaMemcpyHostToDevice));
    scale_clamp<<<(N + 255) / 256, 256>>>(d_out, d_in, 1.5f, N);
    row_sums<<<(rows + 127) / 128, 128>>>(d_sums, d_out, rows, cols);
    CHECK(cudaGetLastError());
    float *sums = (float *)malloc(rows * sizeof(float));
    CHECK(cudaMemcpy(sums, d_sums, rows * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < rows; r++) {
        float s = 0.f;
        for (int c = 0; c < cols; c++) {
            float v = h[r * cols + c] * 1.5f;
            s += v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
        }
        if (s - sums[r] > 1e-2f * s || sums[r] - s > 1e-2f * s)
            bad++;
    }
    printf("vector_scale: %d of %d row sums wrong\n", bad, rows);
    return bad != 0;
}
