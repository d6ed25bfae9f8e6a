/*
 * cl1cc_replay.cuh: the main program of a generated replay driver.  It
 * restores one captured launch (configuration, argument bytes, the device
 * allocations the pointers point into), runs one kernel of the driver's
 * table on it, and writes every allocation back out; with a run count it
 * also times that kernel, and writes the allocations again as the last timed
 * run left them.  It never sees expected outputs: the parent
 * process compares.
 *
 * usage: DRIVER KERNEL-INDEX META-FILE INPUT-DIR OUTPUT-DIR [TIMED-RUNS]
 */
#ifndef CL1CC_REPLAY_CUH
#define CL1CC_REPLAY_CUH

#include <cuda_runtime.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace cl1cc_replay {

enum { max_args = 64, max_value_bytes = 4096 };

struct capture {
    dim3 grid, block;
    size_t shmem;
    int nallocs;
    size_t alloc_size[max_args];
    int nargs;
    int arg_alloc[max_args]; /* -1: a value */
    unsigned long long arg_offset[max_args];
    size_t arg_size[max_args];
    unsigned char arg_bytes[max_args][max_value_bytes];
};

static inline void die(int code, const char *what, const char *detail)
{
    fprintf(stderr, "cl1cc-replay: %s: %s\n", what, detail);
    exit(code);
}

static inline void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        die(3, what, cudaGetErrorString(e));
}

static inline int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static inline void read_meta(const char *path, capture *c)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(2, path, strerror(errno));
    memset(c, 0, sizeof *c);
    char line[2 * max_value_bytes + 256];
    int ended = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned x, y, z;
        int i, a;
        size_t n;
        unsigned long long off;
        char hex[2 * max_value_bytes + 2];
        if (sscanf(line, "grid %u %u %u", &x, &y, &z) == 3)
            c->grid = dim3(x, y, z);
        else if (sscanf(line, "block %u %u %u", &x, &y, &z) == 3)
            c->block = dim3(x, y, z);
        else if (sscanf(line, "shmem %zu", &n) == 1)
            c->shmem = n;
        else if (sscanf(line, "alloc %d %zu", &a, &n) == 2 && a >= 0 && a < max_args) {
            c->alloc_size[a] = n;
            if (a + 1 > c->nallocs)
                c->nallocs = a + 1;
        } else if (sscanf(line, "arg %d pointer %d %llu", &i, &a, &off) == 3 && i >= 0 &&
                   i < max_args && a >= 0 && a < max_args) {
            c->arg_alloc[i] = a;
            c->arg_offset[i] = off;
            c->arg_size[i] = sizeof(void *);
            if (i + 1 > c->nargs)
                c->nargs = i + 1;
        } else if (sscanf(line, "arg %d value %zu %8193s", &i, &n, hex) >= 2 && i >= 0 &&
                   i < max_args && n <= max_value_bytes) {
            c->arg_alloc[i] = -1;
            c->arg_size[i] = n;
            for (size_t k = 0; k < n; k++) {
                int hi = hex_value(hex[2 * k]), lo = hex_value(hex[2 * k + 1]);
                if (hi < 0 || lo < 0)
                    die(2, path, "bad argument bytes");
                c->arg_bytes[i][k] = (unsigned char)(hi * 16 + lo);
            }
            if (i + 1 > c->nargs)
                c->nargs = i + 1;
        } else if (strncmp(line, "end", 3) == 0) {
            ended = 1;
        }
    }
    fclose(f);
    if (!ended)
        die(2, path, "incomplete capture (no end line)");
}

static inline void *read_file(const char *path, size_t size)
{
    void *buf = malloc(size ? size : 1);
    FILE *f = fopen(path, "rb");
    if (!buf || !f)
        die(2, path, strerror(errno));
    if (fread(buf, 1, size, f) != size)
        die(2, path, "shorter than the capture says");
    fclose(f);
    return buf;
}

static inline void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        die(2, path, "cannot write");
}

static inline int run(int argc, char **argv, const void *const *kernels, int nkernels)
{
    if (argc < 5)
        die(2, "usage", "DRIVER KERNEL-INDEX META-FILE INPUT-DIR OUTPUT-DIR [TIMED-RUNS]");
    int which = atoi(argv[1]);
    if (which < 0 || which >= nkernels)
        die(2, "kernel index", "out of range");
    int timed_runs = argc > 5 ? atoi(argv[5]) : 0;
    static capture c;
    read_meta(argv[2], &c);

    void *dev[max_args] = {0}, *pristine[max_args] = {0}, *host[max_args] = {0};
    char path[8192];
    for (int a = 0; a < c.nallocs; a++) {
        snprintf(path, sizeof path, "%s/alloc%d.in", argv[3], a);
        host[a] = read_file(path, c.alloc_size[a]);
        check(cudaMalloc(&dev[a], c.alloc_size[a] ? c.alloc_size[a] : 1), "cudaMalloc");
        check(cudaMalloc(&pristine[a], c.alloc_size[a] ? c.alloc_size[a] : 1), "cudaMalloc");
        check(cudaMemcpy(dev[a], host[a], c.alloc_size[a], cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemcpy(pristine[a], host[a], c.alloc_size[a], cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    void *pointer_slot[max_args];
    void *args[max_args];
    for (int i = 0; i < c.nargs; i++) {
        if (c.arg_alloc[i] >= 0) {
            pointer_slot[i] = (char *)dev[c.arg_alloc[i]] + c.arg_offset[i];
            args[i] = &pointer_slot[i];
        } else {
            args[i] = c.arg_bytes[i];
        }
    }
    const void *kernel = kernels[which];
    if (c.shmem > 48 * 1024)
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)c.shmem),
              "cudaFuncSetAttribute");
    check(cudaLaunchKernel(kernel, c.grid, c.block, args, c.shmem, 0), "launch");
    check(cudaDeviceSynchronize(), "kernel");
    for (int a = 0; a < c.nallocs; a++) {
        check(cudaMemcpy(host[a], dev[a], c.alloc_size[a], cudaMemcpyDeviceToHost), "cudaMemcpy");
        snprintf(path, sizeof path, "%s/alloc%d.out", argv[4], a);
        write_file(path, host[a], c.alloc_size[a]);
    }
    if (timed_runs > 0) {
        /* L2 flushed before every run by writing a buffer twice its size */
        int device = 0, l2 = 0;
        check(cudaGetDevice(&device), "cudaGetDevice");
        check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "attribute");
        size_t flush_size = (size_t)(l2 > 0 ? l2 : 64 << 20) * 2;
        void *flush = 0;
        check(cudaMalloc(&flush, flush_size), "cudaMalloc");
        cudaEvent_t start, stop;
        check(cudaEventCreate(&start), "cudaEventCreate");
        check(cudaEventCreate(&stop), "cudaEventCreate");
        snprintf(path, sizeof path, "%s/timings", argv[4]);
        FILE *t = fopen(path, "w");
        if (!t)
            die(2, path, strerror(errno));
        const int warmup = 3;
        for (int r = -warmup; r < timed_runs; r++) {
            /* every run starts from the captured inputs */
            for (int a = 0; a < c.nallocs; a++)
                check(cudaMemcpy(dev[a], pristine[a], c.alloc_size[a], cudaMemcpyDeviceToDevice),
                      "restore");
            check(cudaMemset(flush, r & 0xff, flush_size), "flush");
            check(cudaDeviceSynchronize(), "sync");
            check(cudaEventRecord(start, 0), "record");
            check(cudaLaunchKernel(kernel, c.grid, c.block, args, c.shmem, 0), "launch");
            check(cudaEventRecord(stop, 0), "record");
            /* the whole device, every stream, before the time counts */
            check(cudaDeviceSynchronize(), "kernel");
            float ms = 0;
            check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
            if (r >= 0)
                fprintf(t, "%.6f\n", ms);
        }
        if (fclose(t) != 0)
            die(2, path, "cannot write");
        /* the outputs of the last timed run replace the first: a kernel that
         * skips work after its first launch (caching) must not look fast
         * and still pass */
        for (int a = 0; a < c.nallocs; a++) {
            check(cudaMemcpy(host[a], dev[a], c.alloc_size[a], cudaMemcpyDeviceToHost), "cudaMemcpy");
            snprintf(path, sizeof path, "%s/alloc%d.out", argv[4], a);
            write_file(path, host[a], c.alloc_size[a]);
        }
    }
    return 0;
}

} // namespace cl1cc_replay

#endif
