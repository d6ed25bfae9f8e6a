// sweep.cu: a recurrence along each row, a row a thread, on a grid of few
// blocks (1024 rows in blocks of 256: 4 of the GPU's SMs busy), for
// `spread`.  Part of cl1cc's benchmark programs (testsuite/bench/patterns).
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

#define N 1024

__global__ void sweep_rows(float *x, const float *a, const float *b)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < N)
        for (int c = 1; c < N; c++)
            x[r * N + c] = x[r * N + c] - x[r * N + c - 1] * a[r * N + c] / b[r * N + c - 1];
}

int main(void)
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *h = (float *)malloc(bytes);
    float *x, *a, *b;
    CHECK(cudaMalloc(&x, bytes));
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    srand(5);
    for (size_t i = 0; i < (size_t)N * N; i++)
        h[i] = 0.5f + (float)rand() / RAND_MAX;
    CHECK(cudaMemcpy(x, h, bytes, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < (size_t)N * N; i++)
        h[i] = 0.1f * (float)rand() / RAND_MAX;
    CHECK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < (size_t)N * N; i++)
        h[i] = 1.0f + (float)rand() / RAND_MAX;
    CHECK(cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice));
    sweep_rows<<<N / 256, 256>>>(x, a, b);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, x, bytes, cudaMemcpyDeviceToHost));
    double sum = 0;
    for (size_t i = 0; i < (size_t)N * N; i++)
        sum += h[i];
    printf("checksum %.9e\n", sum);
    CHECK(cudaFree(x));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    free(h);
    return 0;
}
