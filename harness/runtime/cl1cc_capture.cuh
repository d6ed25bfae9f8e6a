/*
 * cl1cc_capture.cuh: compiled into the user's program by `cl1cc tune` (the
 * instrumented launch sites include it).  For the first few launches of each
 * kernel it saves the launch configuration, the argument bytes and, for every pointer argument, the
 * whole device allocation it points into, before and after the launch (an
 * allocation the launch left as it was: its outputs file a hard link to its
 * inputs'; a large file equal to one written before: a hard link to that;
 * both told apart on the GPU by a fingerprint, so that neither copies a
 * large allocation to the host again),
 * and the __constant__ and __device__ variables the kernel uses
 * (named in the meta), under $CL1CC_CAPTURE_DIR.  Without that variable set it
 * does nothing but launch.
 */
#ifndef CL1CC_CAPTURE_CUH
#define CL1CC_CAPTURE_CUH

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Everything here is the TU's own (an unnamed namespace): each TU counts
 * its own kernels' launches by their index in it.  As inline functions of
 * one namespace, the copies of two instrumented TUs (mergeSort's bitonic.cu
 * and mergeSort.cu, linked together) were one symbol to the linker, which
 * kept either TU's: the launch's constructor then read one TU's counts and
 * claim() bumped the other's, and the limit never held (49 captures where
 * 2 a kernel were asked for, 860 MB of them, a minute of checks). */
namespace cl1cc_capture {
namespace {

enum { max_args = 64, max_kernels = 4096 };

/* CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p),
 * through dlopen so the user's link line needs nothing new */
typedef int (*range_fn)(unsigned long long *, size_t *, unsigned long long);

static inline range_fn address_range()
{
    static range_fn fn = 0;
    static int tried = 0;
    if (!tried) {
        tried = 1;
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        if (lib)
            fn = (range_fn)dlsym(lib, "cuMemGetAddressRange_v2");
    }
    return fn;
}

static inline const char *capture_dir()
{
    const char *d = getenv("CL1CC_CAPTURE_DIR");
    return d && *d ? d : 0;
}

static inline int capture_limit()
{
    const char *l = getenv("CL1CC_CAPTURE_LIMIT");
    int n = l ? atoi(l) : 0;
    return n > 0 ? n : 3;
}

static inline int *launch_counts()
{
    static int counts[max_kernels];
    return counts;
}

/* The instantiation a template kernel's launch runs, as the host compiler
 * spells it ("k<256, float>", "ns::k<unsigned int>"): F is the kernel's
 * pointer type, f the instantiation.  gcc writes "[with F = ...; F f =
 * k<256, float>]", clang "[F = ..., f = &k<256, float>]". */
template <class F, F f>
inline const char *instance_text()
{
    return __PRETTY_FUNCTION__;
}

/* the instantiation out of instance_text()'s text, into out */
static inline void instance_name(const char *pretty, char *out, size_t size)
{
    const char *p = 0;
    for (const char *q = pretty; (q = strstr(q, " f = ")) != 0; q++)
        p = q + 5;
    out[0] = '\0';
    if (!p)
        return;
    if (*p == '&')
        p++;
    const char *end = strrchr(p, ']');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n >= size)
        n = size - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

/* the parameter types of a kernel through its pointer: what the arguments
 * of a template kernel's launch are converted to */
template <int I, class... P>
struct param_at;
template <class H, class... P>
struct param_at<0, H, P...> {
    typedef H type;
};
template <int I, class H, class... P>
struct param_at<I, H, P...> {
    typedef typename param_at<I - 1, P...>::type type;
};
template <int I, class... P>
inline typename param_at<I, P...>::type arg_as(void (*)(P...), typename param_at<I, P...>::type v)
{
    return v;
}

/* The instantiation a launch deduces inside a function template, named by
 * the return type of the kernel's "twin" (a declaration capture adds, with
 * the kernel's template header and parameter types):
 * decltype(twin(args...))::fn is the instantiation's pointer, a constant. */
template <class F, F f>
struct kernel_tag {
    typedef F type;
    static constexpr F fn = f;
};

/* whether a converted argument is a pointer (its allocation is saved) */
template <class T>
inline int is_pointer(T *const &)
{
    return 1;
}
template <class T>
inline int is_pointer(const T &)
{
    return 0;
}

/* launches captured per (kernel, instantiation): each instantiation of a
 * template kernel gets its own first N captures; bump: count this one */
enum { max_instances = 1024 };
static inline int instance_count(int index, const char *instance, int bump)
{
    static int kernel_of[max_instances], count[max_instances];
    static char name[max_instances][256];
    static int used = 0;
    for (int i = 0; i < used; i++)
        if (kernel_of[i] == index && strncmp(name[i], instance, sizeof name[i]) == 0)
            return bump ? count[i]++ : count[i];
    if (used == max_instances)
        return 1 << 30;
    if (!bump)
        return 0;
    kernel_of[used] = index;
    snprintf(name[used], sizeof name[used], "%s", instance);
    count[used] = 1;
    return used++, 0;
}


static inline void fail(const char *what, const char *detail)
{
    fprintf(stderr, "cl1cc capture: %s: %s\n", what, detail);
}

static inline int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fail(path, strerror(errno));
        return -1;
    }
    int ok = fwrite(data, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        fail(path, "short write");
    return ok ? 0 : -1;
}

/* ---- a large allocation's fingerprint, on the GPU ----------------------
 * Whether a launch left a large allocation as it was, and whether an input
 * equals one saved before, is told from a 128-bit fingerprint computed
 * where the bytes are (HeCBench's accuracy: six captures of one 328 MB
 * input; copying each to the host twice, hashing and comparing took three
 * times the program's own run).  Each 8-byte word w at index i adds
 * mix_a(w ^ f(i)) to one sum and mix_b(w * g + h(i)) to another, both
 * bijective in w: two allocations a word apart always differ in both; more
 * differences cancel by chance only (about 2^-64 a lane).  A wrong "equal"
 * could only make the original fail to reproduce its own capture (the
 * judge re-runs the original for its reference), so it never passes a
 * wrong variant.  Allocations under link_min_bytes, or not 8-byte aligned,
 * and any failure of the GPU's part, take the host path (bytes copied,
 * hashed and compared on the host). */
struct fingerprint {
    unsigned long long lane[2];
};

__host__ __device__ inline unsigned long long print_mix_a(unsigned long long x)
{
    x ^= x >> 30; /* splitmix64's finaliser: a bijection */
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

__host__ __device__ inline unsigned long long print_mix_b(unsigned long long x)
{
    x ^= x >> 33; /* murmur3's fmix64: another */
    x *= 0xFF51AFD7ED558CCDULL;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ULL;
    return x ^ (x >> 33);
}

/* word i's part of the two sums */
__host__ __device__ inline void print_word(unsigned long long w, unsigned long long i,
                                           unsigned long long *a, unsigned long long *b)
{
    *a += print_mix_a(w ^ (i * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL));
    *b += print_mix_b(w * 0xD6E8FEB86659FD93ULL + (i + 1) * 0xA0761D6478BD642FULL);
}

/* the bytes past the last whole word, as one word zero-filled, at index
 * size / 8 (so that size tells them apart too: sizes are compared anyway) */
__host__ __device__ inline unsigned long long print_tail(const unsigned char *p, size_t size)
{
    unsigned long long w = 0;
    for (size_t k = size & ~(size_t)7; k < size; k++)
        w |= (unsigned long long)p[k] << (8 * (k & 7));
    return w;
}

/* the fingerprint on the host: the GPU's, computed the slow way (tests) */
static inline fingerprint host_fingerprint(const void *data, size_t size)
{
    const unsigned char *p = (const unsigned char *)data;
    unsigned long long a = 0, b = 0;
    size_t words = size / 8;
    for (size_t i = 0; i < words; i++) {
        unsigned long long w;
        memcpy(&w, p + 8 * i, sizeof w);
        print_word(w, i, &a, &b);
    }
    if (size & 7)
        print_word(print_tail(p, size), words, &a, &b);
    fingerprint f = {{a, b}};
    return f;
}

__global__ void fingerprint_kernel(const unsigned long long *words, size_t size,
                                   unsigned long long *sums)
{
    unsigned long long a = 0, b = 0;
    size_t n = size / 8;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        print_word(words[i], i, &a, &b);
    if ((size & 7) && blockIdx.x == 0 && threadIdx.x == 0)
        print_word(print_tail((const unsigned char *)words, size), n, &a, &b);
    for (int o = 16; o > 0; o /= 2) {
        a += __shfl_down_sync(0xffffffffu, a, o);
        b += __shfl_down_sync(0xffffffffu, b, o);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&sums[0], a);
        atomicAdd(&sums[1], b);
    }
}

/* 1 when the GPU's part is turned off (CL1CC_CAPTURE_HOST_COMPARE=1: the
 * host path for everything, to compare the two) */
static inline int prints_off()
{
    const char *v = getenv("CL1CC_CAPTURE_HOST_COMPARE");
    return v && *v && strcmp(v, "0") != 0;
}

/* the fingerprint of size bytes at device address base into *out; 0, or
 * -1 (the host path then: nothing of the user's state is touched) */
static inline int gpu_fingerprint(unsigned long long base, size_t size, fingerprint *out)
{
    static unsigned long long *sums = 0;
    static int broken = 0;
    if (broken || prints_off() || base % 8 != 0)
        return -1;
    if (!sums && cudaMalloc((void **)&sums, 2 * sizeof *sums) != cudaSuccess) {
        cudaGetLastError(); /* not the user's error to see */
        broken = 1;
        return -1;
    }
    unsigned long long host[2] = {0, 0};
    size_t blocks = (size / 8 + 255) / 256;
    blocks = blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks;
    cudaError_t e = cudaMemset(sums, 0, 2 * sizeof *sums);
    if (e == cudaSuccess) {
        fingerprint_kernel<<<(unsigned)blocks, 256>>>((const unsigned long long *)base, size, sums);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        cudaGetLastError();
        broken = 1; /* no image for this GPU, say: the host path from now on */
        return -1;
    }
    out->lane[0] = host[0];
    out->lane[1] = host[1];
    return 0;
}

static inline int same_print(const fingerprint &x, const fingerprint &y)
{
    return x.lane[0] == y.lane[0] && x.lane[1] == y.lane[1];
}

/* ---- an allocation's bytes written once ---------------------------------
 * The launches a capture saves often read the same large array (HeCBench's
 * accuracy: two kernels, two launches each, one 328 MB input).  A file
 * whose bytes equal those of a file this TU's capture wrote before (same
 * size and fingerprint; on the host path, which has the bytes, compared
 * byte for byte too) is a hard link to that file, not a second copy;
 * smaller files than link_min_bytes are written as they are.  Capture
 * files are never written again once closed. */
enum { max_written = 64 };
static const size_t link_min_bytes = (size_t)1 << 20;

struct written_file {
    size_t size;
    fingerprint print; /* of the bytes written, on the host or the GPU */
    char path[4200];
};

static inline written_file *written_files()
{
    static written_file files[max_written];
    return files;
}

static inline int *written_count()
{
    static int count = 0;
    return &count;
}

/* 1 when the file at path holds exactly data's size bytes */
static inline int file_holds(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    const size_t chunk = (size_t)1 << 20;
    unsigned char *buf = (unsigned char *)malloc(chunk);
    int same = buf != 0;
    for (size_t done = 0; same && done < size;) {
        size_t want = size - done < chunk ? size - done : chunk;
        same = fread(buf, 1, want, f) == want && memcmp(buf, (const unsigned char *)data + done, want) == 0;
        done += want;
    }
    same = same && fgetc(f) == EOF;
    free(buf);
    fclose(f);
    return same;
}

/* a written file, remembered for the next */
static inline void remember_written(const char *path, size_t size, const fingerprint &print)
{
    written_file *slot = &written_files()[(*written_count())++ % max_written];
    slot->size = size;
    slot->print = print;
    snprintf(slot->path, sizeof slot->path, "%s", path);
}

/* a hard link at path to a file written before with this size and
 * fingerprint (and, when data is given, these very bytes on disk); 0, or
 * -1 (none, or the link failed) */
static inline int link_written(const char *path, size_t size, const fingerprint &print,
                               const void *data)
{
    written_file *files = written_files();
    for (int i = 0; i < max_written; i++)
        if (files[i].path[0] && files[i].size == size && same_print(files[i].print, print) &&
            (!data || file_holds(files[i].path, data, size)) && link(files[i].path, path) == 0)
            return 0;
    return -1;
}

/* data's bytes at path (the host path): a hard link to an equal file
 * written before, else a new file, remembered for the next */
static inline int write_alloc_file(const char *path, const void *data, size_t size)
{
    if (size < link_min_bytes)
        return write_file(path, data, size);
    fingerprint print = host_fingerprint(data, size);
    if (link_written(path, size, print, data) == 0)
        return 0;
    int rc = write_file(path, data, size);
    if (rc == 0)
        remember_written(path, size, print);
    return rc;
}

/* size bytes at device address base, whose fingerprint (on the GPU) is
 * print, at path: a link to a file of the same fingerprint, else copied
 * to the host and written, remembered for the next */
static inline int write_printed_file(const char *path, unsigned long long base, size_t size,
                                     const fingerprint &print)
{
    if (link_written(path, size, print, 0) == 0)
        return 0;
    void *host = malloc(size);
    if (!host)
        return -1;
    cudaError_t e = cudaMemcpy(host, (void *)base, size, cudaMemcpyDeviceToHost);
    int rc = e == cudaSuccess ? write_file(path, host, size) : -1;
    if (e != cudaSuccess)
        fail("cudaMemcpy", cudaGetErrorString(e));
    free(host);
    if (rc == 0)
        remember_written(path, size, print);
    return rc;
}

struct launch {
    const char *kernel;
    int kernel_index;
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    const void *arg_ptr[max_args];
    size_t arg_size[max_args];
    int arg_is_pointer[max_args];
    int nargs;
    int active;
    char dir[4096];
    /* distinct allocations the pointer arguments point into */
    unsigned long long alloc_base[max_args];
    size_t alloc_size[max_args];
    int nallocs;
    int arg_alloc[max_args];
    unsigned long long arg_offset[max_args];
    struct timespec started; /* when the inputs were saved, just before the launch */
    char instance[1024];     /* a template kernel's instantiation, or "" */
    const char *tag_name;    /* the TU's folder under the capture root */
    int eligible;            /* under the limit when constructed */
    void *saved_in[max_args]; /* the inputs as saved, until after() */
    /* a large allocation's fingerprint before the launch (has_print_in),
     * in place of its saved bytes */
    fingerprint print_in[max_args];
    int has_print_in[max_args];
    /* the kernel's __constant__ and __device__ variables (symbol()): saved
     * as allocations, named in the meta so the replay restores them */
    const char *sym_name[max_args];
    const void *sym_shadow[max_args];
    size_t sym_size[max_args];
    int nsyms;
    const char *alloc_symbol[max_args];

    /* tag: the TU's folder under the capture root, one per source file;
     * pretty: instance_text<F, f>() for a template kernel's instantiation
     * f (its first N launches are captured, whatever the other
     * instantiations did), or 0 */
    launch(const char *tag, const char *name, int index, dim3 g, dim3 b, size_t s,
           cudaStream_t st, const char *pretty = 0)
        : kernel(name), kernel_index(index), grid(g), block(b), shmem(s), stream(st),
          nargs(0), active(0), nallocs(0), tag_name(tag), eligible(0), nsyms(0)
    {
        instance[0] = '\0';
        tag_name = tag;
        const char *root = capture_dir();
        if (!root || index < 0 || index >= max_kernels)
            return;
        if (pretty) {
            instance_name(pretty, instance, sizeof instance);
            if (instance_count(index, instance, 0) >= capture_limit())
                return;
        } else if (launch_counts()[index] >= capture_limit()) {
            return;
        }
        eligible = 1;
    }

    /* a launch within the limit gets its folder; 1 when it is captured.
     * Every launch counts, the same shape again too: the next step of a
     * time loop carries state the first lacks (a running maximum from
     * zeros tells a variant that ignores it from a correct one only then) */
    int claim()
    {
        if (instance[0])
            instance_count(kernel_index, instance, 1);
        int seq = launch_counts()[kernel_index]++;
        const char *root = capture_dir();
        mkdir(root, 0755);
        snprintf(dir, sizeof dir, "%s/%s", root, tag_name);
        mkdir(dir, 0755);
        snprintf(dir, sizeof dir, "%s/%s/k%d", root, tag_name, kernel_index);
        mkdir(dir, 0755);
        snprintf(dir, sizeof dir, "%s/%s/k%d/%d", root, tag_name, kernel_index, seq);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            fail(dir, strerror(errno));
            return 0;
        }
        return 1;
    }

    void arg(const void *p, size_t size, int is_pointer)
    {
        if (nargs >= max_args) {
            eligible = 0;
            return;
        }
        arg_ptr[nargs] = p;
        arg_size[nargs] = size;
        arg_is_pointer[nargs] = is_pointer;
        arg_alloc[nargs] = -1;
        arg_offset[nargs] = 0;
        nargs++;
    }

    /* a __constant__ or __device__ variable the kernel uses: name as the
     * replay driver reaches it, shadow its host-side address (&var) */
    void symbol(const char *name, const void *shadow, size_t size)
    {
        if (nsyms >= max_args)
            return;
        sym_name[nsyms] = name;
        sym_shadow[nsyms] = shadow;
        sym_size[nsyms] = size;
        nsyms++;
    }

    /* the variables as allocations at their device addresses, after the
     * arguments' (one an argument already points into stays that one) */
    void add_symbols()
    {
        for (int i = 0; i < nallocs; i++)
            alloc_symbol[i] = 0;
        for (int i = 0; i < nsyms && nallocs < max_args; i++) {
            void *p = 0;
            if (cudaGetSymbolAddress(&p, sym_shadow[i]) != cudaSuccess) {
                cudaGetLastError(); /* not the user's error to see */
                continue;
            }
            unsigned long long at = (unsigned long long)p;
            int inside = 0;
            for (int a = 0; a < nallocs; a++)
                inside |= at >= alloc_base[a] && at < alloc_base[a] + alloc_size[a];
            if (inside)
                continue;
            alloc_base[nallocs] = at;
            alloc_size[nallocs] = sym_size[i];
            alloc_symbol[nallocs] = sym_name[i];
            saved_in[nallocs] = 0;
            nallocs++;
        }
    }

    ~launch()
    {
        for (int i = 0; i < nallocs; i++)
            free(saved_in[i]);
    }

    /* allocation i's file for suffix on the GPU's fingerprint (a large
     * one): 0 saved, 1 not tried here (the host path saves it), -1 error.
     * Its output is a link to its input when the launch left it as it was */
    int save_printed(int i, const char *path, const char *in_path, int inputs)
    {
        if (inputs)
            has_print_in[i] = 0;
        if (alloc_size[i] < link_min_bytes || (!inputs && !has_print_in[i]))
            return 1;
        fingerprint print;
        if (gpu_fingerprint(alloc_base[i], alloc_size[i], &print) != 0)
            return 1;
        if (inputs) {
            print_in[i] = print;
            has_print_in[i] = 1;
        } else if (same_print(print, print_in[i]) && link(in_path, path) == 0) {
            return 0;
        }
        return write_printed_file(path, alloc_base[i], alloc_size[i], print);
    }

    /* the allocations' inputs (kept until after() compares, unless a
     * fingerprint stands for them) or outputs: an output equal to its
     * input is a hard link to the input's file */
    int save_allocs(const char *suffix)
    {
        int inputs = strcmp(suffix, "in") == 0;
        for (int i = 0; i < nallocs; i++) {
            char path[4200], in_path[4200];
            snprintf(path, sizeof path, "%s/alloc%d.%s", dir, i, suffix);
            snprintf(in_path, sizeof in_path, "%s/alloc%d.in", dir, i);
            int printed = save_printed(i, path, in_path, inputs);
            if (printed < 0)
                return -1;
            if (printed == 0)
                continue;
            void *host = malloc(alloc_size[i] ? alloc_size[i] : 1);
            if (!host)
                return -1;
            cudaError_t e = cudaMemcpy(host, (void *)alloc_base[i], alloc_size[i],
                                       cudaMemcpyDeviceToHost);
            int same = e == cudaSuccess && !inputs && saved_in[i] &&
                       memcmp(host, saved_in[i], alloc_size[i]) == 0 && link(in_path, path) == 0;
            int rc = e != cudaSuccess ? -1 : same ? 0 : write_alloc_file(path, host, alloc_size[i]);
            if (e != cudaSuccess)
                fail("cudaMemcpy", cudaGetErrorString(e));
            if (inputs)
                saved_in[i] = host;
            else
                free(host);
            if (rc)
                return -1;
        }
        return 0;
    }

    void before()
    {
        if (!eligible || !claim())
            return;
        active = 1;
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            fail("cudaDeviceSynchronize", cudaGetErrorString(e));
            active = 0;
            return;
        }
        range_fn range = address_range();
        for (int i = 0; i < nargs; i++) {
            if (!arg_is_pointer[i] || arg_size[i] != sizeof(void *))
                continue;
            unsigned long long p = 0;
            memcpy(&p, arg_ptr[i], sizeof p);
            unsigned long long base = 0;
            size_t size = 0;
            if (!p || !range || range(&base, &size, p) != 0)
                continue; /* null, host or unknown memory: recorded as a plain value */
            int found = -1;
            for (int a = 0; a < nallocs; a++)
                if (alloc_base[a] == base)
                    found = a;
            if (found < 0) {
                found = nallocs++;
                alloc_base[found] = base;
                alloc_size[found] = size;
                saved_in[found] = 0;
            }
            arg_alloc[i] = found;
            arg_offset[i] = p - base;
        }
        add_symbols();
        if (save_allocs("in") != 0)
            active = 0;
        clock_gettime(CLOCK_MONOTONIC, &started);
    }

    void after()
    {
        if (!active)
            return;
        cudaError_t e = cudaDeviceSynchronize();
        struct timespec ended;
        clock_gettime(CLOCK_MONOTONIC, &ended);
        if (e != cudaSuccess) {
            fail("the captured launch failed", cudaGetErrorString(e));
            return; /* no meta file: the capture is incomplete and ignored */
        }
        /* the launch's wall time to its synchronize: how long the kernel
         * runs, roughly (the tuner judges long kernels in smaller rounds) */
        double launch_ms = (double)(ended.tv_sec - started.tv_sec) * 1e3 +
                           (double)(ended.tv_nsec - started.tv_nsec) / 1e6;
        if (save_allocs("out") != 0)
            return;
        char path[4200];
        snprintf(path, sizeof path, "%s/meta", dir);
        FILE *f = fopen(path, "w");
        if (!f) {
            fail(path, strerror(errno));
            return;
        }
        fprintf(f, "cl1cc-capture 1\nkernel %s\nindex %d\n", kernel, kernel_index);
        if (instance[0])
            fprintf(f, "instance %s\n", instance);
        fprintf(f, "grid %u %u %u\nblock %u %u %u\nshmem %zu\n", grid.x, grid.y, grid.z,
                block.x, block.y, block.z, shmem);
        fprintf(f, "launch_ms %.3f\n", launch_ms);
        fprintf(f, "allocs %d\n", nallocs);
        for (int a = 0; a < nallocs; a++)
            fprintf(f, "alloc %d %zu\n", a, alloc_size[a]);
        for (int a = 0; a < nallocs; a++)
            if (alloc_symbol[a])
                fprintf(f, "symbol %d %s\n", a, alloc_symbol[a]);
        fprintf(f, "args %d\n", nargs);
        for (int i = 0; i < nargs; i++) {
            if (arg_alloc[i] >= 0) {
                fprintf(f, "arg %d pointer %d %llu\n", i, arg_alloc[i], arg_offset[i]);
                continue;
            }
            fprintf(f, "arg %d value %zu ", i, arg_size[i]);
            const unsigned char *b = (const unsigned char *)arg_ptr[i];
            for (size_t k = 0; k < arg_size[i]; k++)
                fprintf(f, "%02x", b[k]);
            fputc('\n', f);
        }
        fputs("end\n", f);
        fclose(f);
    }
};

} // namespace
} // namespace cl1cc_capture

#endif
