// emulate.h: runs a kernel's text on the CPU, one thread after another, so
// that a variant that renumbers threads (spread, interchange) or shares a
// block's work through shared memory (regblock) can be checked against the
// original on any grid without a GPU (testsuite/policy/emulate.sh).
// emu_launch runs each thread to its end; emu_launch_synced runs a block's
// threads as coroutines (ucontext) that switch at __syncthreads(), so
// __shared__ arrays and barriers behave as on the GPU.  No warp intrinsics.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <ucontext.h>
#include <vector>

struct emu_dim3 {
    unsigned x, y, z;
};
static emu_dim3 threadIdx, blockIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __restrict__
#define __shared__ static
#define __syncthreads() emu_barrier()
static void emu_barrier();

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

/* the coroutines of one block: each thread runs until it reaches a barrier
 * or returns, then the next; a round ends when every thread has */
struct emu_fiber {
    ucontext_t context;
    emu_dim3 index;
    bool done;
};
static ucontext_t emu_scheduler;
static emu_fiber *emu_current;
static std::function<void()> emu_body;
static bool emu_synced;

static void emu_barrier()
{
    if (!emu_synced) {
        printf("FAIL: __syncthreads() in a kernel run by emu_launch (use emu_launch_synced)\n");
        exit(1);
    }
    swapcontext(&emu_current->context, &emu_scheduler);
}

static void emu_fiber_start()
{
    emu_body();
    emu_current->done = true;
}

template <class Kernel> static void emu_launch_synced(emu_dim3 grid, emu_dim3 block, Kernel k)
{
    const size_t stack_bytes = 256 * 1024;
    size_t threads = (size_t)block.x * block.y * block.z;
    std::vector<emu_fiber> fibers(threads);
    std::vector<char> stacks(threads * stack_bytes);
    gridDim = grid, blockDim = block, emu_body = k, emu_synced = true;
    for (blockIdx.z = 0; blockIdx.z < grid.z; blockIdx.z++)
        for (blockIdx.y = 0; blockIdx.y < grid.y; blockIdx.y++)
            for (blockIdx.x = 0; blockIdx.x < grid.x; blockIdx.x++) {
                for (size_t t = 0; t < threads; t++) {
                    emu_fiber *f = &fibers[t];
                    f->index = {(unsigned)(t % block.x), (unsigned)(t / block.x % block.y),
                                (unsigned)(t / block.x / block.y)};
                    f->done = false;
                    getcontext(&f->context);
                    f->context.uc_stack.ss_sp = &stacks[t * stack_bytes];
                    f->context.uc_stack.ss_size = stack_bytes;
                    f->context.uc_link = &emu_scheduler;
                    makecontext(&f->context, emu_fiber_start, 0);
                }
                for (size_t running = threads; running > 0;) {
                    running = 0;
                    for (size_t t = 0; t < threads; t++) {
                        if (fibers[t].done)
                            continue;
                        emu_current = &fibers[t];
                        threadIdx = fibers[t].index;
                        swapcontext(&emu_scheduler, &fibers[t].context);
                        running += !fibers[t].done;
                    }
                }
            }
    emu_synced = false;
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
