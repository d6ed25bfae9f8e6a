/*
 * judge_exec.c: the judge's child processes: nvidia-smi, nvcc building the
 * replay driver, the driver itself (alone or a batch of kernels, with
 * limits) and compute-sanitizer.  The child only ever sees inputs.
 */
#include "judge_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

proc_options judge_child_options(double wall_seconds, size_t capture_cap)
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

int hn_gpu_detect(char *arch, size_t arch_len, char *name, size_t name_len)
{
    const char *argv[] = {"nvidia-smi", "--query-gpu=compute_cap,name",
                          "--format=csv,noheader", NULL};
    proc_options po = judge_child_options(20, 0);
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

/* nvcc's command line for the driver: the TU's folder on the include path.
 * unused_host_code: the driver holds the whole TU, host code too, which may
 * call functions of the program's other files (eigenvalues' bisect_large.cu
 * calls matlab.cpp's writeTridiagSymMatlab); the driver never runs it, so
 * the link drops the functions nothing reaches (each host function in its
 * own section, --gc-sections) and their references with them.  Only after
 * a plain link failed on them: the driver is otherwise built as always. */
static void nvcc_argv(const hn_judge_request *rq, const char *arch, const char *cu,
                      const char *exe, int unused_host_code, cstr_vec *argv, arena *a)
{
    char *dir = arena_strdup(a, rq->file);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir = ".";
    vec_push(argv, rq->nvcc);
    for (size_t i = 0; i < rq->n_nvcc_flags; i++)
        vec_push(argv, rq->nvcc_flags[i]);
    vec_push(argv, arena_printf(a, "-I%s", dir));
    vec_push(argv, arena_printf(a, "-arch=%s", arch));
    vec_push(argv, cu);
    vec_push(argv, "-o");
    vec_push(argv, exe);
    if (unused_host_code) {
        static const char *const drop[] = {"-Xcompiler", "-ffunction-sections", "-Xlinker",
                                           "--gc-sections"};
        for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
            vec_push(argv, drop[i]);
    }
    vec_push(argv, NULL);
}

int judge_build_driver(const hn_judge_request *rq, const tu_model *m, size_t kernel_index,
                       const char *const *sources, size_t n, const char *name, const char *arch,
                       const char **exe_out, arena *a, strbuf *log)
{
    strbuf src, err;
    sb_init(&src);
    sb_init(&err);
    const char *header = arena_printf(a, "%s/runtime/cl1cc_replay.cuh", rq->share_dir);
    const char *cu = arena_printf(a, "%s/%s.cu", rq->work_dir, name);
    const char *exe = arena_printf(a, "%s/%s", rq->work_dir, name);
    *exe_out = exe;
    /* a template kernel's driver instantiates what its captures ran */
    cstr_vec instances = {0};
    hn_capture_instances(rq->captures, rq->n_captures, a, &instances, &err);
    sb_clear(&err);
    int gen = hn_replay_source_instances(m, kernel_index, sources, n, instances.items,
                                         instances.len, header, &src, &err);
    vec_free(&instances);
    if (gen != 0) {
        sb_printf(log, "driver source: %s\n", sb_str(&err));
        sb_free(&src);
        sb_free(&err);
        return -1;
    }
    int rc = file_write_atomic(cu, sb_str(&src), src.len);
    sb_free(&src);
    sb_free(&err);
    if (rc != 0) {
        sb_printf(log, "%s: %s\n", cu, strerror(errno));
        return -1;
    }
    proc_options po = judge_child_options(300, 0);
    proc_result r;
    for (int drop = 0; drop < 2; drop++) {
        cstr_vec argv = {0};
        nvcc_argv(rq, arch, cu, exe, drop, &argv, a);
        rc = proc_run(argv.items, &po, &r) == 0 && r.exited && r.exit_code == 0 ? 0 : -1;
        vec_free(&argv);
        int unresolved = rc != 0 && strstr(sb_str(&r.err), "undefined reference") != NULL;
        if (rc != 0 && (drop || !unresolved))
            sb_printf(log, "nvcc %s failed:\n%s%s\n", cu, sb_str(&r.out), sb_str(&r.err));
        proc_result_free(&r);
        if (rc == 0 || !unresolved)
            break;
    }
    return rc;
}

/* the API keys' variables (config.h lists CL1CC_LLM_API_KEY), and what
 * else a run of generated code must not see */
static const char *const api_keys[] = {"CL1CC_LLM_API_KEY", "OPENAI_API_KEY"};
static const char *const hidden_from_generated_code[] = {"CL1CC_LLM_API_KEY", "OPENAI_API_KEY",
                                                         "CL1CC_CAPTURE_DIR", NULL};

int hn_judge_hide_keys(const hn_judge_settings *s)
{
    int rc = 0;
    for (size_t i = 0; i < sizeof api_keys / sizeof api_keys[0]; i++)
        if (unsetenv(api_keys[i]) != 0)
            rc = -1;
    if (s->key_env && *s->key_env && unsetenv(s->key_env) != 0)
        rc = -1;
    return rc;
}

/* the limits of a run of generated code: wall and CPU time, files, no API
 * keys or capture folder in its environment */
static proc_options driver_options(double wall_seconds)
{
    proc_options po = judge_child_options(wall_seconds, 1 << 16);
    po.limits.cpu_seconds = (long)wall_seconds + 10;
    po.limits.open_files = 256;
    po.limits.file_size_bytes = (long long)8 << 30;
    po.env_unset = hidden_from_generated_code;
    return po;
}

/* argv run under the GPU's lock taken for use; with --verbose, a line
 * per run with its seconds (where a slow check goes) */
static int run_locked(const char *const *argv, const proc_options *po, proc_result *r,
                      hn_gpu_use use)
{
    int lock = hn_gpu_lock(use);
    double start = proc_now_seconds();
    int started = proc_run(argv, po, r);
    hn_gpu_unlock(lock);
    log_verbose("judge: ran %s %s %s on %s: %.2f s", argv[0], argv[1], argv[2] ? argv[2] : "",
                argv[2] && argv[3] ? argv[3] : "", proc_now_seconds() - start);
    return started;
}

/* the driver stopped for want of GPU memory (cudaErrorMemoryAllocation) */
static int out_of_gpu_memory(const proc_result *r)
{
    return r->exited && r->exit_code != 0 && strstr(sb_str(&r->err), "out of memory") != NULL;
}

run_outcome judge_run_driver(const char *exe, int index, const char *meta, const char *in_dir,
                             const char *out_dir, int timed_runs, double timeout)
{
    run_outcome out;
    memset(&out, 0, sizeof out);
    char idx[16], runs[16];
    snprintf(idx, sizeof idx, "%d", index);
    snprintf(runs, sizeof runs, "%d", timed_runs);
    const char *argv[] = {exe, idx, meta, in_dir, out_dir, runs, NULL};
    proc_options po = driver_options(timeout);
    proc_result r;
    hn_gpu_use use = timed_runs > 0 ? HN_GPU_TIME : HN_GPU_CHECK;
    int started = run_locked(argv, &po, &r, use);
    /* a check that shared the GPU with other judges' working sets and ran
     * out of its memory runs again with the GPU to itself */
    if (started == 0 && use == HN_GPU_CHECK && out_of_gpu_memory(&r)) {
        log_verbose("judge: %s ran out of GPU memory beside other judges: again, alone", exe);
        proc_result_free(&r);
        started = run_locked(argv, &po, &r, HN_GPU_TIME);
    }
    if (started != 0) {
        out.verdict = VERDICT_ERROR;
        snprintf(out.detail, sizeof out.detail, "could not start %s", exe);
    } else if (r.timed_out) {
        out.verdict = VERDICT_TIMEOUT;
        snprintf(out.detail, sizeof out.detail, "killed after %.0f s", timeout);
    } else if (!r.exited || r.exit_code != 0) {
        out.verdict = VERDICT_CRASH;
        const char *e = sb_str(&r.err);
        snprintf(out.detail, sizeof out.detail, "%s %d: %.400s",
                 r.exited ? "exit status" : "signal", r.exited ? r.exit_code : r.signal, e);
    } else {
        out.ok = 1;
    }
    proc_result_free(&r);
    return out;
}

run_outcome judge_run_device(const char *exe, const char *file, double timeout)
{
    run_outcome out;
    memset(&out, 0, sizeof out);
    const char *argv[] = {exe, "@device", file, NULL};
    proc_options po = driver_options(timeout);
    proc_result r;
    int started = run_locked(argv, &po, &r, HN_GPU_TIME); /* it measures the GPU's bandwidth */
    if (started != 0)
        snprintf(out.detail, sizeof out.detail, "could not start %s", exe);
    else if (r.timed_out || !r.exited || r.exit_code != 0)
        snprintf(out.detail, sizeof out.detail, "%.400s", sb_str(&r.err));
    else
        out.ok = 1;
    out.verdict = out.ok ? VERDICT_PASS : VERDICT_ERROR;
    proc_result_free(&r);
    return out;
}

void judge_run_batch(const hn_judge_request *rq, const char *exe, const int *idx, size_t n,
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
    double timeout = rq->settings.timeout_s;
    double per = timed_runs > 0 ? timeout * 4 * rounds : timeout;
    proc_options po = driver_options(per * (double)n);
    proc_result r;
    /* each kernel's outputs are written after a synchronize that checked
     * it, so a `done` stands even when a later kernel of the batch failed */
    run_locked(argv, &po, &r, timed_runs > 0 ? HN_GPU_TIME : HN_GPU_CHECK);
    proc_result_free(&r);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        done[i] = stat(arena_printf(a, "%s/k%d/done", out_dir, idx[i]), &st) == 0;
    }
    sb_free(&list);
}

void judge_run_sets(const hn_judge_request *rq, const char *exe, int index, const char *meta,
                    const char *const *ins, const char *const *outs, size_t n, int *done,
                    arena *a)
{
    const char **argv = arena_alloc(a, (2 * n + 4) * sizeof *argv);
    size_t k = 0;
    argv[k++] = exe;
    argv[k++] = arena_printf(a, "+%d", index);
    argv[k++] = meta;
    for (size_t i = 0; i < n; i++) {
        argv[k++] = ins[i];
        argv[k++] = outs[i];
    }
    argv[k] = NULL;
    proc_options po = driver_options(rq->settings.timeout_s * (double)n);
    proc_result r;
    run_locked(argv, &po, &r, HN_GPU_CHECK);
    proc_result_free(&r);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        done[i] = stat(arena_printf(a, "%s/done", outs[i]), &st) == 0;
    }
}

int judge_read_timings(const char *dir, double_vec *samples)
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

/* an out-of-bounds access or a shared-memory race that happened not to
 * change the outputs still fails the variant */
void judge_sanitize(const hn_judge_request *rq, const char *exe, int index, const char *meta,
                    const char *in, hn_variant_verdict *v, arena *a)
{
    static const char *const tools[] = {"memcheck", "racecheck"};
    char idx[16];
    snprintf(idx, sizeof idx, "%d", index);
    for (int t = 0; t < 2; t++) {
        const char *out = judge_make_dir(rq, a, "sanitize%d-%d", t, index);
        if (!out)
            return;
        const char *argv[] = {"compute-sanitizer", "--tool", tools[t], "--error-exitcode", "99",
                              exe, idx, meta, in, out, NULL};
        proc_options po = judge_child_options(rq->settings.timeout_s * 20, 1 << 16);
        po.env_unset = hidden_from_generated_code; /* it runs the driver */
        proc_result r;
        int ran = run_locked(argv, &po, &r, HN_GPU_CHECK) == 0;
        if (!ran || r.spawn_failed) {
            snprintf(v->detail, sizeof v->detail, "compute-sanitizer not found: not sanitized");
        } else if (!r.exited || r.exit_code != 0) {
            char detail[900];
            snprintf(detail, sizeof detail, "compute-sanitizer %s: %.800s", tools[t], sb_str(&r.out));
            judge_set_verdict(v, VERDICT_SANITIZER, detail);
        } else if (t == 1) {
            snprintf(v->detail, sizeof v->detail, "clean under compute-sanitizer memcheck and racecheck");
        }
        proc_result_free(&r);
        if (v->verdict != VERDICT_PASS || !ran)
            return;
    }
}

void judge_set_verdict(hn_variant_verdict *v, verdict_kind verdict, const char *detail)
{
    if (v->verdict != VERDICT_PASS && v->verdict != VERDICT_PENDING)
        return; /* the first failure stands */
    v->verdict = verdict;
    snprintf(v->detail, sizeof v->detail, "%s", detail);
}
