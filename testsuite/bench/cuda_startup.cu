// cuda_startup.cu: how long a process takes to start CUDA, run one tiny
// kernel and exit, the cost every judge run pays (run.sh's `startup`).
// `cuda_startup hold S` keeps a context open for S seconds (a process
// holding the GPU initialized, as nvidia-persistenced would).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main(int argc, char **argv)
{
    int *p = 0;
    if (cudaMalloc(&p, 128 * sizeof(int)) != cudaSuccess) {
        fprintf(stderr, "cuda_startup: no GPU\n");
        return 1;
    }
    touch<<<1, 128>>>(p);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    if (argc == 3 && strcmp(argv[1], "hold") == 0)
        sleep((unsigned)atoi(argv[2]));
    cudaFree(p);
    return 0;
}
