// atomics.cu: naive atomic reductions as users write them (a count under a
// condition, a sum into one scalar, a histogram), for `atomic_warp`.
// Part of cl1cc's benchmark programs (testsuite/bench/patterns).
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

__global__ void count_above(const int *v, unsigned int *count, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] > threshold)
        atomicAdd(count, 1u);
}

__global__ void sum_values(const int *v, unsigned long long *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(sum, (unsigned long long)v[i]);
}

__global__ void histogram(const int *v, unsigned int *bins, int n, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[v[i] % nbins], 1u);
}

int main(void)
{
    const int n = 1 << 24, nbins = 64, threads = 256;
    int *h = (int *)malloc(n * sizeof(int));
    srand(7);
    for (int i = 0; i < n; i++)
        h[i] = rand() % 1000;
    int *v;
    unsigned int *count, *bins;
    unsigned long long *sum;
    CHECK(cudaMalloc(&v, n * sizeof(int)));
    CHECK(cudaMalloc(&count, sizeof(unsigned int)));
    CHECK(cudaMalloc(&sum, sizeof(unsigned long long)));
    CHECK(cudaMalloc(&bins, nbins * sizeof(unsigned int)));
    CHECK(cudaMemcpy(v, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(count, 0, sizeof(unsigned int)));
    CHECK(cudaMemset(sum, 0, sizeof(unsigned long long)));
    CHECK(cudaMemset(bins, 0, nbins * sizeof(unsigned int)));
    int blocks = (n + threads - 1) / threads;
    count_above<<<blocks, threads>>>(v, count, n, 499);
    CHECK(cudaGetLastError());
    sum_values<<<blocks, threads>>>(v, sum, n);
    CHECK(cudaGetLastError());
    histogram<<<blocks, threads>>>(v, bins, n, nbins);
    CHECK(cudaGetLastError());
    unsigned int c, hb[64];
    unsigned long long s;
    CHECK(cudaMemcpy(&c, count, sizeof c, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost));
    printf("count %u sum %llu bin0 %u\n", c, s, hb[0]);
    CHECK(cudaFree(v));
    CHECK(cudaFree(count));
    CHECK(cudaFree(sum));
    CHECK(cudaFree(bins));
    free(h);
    return 0;
}
