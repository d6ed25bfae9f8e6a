// emulate.h: runs a kernel's text on the CPU, one thread after another, so
// that a variant that renumbers threads (spread, interchange) or shares a
// block's work through shared memory (regblock) can be checked against the
// original on any grid without a GPU (testsuite/policy/emulate.sh).
// emu_launch runs each thread to its end; emu_launch_synced runs a block's
// threads as coroutines (ucontext) that wait at __syncthreads(), __syncwarp(),
// __shfl_down_sync() and __shfl_sync() as on the GPU, so __shared__ arrays,
// barriers and shuffles behave as there.  No other warp intrinsics.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <functional>
#include <ucontext.h>
#include <vector>

struct emu_dim3 {
    unsigned x, y, z;
};
static emu_dim3 threadIdx, blockIdx, blockDim, gridDim;
typedef emu_dim3 uint3;
typedef emu_dim3 dim3;
/* CUDA's vector types, aligned as on the GPU */
struct alignas(16) float4 {
    float x, y, z, w;
};
struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) double2 {
    double x, y;
};
#define __global__
#define __device__
#define __restrict__
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
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

/* the coroutines of one block: each thread runs until it waits at a
 * barrier or returns, then the next.  A barrier lets its threads go when
 * every thread of the block that has not returned reached it (as on sm_70
 * and later); a warp's barrier (__syncwarp, each half of a shuffle) when
 * every lane of the warp that has not returned did.  A round of the
 * scheduler in which no thread arrives anywhere or returns is a deadlock
 * (a barrier some threads never reach): reported, and the run fails. */
struct emu_fiber {
    ucontext_t context;
    emu_dim3 index;
    bool done;
};
struct emu_gate {
    size_t live, arrived;
    unsigned long generation;
};
static ucontext_t emu_scheduler;
static emu_fiber *emu_current;
static std::function<void()> emu_body;
static bool emu_synced;
static emu_gate emu_block_gate, emu_warp_gates[32];
static unsigned long emu_progress;
static int emu_or_slots[2]; /* __syncthreads_or's rounds */
/* emu_launch_synced runs a block's threads from the last to the first:
 * between two barriers a later lane then stores before an earlier one
 * loads, which a missing barrier shows where the first-to-last order
 * happens to be the original's */
static bool emu_reverse_order;
static unsigned char emu_slots[1024][16]; /* a shuffle's values, by thread */

static size_t emu_flat_thread()
{
    return threadIdx.x + (size_t)blockDim.x * (threadIdx.y + (size_t)blockDim.y * threadIdx.z);
}

static void emu_arrive(emu_gate *g, const char *what)
{
    if (!emu_synced) {
        printf("FAIL: %s in a kernel run by emu_launch (use emu_launch_synced)\n", what);
        exit(1);
    }
    emu_progress++;
    unsigned long generation = g->generation;
    if (++g->arrived == g->live) {
        g->arrived = 0;
        g->generation++;
        if (g == &emu_block_gate)
            emu_or_slots[g->generation % 2] = 0;
        return;
    }
    while (g->generation == generation)
        swapcontext(&emu_current->context, &emu_scheduler);
}

static void emu_barrier() { emu_arrive(&emu_block_gate, "__syncthreads()"); }

/* __syncthreads_or: the or of every live thread's predicate.  A barrier's
 * threads all arrive in one generation of the gate; they leave it before
 * any arrives at the next, so two slots, cleared as the gate opens, hold
 * the value of a round and of the one after */
static int __syncthreads_or(int predicate)
{
    unsigned long generation = emu_block_gate.generation;
    if (predicate)
        emu_or_slots[generation % 2] = 1;
    emu_barrier();
    return emu_or_slots[generation % 2];
}

static void __syncwarp(unsigned = 0xffffffffu) { emu_arrive(&emu_warp_gates[emu_flat_thread() / 32], "__syncwarp()"); }

template <class T> static T __shfl_down_sync(unsigned, T value, int delta)
{
    size_t t = emu_flat_thread(), lane = t % 32;
    memcpy(emu_slots[t], &value, sizeof value);
    __syncwarp();
    T got = value;
    if (lane + delta < 32 && t + delta < (size_t)blockDim.x * blockDim.y * blockDim.z)
        memcpy(&got, emu_slots[t + delta], sizeof got);
    __syncwarp();
    return got;
}

/* __shfl_sync: lane src's value (of the caller's warp), every lane of
 * which must call it, as on the GPU with a full mask */
template <class T> static T __shfl_sync(unsigned, T value, int src)
{
    size_t t = emu_flat_thread(), from = t - t % 32 + (size_t)(src & 31);
    memcpy(emu_slots[t], &value, sizeof value);
    __syncwarp();
    T got = value;
    if (from < (size_t)blockDim.x * blockDim.y * blockDim.z)
        memcpy(&got, emu_slots[from], sizeof got);
    __syncwarp();
    return got;
}

static void emu_fiber_start()
{
    emu_body();
    emu_current->done = true;
}

/* a thread returned: the barriers it will not reach wait for one fewer */
static void emu_leave(emu_gate *g)
{
    g->live--;
    if (g->arrived > 0 && g->arrived == g->live) {
        g->arrived = 0;
        g->generation++;
        if (g == &emu_block_gate)
            emu_or_slots[g->generation % 2] = 0;
    }
}

template <class Kernel> static void emu_launch_synced(emu_dim3 grid, emu_dim3 block, Kernel k)
{
    const size_t stack_bytes = 256 * 1024;
    size_t threads = (size_t)block.x * block.y * block.z;
    if (threads > 1024) {
        printf("FAIL: a block of more than 1024 threads\n");
        exit(1);
    }
    std::vector<emu_fiber> fibers(threads);
    std::vector<char> stacks(threads * stack_bytes);
    gridDim = grid, blockDim = block, emu_body = k, emu_synced = true;
    for (blockIdx.z = 0; blockIdx.z < grid.z; blockIdx.z++)
        for (blockIdx.y = 0; blockIdx.y < grid.y; blockIdx.y++)
            for (blockIdx.x = 0; blockIdx.x < grid.x; blockIdx.x++) {
                emu_block_gate = {threads, 0, 0};
                emu_or_slots[0] = emu_or_slots[1] = 0;
                for (size_t w = 0; w < 32; w++)
                    emu_warp_gates[w] = {w * 32 < threads ? std::min<size_t>(32, threads - w * 32) : 0, 0, 0};
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
                    unsigned long before = emu_progress;
                    running = 0;
                    for (size_t i = 0; i < threads; i++) {
                        size_t t = emu_reverse_order ? threads - 1 - i : i;
                        if (fibers[t].done)
                            continue;
                        emu_current = &fibers[t];
                        threadIdx = fibers[t].index;
                        swapcontext(&emu_scheduler, &fibers[t].context);
                        if (fibers[t].done) {
                            emu_progress++;
                            emu_leave(&emu_block_gate);
                            emu_leave(&emu_warp_gates[t / 32]);
                        }
                        running += !fibers[t].done;
                    }
                    if (running > 0 && emu_progress == before) {
                        printf("FAIL: deadlock: block (%u, %u, %u) waits at a barrier that %zu of its "
                               "threads never reach\n",
                               blockIdx.x, blockIdx.y, blockIdx.z, running);
                        exit(1);
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

/* multiples of 1/4 in [0.25, 2]: sums and products of a few thousand of
 * them are exact, so a variant that reassociates a sum (col_split) must
 * still give the original's bits */
template <class T> static void emu_fill_quarters(T *p, size_t n, unsigned seed)
{
    srand(seed);
    for (size_t i = 0; i < n; i++)
        p[i] = (T)(0.25 * (1 + rand() % 8));
}

static int emu_same(const char *what, const void *a, const void *b, size_t bytes)
{
    if (memcmp(a, b, bytes) == 0)
        return 0;
    printf("FAIL %s: the variant's output differs from the original's\n", what);
    return 1;
}
