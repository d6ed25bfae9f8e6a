// Runs the header kernel through both TUs and prints the totals.
#include <cstdio>
#include <cstdlib>

void sums_a(int n, const float *a, float *s);
void sums_b(int n, const float *a, float *s);

static double total(const float *ds, int n)
{
    float *s = (float *)malloc(n * sizeof(float));
    cudaMemcpy(s, ds, n * sizeof(float), cudaMemcpyDeviceToHost);
    double t = 0;
    for (int i = 0; i < n; i++)
        t += s[i];
    free(s);
    return t;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++)
        a[i] = (float)(i % 17) * 0.25f;
    float *da, *ds;
    cudaMalloc(&da, bytes);
    cudaMalloc(&ds, n * sizeof(float));
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    sums_a(n, da, ds);
    double ta = total(ds, n);
    sums_b(n, da, ds);
    double tb = total(ds, n);
    printf("row_sums totals %.3f %.3f\n", ta, tb);
    cudaFree(da);
    cudaFree(ds);
    free(a);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
