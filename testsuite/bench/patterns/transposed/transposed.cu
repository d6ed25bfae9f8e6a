// transposed.cu: 2D kernels whose x threads walk rows (the first index),
// so neighbouring lanes are a row apart, for `interchange`.  Part of cl1cc's
// benchmark programs (testsuite/bench/patterns).
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

#define N 4096

__global__ void scale_rows(const float *a, float *b, const float *row_scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j < N)
        b[i * N + j] = row_scale[i] * a[i * N + j];
}

__global__ void smooth_rows(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j > 0 && j < N - 1)
        out[i * N + j] = 0.25f * in[i * N + j - 1] + 0.5f * in[i * N + j] + 0.25f * in[i * N + j + 1];
}

int main(void)
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *h = (float *)malloc(bytes), *hs = (float *)malloc(N * sizeof(float));
    srand(11);
    for (size_t i = 0; i < (size_t)N * N; i++)
        h[i] = (float)rand() / RAND_MAX;
    for (int i = 0; i < N; i++)
        hs[i] = 1.0f + (float)i / N;
    float *a, *b, *c, *s;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&c, bytes));
    CHECK(cudaMalloc(&s, N * sizeof(float)));
    CHECK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(s, hs, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(b, 0, bytes));
    CHECK(cudaMemset(c, 0, bytes));
    dim3 block(32, 8), grid(N / 32, N / 8);
    scale_rows<<<grid, block>>>(a, b, s);
    CHECK(cudaGetLastError());
    smooth_rows<<<grid, block>>>(b, c);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, c, bytes, cudaMemcpyDeviceToHost));
    double sum = 0;
    for (size_t i = 0; i < (size_t)N * N; i++)
        sum += h[i];
    printf("checksum %.6e\n", sum);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    CHECK(cudaFree(s));
    free(h);
    free(hs);
    return 0;
}
