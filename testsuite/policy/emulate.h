// emulate.h: runs a kernel's text on the CPU, one thread after another, so
// that a variant that renumbers threads (spread, interchange) can be checked
// against the original on any grid without a GPU (testsuite/policy/
// emulate.sh).  Only for kernels without barriers, shared state between
// threads, or warp intrinsics.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct emu_dim3 {
    unsigned x, y, z;
};
static emu_dim3 threadIdx, blockIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __restrict__
#define __shared__ static

template <class Kernel> static void emu_launch(emu_dim3 grid, emu_dim3 block, Kernel k)
{
    gridDim = grid, blockDim = block;
    for (blockIdx.z = 0; blockIdx.z < grid.z; blockIdx.z++)
        for (blockIdx.y = 0; blockIdx.y < grid.y; blockIdx.y++)
            for (blockIdx.x = 0; blockIdx.x < grid.x; blockIdx.x++)
                for (threadIdx.z = 0; threadIdx.z < block.z; threadIdx.z++)
                    for (threadIdx.y = 0; threadIdx.y < block.y; threadIdx.y++)
                        for (threadIdx.x = 0; threadIdx.x < block.x; threadIdx.x++)
                            k();
}

template <class T> static void emu_fill(T *p, size_t n, unsigned seed)
{
    srand(seed);
    for (size_t i = 0; i < n; i++)
        p[i] = (T)(0.5 + (double)rand() / RAND_MAX);
}

static int emu_same(const char *what, const void *a, const void *b, size_t bytes)
{
    if (memcmp(a, b, bytes) == 0)
        return 0;
    printf("FAIL %s: the variant's output differs from the original's\n", what);
    return 1;
}
