/*
 * cl1cc_replay.cuh: the main program of a generated replay driver.  It
 * restores one captured launch (configuration, argument bytes, the device
 * allocations the pointers point into, the __constant__ and __device__
 * variables the kernel uses), runs one kernel of the driver's
 * table on it, and writes every allocation back out; with a run count it
 * also times that kernel, and writes the allocations again as the last timed
 * run left them.  It never sees expected outputs: the parent
 * process compares.
 *
 * usage: DRIVER KERNEL-INDEX META-FILE INPUT-DIR OUTPUT-DIR [TIMED-RUNS]
 *        DRIVER @I,J,... META-FILE INPUT-DIR OUTPUT-DIR [TIMED-RUNS [ROUNDS]]
 *        DRIVER +KERNEL-INDEX META-FILE INPUT-DIR OUTPUT-DIR [INPUT-DIR OUTPUT-DIR ...]
 *        DRIVER @device FILE
 *
 * The second form (a batch) runs several kernels of the table in one
 * process, each from the same restored inputs, and writes each one's
 * allocations (and timings) under OUTPUT-DIR/kI/, which the parent made,
 * then a `done` file there.  With a run count it times them in ROUNDS
 * rounds, the order reversed every other round, and writes the allocations
 * as each one's last timed run left them.  A kernel that fails ends the
 * process; the parent sees which ones have no `done` and runs them alone.
 *
 * The third form (input sets) runs one kernel once on each of several
 * input folders of the same capture, in turn, each one's allocations to
 * the OUTPUT-DIR after its INPUT-DIR, then a `done` file there (the
 * original under several poisons, judge_inputs.c): an allocation whose
 * input file is the previous set's (a hard link) is restored from the
 * device's pristine copy, not read again.
 */
#ifndef CL1CC_REPLAY_CUH
#define CL1CC_REPLAY_CUH

#include <cuda_runtime.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    char alloc_symbol[max_args][256]; /* a __constant__ or __device__ variable's name, or "" */
};

/* the __constant__ and __device__ variables the driver's kernel uses, by
 * the names a capture gives them (set_symbols, from the generated main) */
struct symbol_ref {
    const char *name;
    const void *shadow; /* &var */
    size_t size;
};
static const symbol_ref *symbol_table = 0;
static inline void set_symbols(const symbol_ref *table)
{
    symbol_table = table;
}

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
        } else if (sscanf(line, "symbol %d %255s", &a, hex) == 2 && a >= 0 && a < max_args) {
            snprintf(c->alloc_symbol[a], sizeof c->alloc_symbol[a], "%s", hex);
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

/* the device side of one restored launch: allocations, their pristine
 * copies, the argument array pointing into them */
struct replay_state {
    capture c;
    const char *in_dir;
    void *dev[max_args], *pristine[max_args], *host[max_args];
    void *pointer_slot[max_args];
    void *args[max_args];
};

/* the device address of the variable a capture names, of the size it
 * gives */
static inline void *symbol_address(const char *name, size_t size)
{
    for (const symbol_ref *r = symbol_table; r && r->name; r++)
        if (strcmp(r->name, name) == 0) {
            if (r->size != size)
                die(2, name, "the variable's size differs from the capture's");
            void *p = 0;
            check(cudaGetSymbolAddress(&p, r->shadow), "cudaGetSymbolAddress");
            return p;
        }
    die(2, "the capture's variable is not in this driver", name);
    return 0;
}

static inline void restore_state(replay_state *s, const char *in_dir)
{
    capture &c = s->c;
    char path[8192];
    s->in_dir = in_dir;
    for (int a = 0; a < c.nallocs; a++) {
        snprintf(path, sizeof path, "%s/alloc%d.in", in_dir, a);
        s->host[a] = read_file(path, c.alloc_size[a]);
        if (c.alloc_symbol[a][0])
            s->dev[a] = symbol_address(c.alloc_symbol[a], c.alloc_size[a]);
        else
            check(cudaMalloc(&s->dev[a], c.alloc_size[a] ? c.alloc_size[a] : 1), "cudaMalloc");
        check(cudaMalloc(&s->pristine[a], c.alloc_size[a] ? c.alloc_size[a] : 1), "cudaMalloc");
        check(cudaMemcpy(s->dev[a], s->host[a], c.alloc_size[a], cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemcpy(s->pristine[a], s->host[a], c.alloc_size[a], cudaMemcpyHostToDevice),
              "cudaMemcpy");
    }
    for (int i = 0; i < c.nargs; i++) {
        if (c.arg_alloc[i] >= 0) {
            s->pointer_slot[i] = (char *)s->dev[c.arg_alloc[i]] + c.arg_offset[i];
            s->args[i] = &s->pointer_slot[i];
        } else {
            s->args[i] = c.arg_bytes[i];
        }
    }
}

/* the inputs of in_dir, a later input set of the same capture, in place of
 * the state's: an allocation whose file is the one loaded before (the same
 * inode) comes from its pristine copy, any other is read and copied in */
static inline void reload_state(replay_state *s, const char *in_dir)
{
    char path[8192], before[8192];
    for (int a = 0; a < s->c.nallocs; a++) {
        size_t size = s->c.alloc_size[a];
        snprintf(path, sizeof path, "%s/alloc%d.in", in_dir, a);
        snprintf(before, sizeof before, "%s/alloc%d.in", s->in_dir, a);
        struct stat now_st, before_st;
        if (stat(path, &now_st) == 0 && stat(before, &before_st) == 0 &&
            now_st.st_dev == before_st.st_dev && now_st.st_ino == before_st.st_ino) {
            check(cudaMemcpy(s->dev[a], s->pristine[a], size, cudaMemcpyDeviceToDevice), "restore");
            continue;
        }
        free(s->host[a]);
        s->host[a] = read_file(path, size);
        check(cudaMemcpy(s->dev[a], s->host[a], size, cudaMemcpyHostToDevice), "cudaMemcpy");
        check(cudaMemcpy(s->pristine[a], s->host[a], size, cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    s->in_dir = in_dir;
}

static inline void reset_inputs(replay_state *s)
{
    for (int a = 0; a < s->c.nallocs; a++)
        check(cudaMemcpy(s->dev[a], s->pristine[a], s->c.alloc_size[a], cudaMemcpyDeviceToDevice),
              "restore");
}

/* 1 when the allocation differs from its pristine inputs, compared on
 * the GPU (a gigabyte read back and written only where it changed) */
__global__ void cl1cc_differs(const unsigned char *a, const unsigned char *b, size_t n, int *flag)
{
    size_t words = n / 8, step = (size_t)gridDim.x * blockDim.x;
    const unsigned long long *wa = (const unsigned long long *)a;
    const unsigned long long *wb = (const unsigned long long *)b;
    int differs = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += step)
        differs |= wa[i] != wb[i];
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (size_t i = words * 8; i < n; i++)
            differs |= a[i] != b[i];
    if (differs)
        *flag = 1;
}

static inline int changed(replay_state *s, int a)
{
    static int *flag = 0;
    if (!flag)
        check(cudaMalloc(&flag, sizeof *flag), "cudaMalloc");
    int host = 0;
    check(cudaMemset(flag, 0, sizeof *flag), "cudaMemset");
    cl1cc_differs<<<264, 256>>>((const unsigned char *)s->dev[a],
                                (const unsigned char *)s->pristine[a], s->c.alloc_size[a], flag);
    check(cudaGetLastError(), "compare");
    check(cudaMemcpy(&host, flag, sizeof host, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return host;
}

/* every allocation to out_dir/allocN.out: one left as it was is a hard
 * link to its inputs' file (the parent then compares without reading) */
static inline void write_outputs(replay_state *s, const char *out_dir)
{
    char path[8192], in_path[8192];
    for (int a = 0; a < s->c.nallocs; a++) {
        snprintf(path, sizeof path, "%s/alloc%d.out", out_dir, a);
        snprintf(in_path, sizeof in_path, "%s/alloc%d.in", s->in_dir, a);
        unlink(path);
        if (!changed(s, a) && link(in_path, path) == 0)
            continue;
        check(cudaMemcpy(s->host[a], s->dev[a], s->c.alloc_size[a], cudaMemcpyDeviceToHost),
              "cudaMemcpy");
        write_file(path, s->host[a], s->c.alloc_size[a]);
    }
}

static inline void prepare_kernel(const capture &c, const void *kernel)
{
    if (c.shmem > 48 * 1024)
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)c.shmem),
              "cudaFuncSetAttribute");
}

/* the grid and block a kernel is launched on; with_grid_x: a "grid.x sm"
 * variant, which takes the original grid's x as one more argument, last */
struct launch_shape {
    dim3 grid, block;
    int with_grid_x;
    unsigned grid_x;
};

/* sizes a "grid.x sm" variant's grid (core/launch_rule.h) */
typedef unsigned (*sm_grid_fn)(dim3 grid, dim3 block, size_t shmem);

static inline void launch(replay_state *s, const void *kernel, const launch_shape &l)
{
    void *args[max_args + 1];
    unsigned grid_x = l.grid_x;
    memcpy(args, s->args, sizeof(void *) * (size_t)s->c.nargs);
    args[s->c.nargs] = &grid_x;
    check(cudaLaunchKernel(kernel, l.grid, l.block, l.with_grid_x ? args : s->args, s->c.shmem, 0),
          "launch");
}

/* L2 flushed before every timed launch by writing a buffer twice its size */
struct flusher {
    void *buf;
    size_t size;
};

static inline flusher make_flusher(void)
{
    int device = 0, l2 = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "attribute");
    flusher f;
    f.size = (size_t)(l2 > 0 ? l2 : 64 << 20) * 2;
    f.buf = 0;
    check(cudaMalloc(&f.buf, f.size), "cudaMalloc");
    return f;
}

/* warm-up and timed launches of one kernel, each from the pristine inputs
 * on a flushed L2, timed by events on the default stream and ended by a
 * whole-device synchronize (work moved to another stream still counts).
 * A long kernel needs fewer: after a warm-up of over LONG_LAUNCH_MS the
 * timed runs start, and they end once 3 of them add up to TIMED_BUDGET_MS
 * (a 1-second kernel: 1 warm-up and 3 timed runs a round, not 3 and 20).
 * With give_up_ms > 0, a kernel whose first two timed runs both take
 * longer stops there (a variant clearly slower than a long original: two
 * samples still tell it is slower, beyond the noise) */
#define CL1CC_LONG_LAUNCH_MS 100.0f
#define CL1CC_TIMED_BUDGET_MS 1000.0
struct timed_summary {
    double total_ms; /* the timed runs' sum */
    float max_ms;
    int gave_up;
};
static inline timed_summary time_kernel(replay_state *s, const void *kernel, const launch_shape &shape,
                                        int timed_runs, const flusher &fl, FILE *t, float give_up_ms)
{
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    const int warmup = 3;
    timed_summary sum = {0, 0, 0};
    float fastest = 0;
    for (int r = -warmup; r < timed_runs; r++) {
        reset_inputs(s);
        check(cudaMemset(fl.buf, r & 0xff, fl.size), "flush");
        check(cudaDeviceSynchronize(), "sync");
        check(cudaEventRecord(start, 0), "record");
        launch(s, kernel, shape);
        check(cudaEventRecord(stop, 0), "record");
        check(cudaDeviceSynchronize(), "kernel");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        if (r < 0 && ms > CL1CC_LONG_LAUNCH_MS)
            r = -1; /* warm enough: the timed runs come next */
        if (r >= 0) {
            fprintf(t, "%.6f\n", ms);
            sum.total_ms += ms;
            sum.max_ms = ms > sum.max_ms ? ms : sum.max_ms;
            fastest = r == 0 || ms < fastest ? ms : fastest;
            if (r == 1 && give_up_ms > 0 && fastest > give_up_ms) {
                sum.gave_up = 1;
                break;
            }
            if (r >= 2 && sum.total_ms >= CL1CC_TIMED_BUDGET_MS)
                break;
        }
    }
    check(cudaEventDestroy(start), "cudaEventDestroy");
    check(cudaEventDestroy(stop), "cudaEventDestroy");
    return sum;
}

/* the captured launch as kernel `which` asks for it (core/launch_rule.h):
 * rules[which] = {grid.y times, block.x times, block.x divided by, block.y
 * times, block.y divided by, grid.x divided by}; with a block rule the grid
 * changes the other way.  A launch the rule does not fit is an error (the
 * policy proposes no such variant) */
static inline launch_shape shape_for(const capture &c, const unsigned (*rules)[6], const sm_grid_fn *sm_grids,
                                     int which)
{
    launch_shape l = {c.grid, c.block, 0, 0};
    if (sm_grids && sm_grids[which]) {
        l.with_grid_x = 1;
        l.grid_x = c.grid.x;
        l.grid.x = sm_grids[which](c.grid, c.block, c.shmem);
        return l;
    }
    if (!rules)
        return l;
    const unsigned *r = rules[which];
    l.grid.y *= r[0];
    if ((r[1] > 1 && l.grid.x % r[1]) || (r[3] > 1 && l.grid.y % r[3]) || l.block.x % r[2] ||
        l.block.y % r[4] || l.grid.x % r[5])
        die(2, "launch rule", "the captured launch does not divide as the variant's rule asks");
    l.grid.x /= r[5];
    l.grid.x = l.grid.x / r[1] * r[2];
    l.grid.y = l.grid.y / r[3] * r[4];
    l.block.x = l.block.x / r[2] * r[1];
    l.block.y = l.block.y / r[4] * r[3];
    return l;
}

static inline void mark_done(const char *dir)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/done", dir);
    write_file(path, "done\n", 5);
}

static inline int run_batch(char **argv, int argc, const void *const *kernels, int nkernels,
                            const unsigned (*rules)[6], const sm_grid_fn *sm_grids)
{
    int list[256], n = 0;
    for (const char *p = argv[1] + 1; *p && n < 256;) {
        char *end;
        long k = strtol(p, &end, 10);
        if (end == p || k < 0 || k >= nkernels)
            die(2, "kernel list", "bad or out-of-range index");
        list[n++] = (int)k;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            die(2, "kernel list", "indices are separated by commas");
    }
    if (n == 0)
        die(2, "kernel list", "empty");
    int timed_runs = argc > 5 ? atoi(argv[5]) : 0;
    int rounds = argc > 6 ? atoi(argv[6]) : 1;
    if (rounds < 1)
        rounds = 1;
    static replay_state s;
    read_meta(argv[2], &s.c);
    restore_state(&s, argv[3]);
    char dir[8192], path[8300];
    for (int i = 0; i < n; i++)
        prepare_kernel(s.c, kernels[list[i]]);
    if (timed_runs <= 0) {
        for (int i = 0; i < n; i++) {
            reset_inputs(&s);
            launch(&s, kernels[list[i]], shape_for(s.c, rules, sm_grids, list[i]));
            check(cudaDeviceSynchronize(), "kernel");
            snprintf(dir, sizeof dir, "%s/k%d", argv[4], list[i]);
            write_outputs(&s, dir);
            mark_done(dir);
        }
        return 0;
    }
    /* Rounds average out drift for short kernels.  A round in which every
     * kernel got a second of timed launches (or gave up as clearly slower
     * than a long original, index 0) is enough: no more rounds after it */
    flusher fl = make_flusher();
    float give_up_ms = 0;
    for (int round = 0; round < rounds; round++) {
        int enough = 1;
        for (int j = 0; j < n; j++) {
            int i = round % 2 ? n - 1 - j : j;
            snprintf(dir, sizeof dir, "%s/k%d", argv[4], list[i]);
            snprintf(path, sizeof path, "%s/timings", dir);
            FILE *t = fopen(path, round ? "a" : "w");
            if (!t)
                die(2, path, strerror(errno));
            timed_summary sum = time_kernel(&s, kernels[list[i]], shape_for(s.c, rules, sm_grids, list[i]), timed_runs,
                                            fl, t, list[i] == 0 ? 0 : give_up_ms);
            if (fclose(t) != 0)
                die(2, path, "cannot write");
            if (round == 0 && list[i] == 0 && sum.max_ms > CL1CC_LONG_LAUNCH_MS)
                give_up_ms = 1.5f * sum.max_ms;
            int done = sum.gave_up || sum.total_ms >= CL1CC_TIMED_BUDGET_MS;
            enough &= done;
            if (round == rounds - 1 || done) /* as its last timed run left them */
                write_outputs(&s, dir);
        }
        if (enough)
            break;
    }
    for (int i = 0; i < n; i++) {
        snprintf(dir, sizeof dir, "%s/k%d", argv[4], list[i]);
        mark_done(dir);
    }
    return 0;
}

/* kernel `which` of the table on the capture of meta, its inputs from
 * in_dir restored: the kernel, and in *l its launch's shape */
static inline const void *open_kernel(replay_state *s, int which, const char *meta,
                                      const char *in_dir, const void *const *kernels, int nkernels,
                                      const unsigned (*rules)[6], const sm_grid_fn *sm_grids,
                                      launch_shape *l)
{
    if (which < 0 || which >= nkernels)
        die(2, "kernel index", "out of range");
    read_meta(meta, &s->c);
    restore_state(s, in_dir);
    const void *kernel = kernels[which];
    prepare_kernel(s->c, kernel);
    *l = shape_for(s->c, rules, sm_grids, which);
    return kernel;
}

/* `DRIVER +K META IN OUT [IN OUT ...]`: kernel K once on each input set */
static inline int run_sets(char **argv, int argc, const void *const *kernels, int nkernels,
                           const unsigned (*rules)[6], const sm_grid_fn *sm_grids)
{
    if (argc < 5 || (argc - 3) % 2 != 0)
        die(2, "usage", "DRIVER +KERNEL-INDEX META-FILE INPUT-DIR OUTPUT-DIR [INPUT-DIR OUTPUT-DIR ...]");
    static replay_state s;
    launch_shape l;
    const void *kernel = open_kernel(&s, atoi(argv[1] + 1), argv[2], argv[3], kernels, nkernels,
                                     rules, sm_grids, &l);
    for (int p = 3; p + 1 < argc; p += 2) {
        if (p > 3)
            reload_state(&s, argv[p]);
        launch(&s, kernel, l);
        check(cudaDeviceSynchronize(), "kernel");
        write_outputs(&s, argv[p + 1]);
        mark_done(argv[p + 1]);
    }
    return 0;
}

/* `DRIVER @device FILE`: the GPU's figures for the roofline (harness.h's
 * hn_device_peaks_read): the best of 5 device-to-device copies of 512 MiB
 * (bytes read plus written a second), SMs, clock, compute capability */
static inline int measure_device(const char *path)
{
    int device = 0, sms = 0, clock_khz = 0, major = 0, minor = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
    check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device), "attribute");
    check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "attribute");
    check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "attribute");
    size_t size = (size_t)512 << 20;
    void *a = 0, *b = 0;
    check(cudaMalloc(&a, size), "cudaMalloc");
    check(cudaMalloc(&b, size), "cudaMalloc");
    check(cudaMemset(a, 1, size), "cudaMemset");
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    float best = 0;
    for (int r = 0; r < 6; r++) { /* the first warms up */
        check(cudaEventRecord(start, 0), "record");
        check(cudaMemcpy(b, a, size, cudaMemcpyDeviceToDevice), "cudaMemcpy");
        check(cudaEventRecord(stop, 0), "record");
        check(cudaEventSynchronize(stop), "sync");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        if (r > 0 && (best == 0 || ms < best))
            best = ms;
    }
    check(cudaFree(a), "cudaFree");
    check(cudaFree(b), "cudaFree");
    char text[256];
    int n = snprintf(text, sizeof text, "copy_bytes_per_s %.6e\nsms %d\nclock_khz %d\ncc %d %d\n",
                     best > 0 ? 2.0 * (double)size / (best * 1e-3) : 0.0, sms, clock_khz, major, minor);
    write_file(path, text, (size_t)n);
    return 0;
}

static inline int run(int argc, char **argv, const void *const *kernels, int nkernels,
                      const unsigned (*rules)[6], const sm_grid_fn *sm_grids)
{
    if (argc == 3 && strcmp(argv[1], "@device") == 0)
        return measure_device(argv[2]);
    if (argc < 5)
        die(2, "usage", "DRIVER KERNEL-INDEX META-FILE INPUT-DIR OUTPUT-DIR [TIMED-RUNS]");
    if (argv[1][0] == '@')
        return run_batch(argv, argc, kernels, nkernels, rules, sm_grids);
    if (argv[1][0] == '+')
        return run_sets(argv, argc, kernels, nkernels, rules, sm_grids);
    int timed_runs = argc > 5 ? atoi(argv[5]) : 0;
    static replay_state s;
    launch_shape l;
    const void *kernel =
        open_kernel(&s, atoi(argv[1]), argv[2], argv[3], kernels, nkernels, rules, sm_grids, &l);
    launch(&s, kernel, l);
    check(cudaDeviceSynchronize(), "kernel");
    write_outputs(&s, argv[4]);
    if (timed_runs > 0) {
        flusher fl = make_flusher();
        char path[8192];
        snprintf(path, sizeof path, "%s/timings", argv[4]);
        FILE *t = fopen(path, "w");
        if (!t)
            die(2, path, strerror(errno));
        time_kernel(&s, kernel, l, timed_runs, fl, t, 0);
        if (fclose(t) != 0)
            die(2, path, "cannot write");
        /* the outputs of the last timed run replace the first: a kernel that
         * skips work after its first launch (caching) must not look fast
         * and still pass */
        write_outputs(&s, argv[4]);
    }
    return 0;
}

/* the instantiation a capture's meta names ("instance k<256, float>"), into
 * out ("" when none) */
static inline void meta_instance(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(2, path, strerror(errno));
    char line[2 * max_value_bytes + 256];
    out[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "instance ", 9) == 0) {
            size_t n = strcspn(line + 9, "\n");
            if (n >= size)
                n = size - 1;
            memcpy(out, line + 9, n);
            out[n] = '\0';
        }
    fclose(f);
}

/* A template kernel's driver: a row of the table (original and variants,
 * nkernels of them) per instantiation; the capture's instantiation picks
 * the row, and a capture of another one is an error. */
static inline int run_instance(int argc, char **argv, const char *const *instances,
                               int ninstances, const void *const *kernels, int nkernels,
                               const unsigned (*rules)[6], const sm_grid_fn *sm_grids)
{
    if (argc == 3 && strcmp(argv[1], "@device") == 0)
        return measure_device(argv[2]);
    if (argc < 5)
        die(2, "usage", "DRIVER KERNEL-INDEX META-FILE INPUT-DIR OUTPUT-DIR [TIMED-RUNS]");
    char instance[1024];
    meta_instance(argv[2], instance, sizeof instance);
    for (int i = 0; i < ninstances; i++)
        if (strcmp(instances[i], instance) == 0)
            return run(argc, argv, kernels + i * nkernels, nkernels, rules, sm_grids + i * nkernels);
    die(2, "the capture's instantiation is not in this driver", instance[0] ? instance : "(none)");
    return 2;
}

} // namespace cl1cc_replay

#endif
