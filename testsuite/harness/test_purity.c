/*
 * test_purity.c: the judge's pure-output rule without a GPU: hn_poison's
 * patterns as every dtype, and hn_pure_output (and the judge's batched
 * order of its runs, hn_pure_output_batched) over kernels simulated on the
 * CPU (dif[j] = fmaxf(x[j], dif[j]) must not look pure, as it did under NaN).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include "check.h"

/* ---- the patterns --------------------------------------------------------- */

/* the value of f16 or bf16 bits (exp_bits 5 or 8), NaN and inf included */
static double half_value(uint16_t h, int exp_bits)
{
    int man_bits = 15 - exp_bits, max_exp = (1 << exp_bits) - 1, bias = max_exp / 2;
    int sign = h >> 15, e = (h >> man_bits) & max_exp, m = h & ((1 << man_bits) - 1);
    double v;
    if (e == max_exp)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(m, 1 - bias - man_bits);
    else
        v = ldexp(m + (1 << man_bits), e - bias - man_bits);
    return sign ? -v : v;
}

/* pattern p as each float dtype: f16, bf16, f32, f64 */
static void poison_values(int p, double v[4])
{
    unsigned char b[8];
    hn_poison(b, sizeof b, p);
    uint16_t h;
    float f;
    double d;
    memcpy(&h, b, 2);
    v[0] = half_value(h, 5);
    v[1] = half_value(h, 8);
    memcpy(&f, b, 4);
    v[2] = f;
    memcpy(&d, b, 8);
    v[3] = d;
}

static void test_patterns(void)
{
    double v[4];
    poison_values(0, v); /* large, finite, positive: fmax keeps it */
    for (int i = 0; i < 4; i++)
        CHECK(isfinite(v[i]) && v[i] > 6e4);
    CHECK(v[2] > 1e36 && v[3] > 1e280);
    poison_values(1, v); /* NaN */
    for (int i = 0; i < 4; i++)
        CHECK(isnan(v[i]));
    poison_values(2, v); /* large, finite, negative: fmin keeps it */
    for (int i = 0; i < 4; i++)
        CHECK(isfinite(v[i]) && v[i] < -6e4);
    CHECK(v[2] < -1e36 && v[3] < -1e280);

    int32_t i32[HN_POISONS];
    for (int p = 0; p < HN_POISONS; p++)
        hn_poison((unsigned char *)&i32[p], sizeof i32[p], p);
    CHECK(i32[0] > 1000000000 && i32[1] == -1 && i32[2] < -1000000);

    /* taken modulo HN_POISONS (the judge picks one per input set) */
    unsigned char a[16], b[16];
    for (int p = 0; p < HN_POISONS; p++) {
        hn_poison(a, sizeof a, p);
        hn_poison(b, sizeof b, p + HN_POISONS);
        CHECK(memcmp(a, b, sizeof a) == 0);
        hn_poison(b, sizeof b, p - HN_POISONS);
        CHECK(memcmp(a, b, sizeof a) == 0);
        for (int q = 0; q < p; q++) {
            hn_poison(b, sizeof b, q);
            CHECK(memcmp(a, b, sizeof a) != 0);
        }
    }
}

/* ---- the rule over kernels simulated on the CPU ---------------------------- */

#define N 64

/* a kernel's effect on its in-out allocation dif, given x */
typedef void kernel_fn(unsigned char *dif, const unsigned char *x, size_t n);

static void k_fmaxf(unsigned char *dif, const unsigned char *x, size_t n)
{
    float *d = (float *)dif;
    const float *v = (const float *)x;
    for (size_t j = 0; j < n; j++)
        d[j] = fmaxf(v[j], d[j]);
}

static void k_fminf(unsigned char *dif, const unsigned char *x, size_t n)
{
    float *d = (float *)dif;
    const float *v = (const float *)x;
    for (size_t j = 0; j < n; j++)
        d[j] = fminf(v[j], d[j]);
}

static void k_accumulate(unsigned char *dif, const unsigned char *x, size_t n)
{
    float *d = (float *)dif;
    const float *v = (const float *)x;
    for (size_t j = 0; j < n; j++)
        d[j] += v[j];
}

/* a pure output: written from x alone */
static void k_write(unsigned char *dif, const unsigned char *x, size_t n)
{
    float *d = (float *)dif;
    const float *v = (const float *)x;
    for (size_t j = 0; j < n; j++)
        d[j] = 2.f * v[j] + 1.f;
}

static void k_fmax_f64(unsigned char *dif, const unsigned char *x, size_t n)
{
    double *d = (double *)dif;
    const double *v = (const double *)x;
    for (size_t j = 0; j < n; j++)
        d[j] = fmax(v[j], d[j]);
}

static void k_fmin_f64(unsigned char *dif, const unsigned char *x, size_t n)
{
    double *d = (double *)dif;
    const double *v = (const double *)x;
    for (size_t j = 0; j < n; j++)
        d[j] = fmin(v[j], d[j]);
}

/* one simulated capture: dif's captured contents, x, and the original's
 * dif after the kernel (the reference) */
typedef struct sim {
    kernel_fn *kernel;
    hn_dtype t;
    size_t n, size;
    unsigned char dif[N * 8], x[N * 8], ref[N * 8];
    int calls;
} sim;

/* x positive, 0.5 .. 5; dif all `dif0` (the case: dif = 0 under
 * fmaxf or 1e30 under fminf, where the kernel's result is x and NaN hides
 * the read), or, for dif0 NAN, mixed: above x on some elements */
static void sim_init(sim *s, kernel_fn *fn, hn_dtype t, double dif0)
{
    memset(s, 0, sizeof *s);
    s->kernel = fn;
    s->t = t;
    s->n = N;
    s->size = N * hn_dtype_size(t);
    for (size_t j = 0; j < N; j++) {
        double x = 0.5 + (double)(j * 37 % 19) * 0.25;
        double d = isnan(dif0) ? (double)(j * 11 % 17) * 0.5 - 2.0 : dif0;
        if (t == HN_F32) {
            float xf = (float)x, df = (float)d;
            memcpy(s->x + j * 4, &xf, 4);
            memcpy(s->dif + j * 4, &df, 4);
        } else {
            memcpy(s->x + j * 8, &x, 8);
            memcpy(s->dif + j * 8, &d, 8);
        }
    }
    memcpy(s->ref, s->dif, s->size);
    fn(s->ref, s->x, N);
}

/* hn_pure_output's callback: the kernel with dif poisoned reproduces ref */
static int sim_reproduces(void *ctx, int pattern)
{
    sim *s = ctx;
    s->calls++;
    unsigned char dif[N * 8];
    hn_poison(dif, s->size, pattern);
    s->kernel(dif, s->x, s->n);
    hn_compare_result r;
    hn_compare(s->t, hn_default_tolerance(s->t), s->ref, s->size, dif, s->size, &r);
    return r.mismatches == 0;
}

/* hn_pure_output_batched's second callback: the poisons after the first,
 * each run (the simulation has no process to share) */
static int sim_rest(void *ctx)
{
    for (int p = 1; p < HN_POISONS; p++)
        if (!sim_reproduces(ctx, p))
            return 0;
    return 1;
}

static int sim_changed(const sim *s)
{
    return memcmp(s->dif, s->ref, s->size) != 0;
}

static void test_kernels(void)
{
    sim s;
    /* the case: NaN alone called dif pure; +1.3e36 does not */
    sim_init(&s, k_fmaxf, HN_F32, 0.0);
    CHECK(sim_changed(&s));
    CHECK(sim_reproduces(&s, 1)); /* fmaxf(x, NaN) = x: NaN alone is fooled */
    CHECK(!sim_reproduces(&s, 0));
    s.calls = 0;
    CHECK(hn_pure_output(sim_changed(&s), sim_reproduces, &s) == 0);
    CHECK(s.calls == 1);

    /* fminf from 1e30: fooled by NaN and by the positive poison, not the
     * negative one */
    sim_init(&s, k_fminf, HN_F32, 1e30);
    CHECK(sim_changed(&s));
    CHECK(sim_reproduces(&s, 1) && sim_reproduces(&s, 0));
    CHECK(!sim_reproduces(&s, 2));
    s.calls = 0;
    CHECK(hn_pure_output(sim_changed(&s), sim_reproduces, &s) == 0);
    CHECK(s.calls == HN_POISONS);

    /* where dif is above x somewhere, NaN shows the read too */
    sim_init(&s, k_fmaxf, HN_F32, NAN);
    CHECK(sim_changed(&s) && !sim_reproduces(&s, 1));
    CHECK(hn_pure_output(sim_changed(&s), sim_reproduces, &s) == 0);

    /* plain arithmetic on the old contents: seen by every poison */
    sim_init(&s, k_accumulate, HN_F32, 0.0);
    CHECK(sim_changed(&s));
    for (int p = 0; p < HN_POISONS; p++)
        CHECK(!sim_reproduces(&s, p));

    /* the same in double precision */
    sim_init(&s, k_fmax_f64, HN_F64, 0.0);
    CHECK(sim_changed(&s) && sim_reproduces(&s, 1));
    CHECK(hn_pure_output(sim_changed(&s), sim_reproduces, &s) == 0);
    sim_init(&s, k_fmin_f64, HN_F64, 1e300);
    CHECK(sim_changed(&s) && sim_reproduces(&s, 1) && sim_reproduces(&s, 0));
    CHECK(hn_pure_output(sim_changed(&s), sim_reproduces, &s) == 0);

    /* written from x alone: pure, after every poison */
    sim_init(&s, k_write, HN_F32, NAN);
    s.calls = 0;
    CHECK(hn_pure_output(sim_changed(&s), sim_reproduces, &s) == 1);
    CHECK(s.calls == HN_POISONS);
    /* ... and unchanged by the kernel: not pure, nothing run */
    memcpy(s.dif, s.ref, s.size);
    s.calls = 0;
    CHECK(hn_pure_output(sim_changed(&s), sim_reproduces, &s) == 0);
    CHECK(s.calls == 0);
}

/* ---- the rule itself -------------------------------------------------------- */

/* reproduces under every poison but `fails_at` (-1: none); counts calls */
typedef struct scripted {
    int fails_at, calls, seen[HN_POISONS];
} scripted;

static int scripted_reproduces(void *ctx, int pattern)
{
    scripted *s = ctx;
    s->calls++;
    if (pattern >= 0 && pattern < HN_POISONS)
        s->seen[pattern]++;
    return pattern != s->fails_at;
}

static void test_rule(void)
{
    /* unchanged by the original: never pure, and nothing is run */
    scripted s = {-1, 0, {0}};
    CHECK(hn_pure_output(0, scripted_reproduces, &s) == 0);
    CHECK(s.calls == 0);
    /* every poison reproduces: pure, each poison run once */
    CHECK(hn_pure_output(1, scripted_reproduces, &s) == 1);
    CHECK(s.calls == HN_POISONS);
    for (int p = 0; p < HN_POISONS; p++)
        CHECK(s.seen[p] == 1);
    /* any one poison that does not reproduce: not pure, and no run after it */
    for (int k = 0; k < HN_POISONS; k++) {
        scripted f = {k, 0, {0}};
        CHECK(hn_pure_output(1, scripted_reproduces, &f) == 0);
        CHECK(f.calls == k + 1);
    }
}

/* the judge's order: reproduces_rest stands for the poisons after the
 * first run in one process; rest_ok 0 as when that process crashed */
typedef struct batched {
    scripted one;
    int rest_ok, rest_calls;
} batched;

static int batched_reproduces(void *ctx, int pattern)
{
    return scripted_reproduces(&((batched *)ctx)->one, pattern);
}

static int batched_rest(void *ctx)
{
    batched *b = ctx;
    b->rest_calls++;
    return b->rest_ok && (b->one.fails_at < 1 || b->one.fails_at >= HN_POISONS);
}

static void test_batched(void)
{
    /* unchanged: nothing run */
    batched b = {{-1, 0, {0}}, 1, 0};
    CHECK(hn_pure_output_batched(0, batched_reproduces, batched_rest, &b) == 0);
    CHECK(b.one.calls == 0 && b.rest_calls == 0);
    /* read by the kernel (the first poison shows it): one run, alone */
    b = (batched){{0, 0, {0}}, 1, 0};
    CHECK(hn_pure_output_batched(1, batched_reproduces, batched_rest, &b) == 0);
    CHECK(b.one.calls == 1 && b.rest_calls == 0);
    /* pure: the first alone, then the rest in one process: two runs */
    b = (batched){{-1, 0, {0}}, 1, 0};
    CHECK(hn_pure_output_batched(1, batched_reproduces, batched_rest, &b) == 1);
    CHECK(b.one.calls == 1 && b.one.seen[0] == 1 && b.rest_calls == 1);
    /* the fmaxf case: NaN (pattern 1) fooled, pattern 0 not: one run */
    b = (batched){{0, 0, {0}}, 1, 0};
    CHECK(hn_pure_output_batched(1, batched_reproduces, batched_rest, &b) == 0);
    /* a later poison does not reproduce: the batch says no, the runs one by
     * one decide, stopping there */
    for (int k = 1; k < HN_POISONS; k++) {
        b = (batched){{k, 0, {0}}, 1, 0};
        CHECK(hn_pure_output_batched(1, batched_reproduces, batched_rest, &b) == 0);
        CHECK(b.rest_calls == 1 && b.one.calls == k + 1);
    }
    /* the batch's process failed (crash, timeout): decided one by one */
    b = (batched){{-1, 0, {0}}, 0, 0};
    CHECK(hn_pure_output_batched(1, batched_reproduces, batched_rest, &b) == 1);
    CHECK(b.rest_calls == 1 && b.one.calls == HN_POISONS);
    for (int p = 0; p < HN_POISONS; p++)
        CHECK(b.one.seen[p] == 1);
    /* and a kernel: the fmaxf case through the batched order */
    sim s;
    sim_init(&s, k_fmaxf, HN_F32, 0.0);
    s.calls = 0;
    CHECK(hn_pure_output_batched(sim_changed(&s), sim_reproduces, sim_rest, &s) == 0);
    CHECK(s.calls == 1);
    sim_init(&s, k_write, HN_F32, NAN);
    s.calls = 0;
    CHECK(hn_pure_output_batched(sim_changed(&s), sim_reproduces, sim_rest, &s) == 1);
    CHECK(s.calls == HN_POISONS);
}

int main(void)
{
    test_patterns();
    test_kernels();
    test_rule();
    test_batched();
    return CHECK_REPORT("test_purity");
}
