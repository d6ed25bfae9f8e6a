// Fixture for `cl1cc tune`: a kernel the built-in policy can speed up (a
// sum accumulated through global memory) and one it cannot capture.
#include <cstdio>
#include <cstdlib>

__global__ void row_sums(int n, const float *a, float *s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        s[i] = 0.0f;
        for (int j = 0; j < n; j++)
            s[i] += a[i * n + j] * 0.5f;
    }
}

__global__ void never_launched(float *x) { x[threadIdx.x] = 1.0f; }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)malloc(bytes), *s = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < (size_t)n * n; i++)
        a[i] = (float)(i % 17) * 0.25f;
    float *da, *ds;
    cudaMalloc(&da, bytes);
    cudaMalloc(&ds, n * sizeof(float));
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    row_sums<<<(n + 127) / 128, 128>>>(n, da, ds);
    cudaMemcpy(s, ds, n * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0;
    for (int i = 0; i < n; i++)
        total += s[i];
    printf("row_sums total %.3f\n", total);
    cudaFree(da);
    cudaFree(ds);
    free(a);
    free(s);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
