/*
 * test_roofline.c: the roofline of fixture kernels (fixtures/roofline.cu)
 * on fake captures: flops counted by hand (a gemm, a mat-vec behind an
 * early return, a 2-D stencil's guard, a triangular nest, a while loop
 * that makes them unknown), bytes from allocations before and after, the
 * limit, and the expression text they are evaluated from.
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "frontend.h"
#include "roofline_int.h"
#include "test_util.h"

static const char *work;

/* a fake capture: meta with the launch shape, values and pointers, and
 * allocation files (alloc a's bytes in, and out: in with `changed`
 * elements of 4 bytes altered) */
typedef struct fake_arg {
    int alloc;       /* -1: a value */
    int is_float;
    double value;
} fake_arg;

static const char *fake_capture(const char *name, const unsigned grid[3], const unsigned block[3],
                                const fake_arg *args, int nargs, const size_t *alloc_size,
                                const size_t *changed, int nallocs)
{
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", work, name);
    CHECK(dir_create_all(dir, 0755) == 0);
    strbuf meta;
    sb_init(&meta);
    sb_printf(&meta, "grid %u %u %u\nblock %u %u %u\nshmem 0\n", grid[0], grid[1], grid[2],
              block[0], block[1], block[2]);
    for (int a = 0; a < nallocs; a++)
        sb_printf(&meta, "alloc %d %zu\n", a, alloc_size[a]);
    for (int i = 0; i < nargs; i++) {
        if (args[i].alloc >= 0) {
            sb_printf(&meta, "arg %d pointer %d 0\n", i, args[i].alloc);
            continue;
        }
        unsigned char b[4];
        if (args[i].is_float) {
            float f = (float)args[i].value;
            memcpy(b, &f, 4);
        } else {
            int v = (int)args[i].value;
            memcpy(b, &v, 4);
        }
        sb_printf(&meta, "arg %d value 4 %02x%02x%02x%02x\n", i, b[0], b[1], b[2], b[3]);
    }
    sb_puts(&meta, "end\n");
    char path[4200];
    snprintf(path, sizeof path, "%s/meta", dir);
    CHECK(file_write_atomic(path, sb_str(&meta), meta.len) == 0);
    sb_free(&meta);
    strbuf err;
    sb_init(&err);
    for (int a = 0; a < nallocs; a++) {
        unsigned char *data = xcalloc(alloc_size[a] + 1, 1);
        CHECK(hn_alloc_write(dir, a, "in", data, alloc_size[a], &err) == 0);
        for (size_t e = 0; e < changed[a]; e++)
            data[e * 4 + (e % 4)] = 1; /* one byte of the element */
        CHECK(hn_alloc_write(dir, a, "out", data, alloc_size[a], &err) == 0);
        free(data);
    }
    sb_free(&err);
    return dir;
}

static const kernel *find(const tu_model *m, const char *name)
{
    for (size_t i = 0; i < m->kernels.len; i++)
        if (strcmp(m->kernels.items[i].name, name) == 0)
            return &m->kernels.items[i];
    return NULL;
}

static double flops_of(const tu_model *m, const char *name, const char *dir)
{
    const kernel *k = find(m, name);
    CHECK(k != NULL);
    hn_capture c;
    strbuf err;
    sb_init(&err);
    CHECK(hn_capture_read(dir, &c, &err) == 0);
    sb_free(&err);
    return k ? hn_roofline_flops(m, k, &c) : NAN;
}

static double access_bytes_of(const tu_model *m, const char *name, const char *dir,
                              const hn_dtype *dtypes, size_t n)
{
    const kernel *k = find(m, name);
    CHECK(k != NULL);
    hn_capture c;
    strbuf err;
    sb_init(&err);
    CHECK(hn_capture_read(dir, &c, &err) == 0);
    sb_free(&err);
    return k ? hn_roofline_access_bytes(m, k, &c, dtypes, n) : NAN;
}

static void test_gemm(const tu_model *m)
{
    /* 64 x 64 outputs on a 96 x 72 grid of threads: the guard keeps 64 x 64 */
    unsigned grid[3] = {3, 9, 1}, block[3] = {32, 8, 1};
    fake_arg args[8] = {{-1, 0, 64}, {-1, 0, 64}, {-1, 0, 32}, {-1, 1, 1.5},
                        {-1, 1, 0.5}, {0, 0, 0},  {1, 0, 0},   {2, 0, 0}};
    size_t sizes[3] = {64 * 32 * 4, 32 * 64 * 4, 64 * 64 * 4}, changed[3] = {0, 0, 64 * 64};
    const char *dir = fake_capture("gemm", grid, block, args, 8, sizes, changed, 3);
    /* c *= beta, then per k: alpha * a * b and += */
    CHECK(flops_of(m, "gemm", dir) == 64.0 * 64 * (1 + 3 * 32));
    /* the same through PolyBench's macros (NK 32, NJ 64) */
    double fm = flops_of(m, "gemm_macro", dir);
    if (fm != 64.0 * 64 * (1 + 3 * 32))
        fprintf(stderr, "gemm_macro: %g flops\n", fm);
    CHECK(fm == 64.0 * 64 * (1 + 3 * 32));

    hn_capture c;
    strbuf err;
    sb_init(&err);
    CHECK(hn_capture_read(dir, &c, &err) == 0);
    hn_dtype dtypes[8] = {HN_I32, HN_I32, HN_I32, HN_F32, HN_F32, HN_F32, HN_F32, HN_F32};
    hn_roofline r;
    CHECK(hn_roofline_bytes(&c, dtypes, 8, NULL, &r, &err) == 0);
    CHECK(r.read_bytes == (double)(sizes[0] + sizes[1] + sizes[2]));
    CHECK(r.written_bytes == 64.0 * 64 * 4); /* one byte changed: the whole element */
    int pure[3] = {0, 0, 1};
    CHECK(hn_roofline_bytes(&c, dtypes, 8, pure, &r, &err) == 0);
    CHECK(r.read_bytes == (double)(sizes[0] + sizes[1]));
    sb_free(&err);

    /* the limit: the larger of the two times, plus a launch */
    r.flops = flops_of(m, "gemm", dir);
    hn_device_peaks p = {1e12, 1e12, HN_LAUNCH_OVERHEAD_MS};
    hn_roofline_limit(&r, &p);
    double bytes = r.read_bytes + r.written_bytes;
    double want = fmax(bytes, r.flops) / 1e12 * 1e3 + HN_LAUNCH_OVERHEAD_MS;
    CHECK(fabs(r.limit_ms - want) < 1e-12);
    CHECK(strcmp(r.bound, r.flops > bytes ? "compute" : "memory") == 0);
    r.flops = NAN;
    hn_roofline_limit(&r, &p);
    CHECK(fabs(r.limit_ms - (bytes / 1e9 + HN_LAUNCH_OVERHEAD_MS)) < 1e-12);
    CHECK(strcmp(r.bound, "memory, flops unknown") == 0);
    CHECK(fabs(hn_pct_of_limit(0.5, 2.0) - 25.0) < 1e-12);
    CHECK(isnan(hn_pct_of_limit(NAN, 2.0)) && isnan(hn_pct_of_limit(0.5, 0)));
}

static void test_matvec(const tu_model *m)
{
    /* 128 threads, the early return keeps 100 */
    unsigned grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    fake_arg args[4] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {-1, 0, 100}};
    size_t sizes[3] = {100 * 100 * 4, 100 * 4, 100 * 4}, changed[3] = {0, 0, 100};
    const char *dir = fake_capture("matvec", grid, block, args, 4, sizes, changed, 3);
    CHECK(flops_of(m, "matvec", dir) == 100.0 * 100 * 2);
    /* its accesses: a and x per j, y once, over the 100 threads */
    hn_dtype dtypes[4] = {HN_F32, HN_F32, HN_F32, HN_I32};
    CHECK(access_bytes_of(m, "matvec", dir, dtypes, 4) == 100.0 * (100 * 2 + 1) * 4);
}

static void test_edge(const tu_model *m)
{
    /* a row of a 64 x 64 matrix, 96 threads of which 64 pass: two
     * accesses each, far below the 16 KiB allocation */
    unsigned grid[3] = {3, 1, 1}, block[3] = {32, 1, 1};
    fake_arg args[2] = {{0, 0, 0}, {-1, 0, 64}};
    size_t sizes[1] = {64 * 64 * 4}, changed[1] = {64};
    const char *dir = fake_capture("edge", grid, block, args, 2, sizes, changed, 1);
    hn_dtype dtypes[2] = {HN_F32, HN_I32};
    CHECK(access_bytes_of(m, "edge", dir, dtypes, 2) == 64.0 * 2 * 4);
    /* no element size known for its pointer: no bound */
    CHECK(isnan(access_bytes_of(m, "converge", dir, dtypes, 0)));
}

static void test_stencil(const tu_model *m)
{
    /* 48 x 48 threads, the interior 32 x 32 of n = 34 pass the guard */
    unsigned grid[3] = {3, 3, 1}, block[3] = {16, 16, 1};
    fake_arg args[3] = {{0, 0, 0}, {1, 0, 0}, {-1, 0, 34}};
    size_t sizes[2] = {34 * 34 * 4, 34 * 34 * 4}, changed[2] = {0, 32 * 32};
    const char *dir = fake_capture("stencil", grid, block, args, 3, sizes, changed, 2);
    CHECK(flops_of(m, "stencil", dir) == 32.0 * 32 * 5);
}

static void test_triangle(const tu_model *m)
{
    /* thread i runs j = 0..i: sum over i < 64 of (i + 1) * m * 3 */
    unsigned grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
    fake_arg args[5] = {{-1, 0, 64}, {-1, 0, 16}, {-1, 1, 2}, {0, 0, 0}, {1, 0, 0}};
    size_t sizes[2] = {64 * 16 * 4, 64 * 64 * 4}, changed[2] = {0, 64 * 65 / 2};
    const char *dir = fake_capture("syrk", grid, block, args, 5, sizes, changed, 2);
    CHECK(fabs(flops_of(m, "syrk", dir) - 64.0 * 65 / 2 * 16 * 3) < 1e-6);
}

static void test_unknown(const tu_model *m)
{
    unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    fake_arg args[2] = {{0, 0, 0}, {-1, 0, 32}};
    size_t sizes[1] = {32 * 4}, changed[1] = {32};
    const char *dir = fake_capture("converge", grid, block, args, 2, sizes, changed, 1);
    CHECK(isnan(flops_of(m, "converge", dir)));
}

static int no_names(void *data, const char *name, size_t len, double *out)
{
    (void)data;
    if (len == 1 && name[0] == 'n') {
        *out = 10;
        return 0;
    }
    return -1;
}

static void test_eval(void)
{
    double v;
    CHECK(rl_eval("((n * 3) + (-4))", no_names, NULL, &v) == 0 && v == 26);
    CHECK(rl_eval("(n / 4)", no_names, NULL, &v) == 0 && v == 2); /* C's division */
    CHECK(rl_eval("((n < 11) && (n >= 10))", no_names, NULL, &v) == 0 && v == 1);
    CHECK(rl_eval("(n + m)", no_names, NULL, &v) == -1);
    CHECK(rl_eval("(n +", no_names, NULL, &v) == -1);
    CHECK(rl_eval("(n / 0)", no_names, NULL, &v) == -1);
    arena a;
    arena_init(&a);
    const char *parts[4];
    CHECK(rl_split("((i < n) && ((j + 1) < m))", " && ", parts, 4, &a) == 2);
    CHECK(strcmp(parts[0], "i < n") == 0 && strcmp(parts[1], "(j + 1) < m") == 0);
    CHECK(rl_flatten("(((a < 1) && (b < 2)) && (c < 3))", " && ", parts, 4, &a) == 3);
    CHECK(strcmp(parts[0], "a < 1") == 0 && strcmp(parts[2], "c < 3") == 0);
    CHECK(hn_fp32_lanes_per_sm(9, 0) == 128 && hn_fp32_lanes_per_sm(8, 0) == 64 &&
          hn_fp32_lanes_per_sm(3, 5) == 0);
    arena_free(&a);
}

static void test_peaks(void)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/device", work);
    const char *text = "copy_bytes_per_s 3.0e12\nsms 132\nclock_khz 1980000\ncc 9 0\n";
    CHECK(file_write_atomic(path, text, strlen(text)) == 0);
    hn_device_peaks p;
    strbuf err;
    sb_init(&err);
    CHECK(hn_device_peaks_read(path, &p, &err) == 0);
    CHECK(p.copy_bytes_per_s == 3.0e12);
    CHECK(fabs(p.fp32_flops_per_s - 2.0 * 128 * 132 * 1.98e9) < 1);
    CHECK(p.launch_ms == HN_LAUNCH_OVERHEAD_MS);
    CHECK(file_write_atomic(path, "sms 132\n", 8) == 0);
    CHECK(hn_device_peaks_read(path, &p, &err) == -1 && err.len > 0);
    sb_free(&err);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_roofline FIXTURE WORK-DIR\n");
        return 2;
    }
    work = argv[2];
    CHECK(dir_create_all(work, 0755) == 0);
    tu_model m;
    if (parse_fixture(argv[1], 1, NULL, 0, &m) != 0)
        return 1;
    test_eval();
    test_peaks();
    test_gemm(&m);
    test_matvec(&m);
    test_edge(&m);
    test_stencil(&m);
    test_triangle(&m);
    test_unknown(&m);
    model_free(&m);
    return CHECK_REPORT("harness_roofline");
}
