/*
 * judge.c: decides whether each variant of a kernel equals the original on
 * captured launches (and on perturbed copies of their inputs), and how fast
 * it is.  Every run of generated code is a child process with limits; the
 * child only ever sees inputs, and this process compares its outputs.
 */
#include "harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "frontend.h"
#include "proc.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* How every child of the judge runs: output captured, no stdin, its own
 * process group (killed whole at the limit), no core files. */
static proc_options child_options(double wall_seconds, size_t capture_cap)
{
    proc_options po;
    memset(&po, 0, sizeof po);
    po.capture_stdout = po.capture_stderr = 1;
    po.capture_cap = capture_cap;
    po.stdin_path = "/dev/null";
    po.new_process_group = 1;
    po.limits.wall_seconds = wall_seconds;
    po.limits.no_core = 1;
    return po;
}

/* ---- the GPU ---------------------------------------------------------------- */

int hn_gpu_detect(char *arch, size_t arch_len, char *name, size_t name_len)
{
    const char *argv[] = {"nvidia-smi", "--query-gpu=compute_cap,name",
                          "--format=csv,noheader", NULL};
    proc_options po = child_options(20, 0);
    proc_result r;
    int ok = proc_run(argv, &po, &r) == 0 && r.exited && r.exit_code == 0;
    int major = 0, minor = 0;
    char gpu[256] = "";
    if (ok && sscanf(sb_str(&r.out), "%d.%d, %255[^\n]", &major, &minor, gpu) >= 2 && major > 0) {
        snprintf(arch, arch_len, "sm_%d%d", major, minor);
        snprintf(name, name_len, "%s", gpu);
    } else {
        ok = 0;
    }
    proc_result_free(&r);
    return ok ? 1 : 0;
}

/* ---- building the driver ----------------------------------------------------- */

static int build_driver(const hn_judge_options *o, const tu_model *m, size_t kernel_index,
                        const char *const *sources, size_t n, const char *name,
                        const char *arch, const char **exe_out, arena *a, strbuf *log)
{
    strbuf src, err;
    sb_init(&src);
    sb_init(&err);
    const char *header = arena_printf(a, "%s/runtime/cl1cc_replay.cuh", o->share_dir);
    if (hn_replay_source(m, kernel_index, sources, n, header, &src, &err) != 0) {
        sb_printf(log, "driver source: %s\n", sb_str(&err));
        sb_free(&src);
        sb_free(&err);
        return -1;
    }
    const char *cu = arena_printf(a, "%s/%s.cu", o->work_dir, name);
    const char *exe = arena_printf(a, "%s/%s", o->work_dir, name);
    int rc = file_write_atomic(cu, sb_str(&src), src.len);
    sb_free(&src);
    sb_free(&err);
    if (rc != 0) {
        sb_printf(log, "%s: %s\n", cu, strerror(errno));
        return -1;
    }
    char *dir = arena_strdup(a, o->file);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir = ".";
    cstr_vec argv = {0};
    vec_push(&argv, o->nvcc);
    for (size_t i = 0; i < o->n_nvcc_flags; i++)
        vec_push(&argv, o->nvcc_flags[i]);
    vec_push(&argv, arena_printf(a, "-I%s", dir));
    vec_push(&argv, arena_printf(a, "-arch=%s", arch));
    vec_push(&argv, cu);
    vec_push(&argv, "-o");
    vec_push(&argv, exe);
    vec_push(&argv, NULL);
    proc_options po = child_options(300, 0);
    proc_result r;
    rc = proc_run(argv.items, &po, &r) == 0 && r.exited && r.exit_code == 0 ? 0 : -1;
    if (rc != 0)
        sb_printf(log, "nvcc %s failed:\n%s%s\n", cu, sb_str(&r.out), sb_str(&r.err));
    proc_result_free(&r);
    vec_free(&argv);
    *exe_out = exe;
    return rc;
}

/* ---- running one kernel of the driver ------------------------------------------ */

/* the limits of a run of generated code: wall and CPU time, files, no API
 * keys or capture folder in its environment */
static proc_options driver_options(double wall_seconds)
{
    proc_options po = child_options(wall_seconds, 1 << 16);
    po.limits.cpu_seconds = (long)wall_seconds + 10;
    po.limits.open_files = 256;
    po.limits.file_size_bytes = (long long)8 << 30;
    static const char *const drop[] = {"CL1CC_CAPTURE_DIR", "OPENAI_API_KEY", "CL1CC_LLM_KEY", NULL};
    po.env_unset = drop;
    return po;
}

typedef struct run_outcome {
    int ok;
    char verdict[16]; /* "crash", "timeout", "error" when !ok */
    char detail[512];
} run_outcome;

static run_outcome run_driver(const hn_judge_options *o, const char *exe, int index,
                              const char *meta, const char *in_dir, const char *out_dir,
                              int timed_runs, double timeout, arena *a)
{
    run_outcome out;
    memset(&out, 0, sizeof out);
    char idx[16], runs[16];
    snprintf(idx, sizeof idx, "%d", index);
    snprintf(runs, sizeof runs, "%d", timed_runs);
    const char *argv[] = {exe, idx, meta, in_dir, out_dir, runs, NULL};
    proc_options po = driver_options(timeout);
    (void)a;
    (void)o;
    proc_result r;
    if (proc_run(argv, &po, &r) != 0) {
        snprintf(out.verdict, sizeof out.verdict, "error");
        snprintf(out.detail, sizeof out.detail, "could not start %s", exe);
    } else if (r.timed_out) {
        snprintf(out.verdict, sizeof out.verdict, "timeout");
        snprintf(out.detail, sizeof out.detail, "killed after %.0f s", timeout);
    } else if (!r.exited || r.exit_code != 0) {
        snprintf(out.verdict, sizeof out.verdict, "crash");
        const char *e = sb_str(&r.err);
        snprintf(out.detail, sizeof out.detail, "%s %d: %.400s",
                 r.exited ? "exit status" : "signal", r.exited ? r.exit_code : r.signal, e);
    } else {
        out.ok = 1;
    }
    proc_result_free(&r);
    return out;
}

/* Runs kernels idx[0..n) of the driver in one process on one input set
 * (and with timed_runs, times them over rounds), each one's outputs under
 * out_dir/k<idx>.  done[i] says whether kernel idx[i] finished: when one
 * fails the process ends, and those after it are left for the caller to
 * run alone. */
static void run_batch(const hn_judge_options *o, const char *exe, const int *idx, size_t n,
                      const char *meta, const char *in_dir, const char *out_dir, int timed_runs,
                      int rounds, int *done, arena *a)
{
    strbuf list;
    sb_init(&list);
    sb_putc(&list, '@');
    for (size_t i = 0; i < n; i++) {
        sb_printf(&list, "%s%d", i ? "," : "", idx[i]);
        dir_create_all(arena_printf(a, "%s/k%d", out_dir, idx[i]), 0755);
    }
    char runs[16], rounds_s[16];
    snprintf(runs, sizeof runs, "%d", timed_runs);
    snprintf(rounds_s, sizeof rounds_s, "%d", rounds);
    const char *argv[] = {exe, sb_str(&list), meta, in_dir, out_dir, runs, rounds_s, NULL};
    double per = timed_runs > 0 ? o->timeout_s * 4 * rounds : o->timeout_s;
    proc_options po = driver_options(per * (double)n);
    proc_result r;
    /* each kernel's outputs are written after a synchronize that checked
     * it, so a `done` stands even when a later kernel of the batch failed */
    proc_run(argv, &po, &r);
    proc_result_free(&r);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        done[i] = stat(arena_printf(a, "%s/k%d/done", out_dir, idx[i]), &st) == 0;
    }
    sb_free(&list);
}

/* ---- comparing every allocation ------------------------------------------------ */

static hn_dtype alloc_dtype(const hn_judge_options *o, const hn_capture *c, int alloc)
{
    for (int i = 0; i < c->nargs && i < (int)o->n_param_dtypes; i++)
        if (c->arg_alloc[i] == alloc)
            return o->param_dtypes[i];
    return HN_BYTES;
}

/* 0 equal, else 1 with a description of the first difference.  scale_dir,
 * when not NULL, holds the original's outputs on the absolute values of
 * the same inputs (see hn_compare_scaled). */
static int compare_dirs_scaled(const hn_judge_options *o, const hn_capture *c,
                               const char *want_dir, const char *want_suffix,
                               const char *got_dir, const char *scale_dir, char *detail,
                               size_t detail_len, strbuf *err)
{
    for (int a = 0; a < c->nallocs; a++) {
        unsigned char *want = NULL, *got = NULL, *scale = NULL;
        if (hn_alloc_read(want_dir, a, want_suffix, c->alloc_size[a], &want, err) != 0)
            return -1;
        if (hn_alloc_read(got_dir, a, "out", c->alloc_size[a], &got, err) != 0) {
            free(want);
            return -1;
        }
        if (scale_dir && hn_alloc_read(scale_dir, a, "out", c->alloc_size[a], &scale, err) != 0) {
            free(want);
            free(got);
            return -1;
        }
        hn_dtype t = alloc_dtype(o, c, a);
        hn_tolerance tol = hn_default_tolerance(t);
        if (o->rtol > 0 && (t == HN_F32 || t == HN_F64 || t == HN_F16 || t == HN_BF16))
            tol.rtol = o->rtol;
        hn_compare_result res;
        hn_compare_scaled(t, tol, want, c->alloc_size[a], got, c->alloc_size[a], scale,
                          scale ? c->alloc_size[a] : 0, &res);
        free(want);
        free(got);
        free(scale);
        if (res.mismatches) {
            snprintf(detail, detail_len,
                     "allocation %d (%s): %zu of %zu elements differ, first at %zu, max abs error %g",
                     a, hn_dtype_name(t), res.mismatches, res.elements, res.first_mismatch,
                     res.max_abs_error);
            return 1;
        }
    }
    return 0;
}

static int compare_dirs(const hn_judge_options *o, const hn_capture *c, const char *want_dir,
                        const char *want_suffix, const char *got_dir, char *detail,
                        size_t detail_len, strbuf *err)
{
    return compare_dirs_scaled(o, c, want_dir, want_suffix, got_dir, NULL, detail, detail_len,
                               err);
}

/* what edit_inputs does to each allocation on its way */
typedef enum input_edit {
    INPUTS_COPY,     /* nothing */
    INPUTS_PERTURB,  /* hn_perturb with seed `arg` */
    INPUTS_POISON,   /* hn_poison with pattern `arg`, pure outputs only */
    INPUTS_ABSOLUTE  /* hn_absolute */
} input_edit;

/* every allocation's inputs from dir `from` to dir `to` (the same dir
 * edits in place), edited on the way; 0, or -1 with err */
static int edit_inputs(const hn_judge_options *o, const hn_capture *c, const char *from,
                       const char *to, input_edit how, uint64_t arg, const int *pure, strbuf *err)
{
    for (int al = 0; al < c->nallocs; al++) {
        int poisoned = how == INPUTS_POISON && pure[al];
        if (strcmp(from, to) == 0 && (how == INPUTS_COPY || (how == INPUTS_POISON && !poisoned)))
            continue;
        unsigned char *data;
        if (hn_alloc_read(from, al, "in", c->alloc_size[al], &data, err) != 0)
            return -1;
        hn_dtype t = alloc_dtype(o, c, al);
        if (how == INPUTS_PERTURB)
            hn_perturb(t, data, c->alloc_size[al], arg);
        else if (poisoned)
            hn_poison(data, c->alloc_size[al], (int)arg);
        else if (how == INPUTS_ABSOLUTE)
            hn_absolute(t, data, c->alloc_size[al]);
        int rc = hn_alloc_write(to, al, "in", data, c->alloc_size[al], err);
        free(data);
        if (rc)
            return -1;
    }
    return 0;
}

static const char *make_dir(const hn_judge_options *o, arena *a, const char *fmt, int x, int y)
{
    const char *d = arena_printf(a, "%s/", o->work_dir);
    d = arena_printf(a, "%s%s", d, arena_printf(a, fmt, x, y));
    if (dir_create_all(d, 0755) != 0)
        return NULL;
    return d;
}

/* The original's outputs on the absolute values of the inputs in in_dir:
 * the magnitudes its sums went through, which scale the float tolerance
 * (hn_compare_scaled).  NULL when it cannot run there: the comparison is
 * then element-wise on |want| alone. */
static const char *run_magnitudes(const hn_judge_options *o, const char *exe,
                                  const hn_capture *c, const char *meta, const char *in_dir,
                                  int ci, int seed, arena *a)
{
    const char *abs_in = make_dir(o, a, "absin%d-%d", ci, seed);
    const char *mag = make_dir(o, a, "mag%d-%d", ci, seed);
    strbuf err = {0};
    int ok = abs_in && mag && edit_inputs(o, c, in_dir, abs_in, INPUTS_ABSOLUTE, 0, NULL, &err) == 0;
    sb_free(&err);
    if (!ok)
        return NULL;
    run_outcome r = run_driver(o, exe, 0, meta, abs_in, mag, 0, o->timeout_s, a);
    return r.ok ? mag : NULL;
}

/* Which allocations the original writes without reading their old
 * contents: poisoning those before a variant runs makes an element the
 * variant leaves unwritten fail.  Found by running the original with the
 * allocation poisoned and seeing the same outputs. */
static void find_pure_outputs(const hn_judge_options *o, const char *exe, const hn_capture *c,
                              const char *meta, const char *ref_out, int *pure, arena *a,
                              strbuf *err)
{
    for (int a_i = 0; a_i < c->nallocs; a_i++) {
        pure[a_i] = 0;
        unsigned char *in = NULL, *out = NULL;
        if (hn_alloc_read(c->dir, a_i, "in", c->alloc_size[a_i], &in, err) != 0)
            continue;
        if (hn_alloc_read(ref_out, a_i, "out", c->alloc_size[a_i], &out, err) != 0) {
            free(in);
            continue;
        }
        int changed = memcmp(in, out, c->alloc_size[a_i]) != 0;
        free(out);
        if (!changed) {
            free(in);
            continue;
        }
        const char *pin = make_dir(o, a, "pure%d-%d/in", a_i, 0);
        const char *pout = make_dir(o, a, "pure%d-%d/out", a_i, 0);
        if (!pin || !pout || edit_inputs(o, c, c->dir, pin, INPUTS_COPY, 0, NULL, err) != 0) {
            free(in);
            continue;
        }
        hn_poison(in, c->alloc_size[a_i], 1);
        hn_alloc_write(pin, a_i, "in", in, c->alloc_size[a_i], err);
        free(in);
        run_outcome r = run_driver(o, exe, 0, meta, pin, pout, 0, o->timeout_s, a);
        char detail[256];
        if (r.ok && compare_dirs(o, c, ref_out, "out", pout, detail, sizeof detail, err) == 0)
            pure[a_i] = 1;
    }
}

/* A capture as raw files in the work folder (captures are stored
 * compressed; the driver reads raw ones). */
static const char *materialize(const hn_judge_options *o, const char *capture, int index,
                               arena *a, strbuf *err)
{
    hn_capture c;
    if (hn_capture_read(capture, &c, err) != 0)
        return NULL;
    const char *dir = make_dir(o, a, "cap%d", index, 0);
    if (!dir) {
        sb_printf(err, "%s: cannot make a folder for capture %d", o->work_dir, index);
        return NULL;
    }
    char *meta;
    size_t len;
    char path[4200];
    snprintf(path, sizeof path, "%s/meta", capture);
    if (file_read_all(path, 0, &meta, &len) != 0) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    snprintf(path, sizeof path, "%s/meta", dir);
    int rc = file_write_atomic(path, meta, len);
    free(meta);
    if (rc != 0) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    static const char *const suffixes[] = {"in", "out"};
    for (int al = 0; al < c.nallocs; al++)
        for (int s = 0; s < 2; s++) {
            unsigned char *data;
            if (hn_alloc_read(capture, al, suffixes[s], c.alloc_size[al], &data, err) != 0)
                return NULL;
            rc = hn_alloc_write(dir, al, suffixes[s], data, c.alloc_size[al], err);
            free(data);
            if (rc != 0)
                return NULL;
        }
    return dir;
}

static void set_verdict(hn_variant_verdict *v, const char *verdict, const char *detail);

/* compute-sanitizer's memcheck and racecheck over the winner on the first
 * capture: an out-of-bounds access or a shared-memory race that happened not
 * to change the outputs still fails it */
static void sanitize_winner(const hn_judge_options *o, const char *exe, int index,
                            const char *meta, const char *in, hn_variant_verdict *v, arena *a)
{
    static const char *const tools[] = {"memcheck", "racecheck"};
    char idx[16];
    snprintf(idx, sizeof idx, "%d", index);
    for (int t = 0; t < 2; t++) {
        const char *out = make_dir(o, a, "sanitize%d-%d", t, index);
        if (!out)
            return;
        const char *argv[] = {"compute-sanitizer", "--tool", tools[t], "--error-exitcode", "99",
                              exe, idx, meta, in, out, NULL};
        proc_options po = child_options(o->timeout_s * 20, 1 << 16);
        proc_result r;
        int ran = proc_run(argv, &po, &r) == 0;
        if (!ran || r.spawn_failed) {
            snprintf(v->detail, sizeof v->detail, "compute-sanitizer not found: not sanitized");
        } else if (!r.exited || r.exit_code != 0) {
            char detail[900];
            snprintf(detail, sizeof detail, "compute-sanitizer %s: %.800s", tools[t], sb_str(&r.out));
            set_verdict(v, "sanitizer", detail);
        } else if (t == 1) {
            snprintf(v->detail, sizeof v->detail, "clean under compute-sanitizer memcheck and racecheck");
        }
        proc_result_free(&r);
        if (strcmp(v->verdict, "pass") != 0 || !ran)
            return;
    }
}

/* ---- the judgement ---------------------------------------------------------------- */

static void set_verdict(hn_variant_verdict *v, const char *verdict, const char *detail)
{
    if (strcmp(v->verdict, "pass") != 0 && strcmp(v->verdict, "pending") != 0)
        return; /* the first failure stands */
    snprintf(v->verdict, sizeof v->verdict, "%s", verdict);
    snprintf(v->detail, sizeof v->detail, "%s", detail);
}

/* not yet failed */
static int live(const hn_variant_verdict *v)
{
    return strcmp(v->verdict, "pending") == 0 || strcmp(v->verdict, "pass") == 0;
}

typedef VEC(double) double_vec;

static int read_timings(const char *dir, double_vec *samples)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/timings", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    double ms;
    while (fscanf(f, "%lf", &ms) == 1)
        vec_push(samples, ms);
    fclose(f);
    return 0;
}

/* The original and every passing variant timed in one process (rounds
 * alternate the order inside it), then each variant's outputs after its
 * timed runs checked: a kernel that caches its first result fails.  0 when
 * the batch did not finish; the caller then times each in its own process.
 * scale0: the original's outputs on the absolute values of capture 0's
 * inputs (run_magnitudes), or NULL. */
static int time_batch(const hn_judge_options *o, const char *exe, const hn_capture *c,
                      const char *meta, size_t n_good, const size_t *good_index,
                      hn_judge_result *res, double_vec *base, double_vec *samples,
                      const char *scale0, arena *a, strbuf *err)
{
    int idx[HN_MAX_VARIANTS + 1], done[HN_MAX_VARIANTS + 1];
    size_t n = 0;
    idx[n++] = 0;
    for (size_t g = 0; g < n_good; g++)
        if (strcmp(res->variants[good_index[g]].verdict, "pass") == 0)
            idx[n++] = (int)g + 1;
    const char *dir = make_dir(o, a, "timebatch%d-%d", 0, 0);
    if (!dir)
        return 0;
    run_batch(o, exe, idx, n, meta, c->dir, dir, o->timed_runs, o->rounds, done, a);
    for (size_t i = 0; i < n; i++)
        if (!done[i])
            return 0;
    const char *ref0 = arena_printf(a, "%s/ref0-0", o->work_dir);
    for (size_t i = 0; i < n; i++) {
        const char *kd = arena_printf(a, "%s/k%d", dir, idx[i]);
        if (read_timings(kd, idx[i] == 0 ? base : &samples[idx[i] - 1]) != 0) {
            base->len = 0;
            for (size_t g = 0; g < n_good; g++)
                samples[g].len = 0;
            return 0;
        }
        char detail[512];
        if (idx[i] > 0 &&
            compare_dirs_scaled(o, c, ref0, "out", kd, scale0, detail, sizeof detail, err) != 0)
            set_verdict(&res->variants[good_index[idx[i] - 1]], "wrong",
                        "after repeated launches (timing runs) the outputs differ");
    }
    return 1;
}

int hn_judge(const hn_judge_options *o, hn_judge_result *res, strbuf *err)
{
    double start = now_seconds();
    memset(res, 0, sizeof *res);
    if (o->n_variants > HN_MAX_VARIANTS) {
        sb_printf(err, "at most %d variants at a time", HN_MAX_VARIANTS);
        return -1;
    }
    arena a;
    arena_init(&a);
    int rc = -1;
    res->n_variants = o->n_variants;
    for (size_t i = 0; i < o->n_variants; i++) {
        snprintf(res->variants[i].verdict, sizeof res->variants[i].verdict, "pending");
        res->variants[i].label = o->variant_labels ? o->variant_labels[i] : NULL;
    }

    tu_model m;
    model_init(&m);
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    fo.flags = o->clang_flags;
    fo.n_flags = o->n_clang_flags;
    strbuf diags;
    sb_init(&diags);
    if (fe_parse(o->file, &fo, &m, &diags) != FE_OK) {
        sb_printf(err, "%s", sb_str(&diags));
        goto done;
    }
    long kernel_index = -1;
    for (size_t i = 0; i < m.kernels.len; i++)
        if (strcmp(m.kernels.items[i].qualified_name, o->kernel) == 0 ||
            strcmp(m.kernels.items[i].name, o->kernel) == 0)
            kernel_index = (long)i;
    if (kernel_index < 0) {
        sb_printf(err, "%s: no kernel named %s", o->file, o->kernel);
        goto done;
    }
    if (dir_create_all(o->work_dir, 0755) != 0) {
        sb_printf(err, "%s: %s", o->work_dir, strerror(errno));
        goto done;
    }
    res->ran_on_gpu = hn_gpu_detect(res->arch, sizeof res->arch, res->gpu_name, sizeof res->gpu_name);
    const char *arch = res->ran_on_gpu ? res->arch : (o->arch ? o->arch : "sm_90");
    if (!res->ran_on_gpu)
        snprintf(res->arch, sizeof res->arch, "%s", arch);

    /* one driver with every variant; only when that does not build, each
     * variant alone, so the one that does not compile is judged by itself */
    double t0 = now_seconds();
    cstr_vec good = {0};
    VEC(size_t) good_index = {0};
    const char *exe;
    strbuf log;
    sb_init(&log);
    int built = build_driver(o, &m, (size_t)kernel_index, o->variant_sources, o->n_variants,
                             "driver", arch, &exe, &a, &log) == 0;
    if (built) {
        for (size_t i = 0; i < o->n_variants; i++) {
            vec_push(&good, o->variant_sources[i]);
            vec_push(&good_index, i);
        }
    } else {
        for (size_t i = 0; i < o->n_variants; i++) {
            const char *alone;
            sb_clear(&log);
            const char *name = arena_printf(&a, "check%zu", i);
            if (build_driver(o, &m, (size_t)kernel_index, &o->variant_sources[i], 1, name, arch,
                             &alone, &a, &log) != 0) {
                set_verdict(&res->variants[i], "build_error", sb_str(&log));
            } else {
                vec_push(&good, o->variant_sources[i]);
                vec_push(&good_index, i);
            }
        }
        sb_clear(&log);
        if (build_driver(o, &m, (size_t)kernel_index, good.items, good.len, "driver", arch, &exe,
                         &a, &log) != 0) {
            sb_printf(err, "the replay driver did not build: %s", sb_str(&log));
            sb_free(&log);
            goto done_vecs;
        }
    }
    sb_free(&log);
    res->build_seconds = now_seconds() - t0;
    if (!res->ran_on_gpu) {
        for (size_t g = 0; g < good.len; g++)
            set_verdict(&res->variants[good_index.items[g]], "not_run",
                        "built; no GPU on this machine, so not verified or timed");
        rc = 0;
        goto done_vecs;
    }

    /* correctness, capture by capture */
    const char **captures = arena_alloc(&a, (o->n_captures + 1) * sizeof *captures);
    const char *scale0 = NULL; /* magnitudes of capture 0's own inputs */
    for (size_t ci = 0; ci < o->n_captures; ci++)
        if (!(captures[ci] = materialize(o, o->captures[ci], (int)ci, &a, err)))
            goto done_vecs;
    for (size_t ci = 0; ci < o->n_captures; ci++) {
        hn_capture c;
        if (hn_capture_read(captures[ci], &c, err) != 0)
            goto done_vecs;
        const char *meta = arena_printf(&a, "%s/meta", c.dir);
        const char *ref = make_dir(o, &a, "ref%d-%d", (int)ci, 0);
        run_outcome r = run_driver(o, exe, 0, meta, c.dir, ref, 0, o->timeout_s, &a);
        if (!r.ok) {
            sb_printf(err, "the original kernel failed on capture %s: %s", c.dir, r.detail);
            goto done_vecs;
        }
        char detail[512];
        int d = compare_dirs(o, &c, c.dir, "out", ref, detail, sizeof detail, err);
        if (d < 0)
            goto done_vecs;
        if (d > 0) {
            sb_printf(err, "the original kernel does not reproduce capture %s (%s): "
                           "nondeterministic, or it depends on state the capture lacks",
                      c.dir, detail);
            goto done_vecs;
        }
        int pure[HN_MAX_ARGS];
        find_pure_outputs(o, exe, &c, meta, ref, pure, &a, err);
        /* input sets: the captured one, then perturbed copies */
        for (int seed = 0; seed <= o->seeds; seed++) {
            const char *in = make_dir(o, &a, "in%d-%d", (int)ci, seed);
            const char *want = make_dir(o, &a, "want%d-%d", (int)ci, seed);
            if (!in || !want || edit_inputs(o, &c, c.dir, in, INPUTS_COPY, 0, NULL, err) != 0)
                goto done_vecs;
            if (seed > 0 && edit_inputs(o, &c, in, in, INPUTS_PERTURB, (uint64_t)seed * 1000003u + ci,
                                        NULL, err) != 0)
                goto done_vecs;
            run_outcome wr = run_driver(o, exe, 0, meta, in, want, 0, o->timeout_s, &a);
            if (!wr.ok) {
                /* perturbed inputs the original cannot take: skip this seed */
                continue;
            }
            const char *mag = run_magnitudes(o, exe, &c, meta, in, (int)ci, seed, &a);
            if (ci == 0 && seed == 0)
                scale0 = mag;
            /* the variants see poisoned pure outputs */
            if (edit_inputs(o, &c, in, in, INPUTS_POISON, (uint64_t)(seed & 1), pure, err) != 0)
                goto done_vecs;
            /* each variant alone on the first input set (a crash or hang
             * is its own), then the survivors in one process per input set */
            int alone = o->isolate_every_run || (ci == 0 && seed == 0);
            int batch_done[HN_MAX_VARIANTS] = {0};
            const char *batch_dir = NULL;
            if (!alone) {
                int idx[HN_MAX_VARIANTS], done[HN_MAX_VARIANTS];
                size_t nb = 0;
                for (size_t g = 0; g < good.len; g++)
                    if (live(&res->variants[good_index.items[g]]))
                        idx[nb++] = (int)g + 1;
                batch_dir = make_dir(o, &a, "batch%d-%d", (int)ci, seed);
                if (nb && batch_dir) {
                    run_batch(o, exe, idx, nb, meta, in, batch_dir, 0, 1, done, &a);
                    for (size_t b = 0; b < nb; b++)
                        batch_done[idx[b] - 1] = done[b];
                }
            }
            for (size_t g = 0; g < good.len; g++) {
                hn_variant_verdict *v = &res->variants[good_index.items[g]];
                if (!live(v))
                    continue;
                const char *got;
                if (batch_done[g]) {
                    got = arena_printf(&a, "%s/k%zu", batch_dir, g + 1);
                } else {
                    got = make_dir(o, &a, "got%d-%d", (int)ci * 1000 + seed, (int)g);
                    run_outcome vr = run_driver(o, exe, (int)g + 1, meta, in, got, 0, o->timeout_s, &a);
                    if (!vr.ok) {
                        set_verdict(v, vr.verdict, vr.detail);
                        continue;
                    }
                }
                int cmp = compare_dirs_scaled(o, &c, want, "out", got, mag, detail,
                                              sizeof detail, err);
                if (cmp != 0) {
                    char where[700];
                    snprintf(where, sizeof where, "%s inputs of capture %zu: %s",
                             seed ? "perturbed" : "captured", ci, cmp < 0 ? sb_str(err) : detail);
                    set_verdict(v, "wrong", where);
                    continue;
                }
                snprintf(v->verdict, sizeof v->verdict, "pass");
            }
        }
    }

    /* timing: original and each passing variant in alternating rounds, in
     * separate processes, on the first capture */
    double timing_started = now_seconds();
    res->check_seconds = timing_started - t0 - res->build_seconds;
    if (o->n_captures > 0) {
        hn_capture c;
        if (hn_capture_read(captures[0], &c, err) != 0)
            goto done_vecs;
        const char *meta = arena_printf(&a, "%s/meta", c.dir);
        double_vec base = {0};
        double_vec *samples = xcalloc(good.len ? good.len : 1, sizeof *samples);
        int timed = !o->isolate_every_run &&
                    time_batch(o, exe, &c, meta, good.len, good_index.items, res, &base, samples,
                               scale0, &a, err);
        for (int round = 0; !timed && round < o->rounds; round++) {
            for (size_t g = 0; g <= good.len; g++) {
                /* alternate the order between rounds */
                size_t which = round % 2 ? good.len - g : g;
                if (which > 0) {
                    hn_variant_verdict *v = &res->variants[good_index.items[which - 1]];
                    if (strcmp(v->verdict, "pass") != 0)
                        continue;
                }
                const char *out = make_dir(o, &a, "time%d-%d", round, (int)which);
                run_outcome tr = run_driver(o, exe, (int)which, meta, c.dir, out, o->timed_runs,
                                            o->timeout_s * 4, &a);
                if (!tr.ok) {
                    if (which == 0) {
                        sb_printf(err, "timing the original failed: %s", tr.detail);
                        goto done_timing;
                    }
                    set_verdict(&res->variants[good_index.items[which - 1]], tr.verdict, tr.detail);
                    continue;
                }
                read_timings(out, which == 0 ? &base : &samples[which - 1]);
                if (which > 0) {
                    /* after many launches in one process the outputs must
                     * still be right (no caching of the first result) */
                    char detail[512];
                    const char *ref0 = arena_printf(&a, "%s/ref0-0", o->work_dir);
                    if (compare_dirs_scaled(o, &c, ref0, "out", out, scale0, detail, sizeof detail,
                                            err) != 0)
                        set_verdict(&res->variants[good_index.items[which - 1]], "wrong",
                                    "after repeated launches (timing runs) the outputs differ");
                }
            }
        }
        hn_timing_summarise(base.items, base.len, &res->original);
        long winner = -1;
        for (size_t g = 0; g < good.len; g++) {
            hn_variant_verdict *v = &res->variants[good_index.items[g]];
            if (strcmp(v->verdict, "pass") != 0)
                continue;
            hn_timing_summarise(samples[g].items, samples[g].len, &v->timing);
            v->speedup = hn_speedup(&res->original, &v->timing, &v->significant);
            if (winner < 0 || v->speedup > res->variants[good_index.items[winner]].speedup)
                winner = (long)g;
        }
        if (o->sanitize && winner >= 0)
            sanitize_winner(o, exe, (int)winner + 1, meta, c.dir,
                            &res->variants[good_index.items[winner]], &a);
        rc = 0;
        res->timing_seconds = now_seconds() - timing_started;
    done_timing:
        for (size_t g = 0; g < good.len; g++)
            vec_free(&samples[g]);
        free(samples);
        vec_free(&base);
    } else {
        rc = 0;
    }
done_vecs:
    vec_free(&good);
    vec_free(&good_index);
done:
    for (size_t i = 0; i < o->n_variants; i++)
        if (strcmp(res->variants[i].verdict, "pending") == 0)
            set_verdict(&res->variants[i], "not_run", "not judged");
    sb_free(&diags);
    model_free(&m);
    arena_free(&a);
    res->total_seconds = now_seconds() - start;
    return rc;
}
