// Runs both TUs' launches of the header kernel and prints a checksum.
#include <cstdio>

void run_a(float *d, int n);
void run_b(float *d, int n);

int main()
{
    const int n = 1000;
    float *d;
    if (cudaMallocManaged(&d, n * sizeof *d) != cudaSuccess)
        return 1;
    for (int i = 0; i < n; i++)
        d[i] = (float)(i % 17) * 0.25f;
    run_a(d, n);
    run_b(d, n);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += d[i];
    printf("sum %.3f first %.3f last %.3f\n", sum, d[0], d[n - 1]);
    cudaFree(d);
    return 0;
}
