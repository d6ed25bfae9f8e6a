/*
 * tune_judge.c: one kernel's round of `cl1cc tune` as a judge job: the
 * variants written out and the `cl1cc judge` command line the pool runs,
 * then its JSON read back into the kernel's history and the tuning
 * database (every evaluation, every variant with its verdict).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kernel_key.h"
#include "launch_rule.h"
#include "tune.h"
#include "tunedb.h"

static char *features_json(const double *f)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < POL_NFEATURES; i++)
        cJSON_AddNumberToObject(o, pol_feature_name(i), round(f[i] * 1e6) / 1e6);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}


static double json_number(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *json_string(const cJSON *o, const char *name, arena *a)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? arena_strdup(a, v->valuestring) : "";
}


/* The kernel's database key for the arch judged on, and its row (with the
 * chooser's features) once results are recorded. */
void tune_key_kernel(tune_run *run, tune_kernel *tk)
{
    if (tk->key[0] && strcmp(tk->key_arch, run->arch) == 0 && (tk->recorded || !run->db))
        return;
    kernel_key(tk->model, tk->k, run->arch, (const char *const *)run->cl->codegen_flags.items,
               run->cl->codegen_flags.len, tk->key);
    snprintf(tk->key_arch, sizeof tk->key_arch, "%s", run->arch);
    if (!run->db)
        return;
    strbuf err;
    sb_init(&err);
    char *fj = features_json(tk->features);
    if (tunedb_record_kernel(run->db, tk->key, tk->name, tk->file, tk->original, fj, &err) != 0)
        log_warn("tune: %s", sb_str(&err));
    else
        tk->recorded = 1;
    free(fj);
    sb_free(&err);
}

/* the first judgement that ran on a GPU decides the arch (that of the
 * machine the pool ran it on: with Slurm, not this one) and opens the
 * database */
static void start_recording(tune_run *run, const cJSON *root, arena *a)
{
    if (run->recording)
        return;
    run->recording = 1;
    const char *arch = json_string(root, "arch", a);
    if (arch[0])
        run->arch = arch;
    const char *name = json_string(root, "gpu_name", a);
    run->gpu_name = name[0] ? name : NULL;
    strbuf err;
    sb_init(&err);
    if (tunedb_open(run->db_path, TUNEDB_READWRITE, &run->db, &err) != 0) {
        log_warn("tune: %s: results are not recorded", sb_str(&err));
        run->db = NULL;
    }
    sb_free(&err);
}

static void record_results(tune_run *run, tune_kernel *tk, const cJSON *root,
                           const pol_proposal *props, size_t n, arena *a)
{
    const cJSON *original = cJSON_GetObjectItemCaseSensitive(root, "original");
    double base = json_number(original, "median_ms");
    if (isfinite(base) && base > 0)
        tk->baseline_ms = base;
    const cJSON *vs = cJSON_GetObjectItemCaseSensitive(root, "variants");
    strbuf err;
    sb_init(&err);
    for (size_t i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetArrayItem(vs, (int)i);
        const char *verdict = v ? json_string(v, "verdict", a) : "not_run";
        const char *detail = v ? json_string(v, "detail", a) : "the judge gave no verdict";
        const cJSON *timing = v ? cJSON_GetObjectItemCaseSensitive(v, "timing") : NULL;
        double ms = json_number(timing, "median_ms");
        double spread = json_number(timing, "p75_ms") - json_number(timing, "p25_ms");
        double raw = v ? json_number(v, "speedup") : NAN;
        int significant = v ? (int)json_number(v, "significant") : 0;
        int pass = strcmp(verdict, "pass") == 0;
        /* a difference inside the spread is no speedup */
        double speedup = !pass ? NAN : significant > 0 ? raw : (raw > 1 ? 1.0 : raw);
        tk->tried++;
        tk->passed += pass;
        pol_sample s = {props[i].source, props[i].label, verdict, speedup};
        vec_push(&tk->history, s);
        if (pass && speedup > 1 && speedup > tk->best_speedup) {
            tk->best_speedup = speedup;
            tk->best_ms = ms;
            tk->best_label = props[i].label;
            tk->spread_ms = spread;
            vec_push(&tk->progress_t, tk->seconds);
            vec_push(&tk->progress_best, speedup);
        }
        if (run->db) {
            char hash[65], edits[LAUNCH_RULE_EDITS_MAX];
            const char *launch_edits = launch_rule_edits(props[i].source, edits);
            tunedb_variant_hash(props[i].source, launch_edits, hash);
            tunedb_variant tv;
            memset(&tv, 0, sizeof tv);
            tv.kernel_key = tk->key;
            tv.kernel_name = tk->k->qualified_name;
            tv.arch = run->arch;
            tv.source = props[i].source;
            tv.launch_edits = launch_edits;
            tv.policy = "builtin";
            tv.transforms = props[i].label;
            tv.verified = pass;
            tv.baseline_ms = isfinite(tk->baseline_ms) ? tk->baseline_ms : NAN;
            tv.variant_ms = pass ? ms : NAN;
            tv.spread_ms = pass && isfinite(spread) ? spread : NAN;
            tv.speedup = pass && isfinite(speedup) ? speedup : NAN;
            tv.gpu_name = run->gpu_name;
            if (tunedb_record_evaluation(run->db, tk->key, hash, verdict, pass ? ms : NAN, detail,
                                         &err) != 0 ||
                tunedb_record_variant(run->db, &tv, NULL, &err) != 0) {
                log_warn("tune: recording a result: %s", sb_str(&err));
                sb_clear(&err);
            }
        }
    }
    sb_free(&err);
}

/* writes the variants and the judge's command line; 0, or -1 (tk->detail) */
int tune_prepare_job(tune_run *run, tune_kernel *tk, round_job *rj, pool_job *pj, arena *a)
{
    rj->tk = tk;
    rj->dir = arena_printf(a, "%s/%s-k%zu-r%d", run->work, hn_capture_tag(tk->file, a), tk->index,
                           tk->rounds);
    if (dir_create_all(rj->dir, 0755) != 0) {
        snprintf(tk->detail, sizeof tk->detail, "%s: %s", rj->dir, strerror(errno));
        return -1;
    }
    cstr_vec *argv = &rj->argv;
    vec_push(argv, run->self);
    vec_push(argv, "judge");
    vec_push(argv, tk->file);
    vec_push(argv, tk->k->qualified_name);
    vec_push(argv, "--captures");
    vec_push(argv, tk->captures);
    for (size_t i = 0; i < rj->n; i++) {
        const char *path = arena_printf(a, "%s/v%zu.cu", rj->dir, i);
        if (file_write_atomic(path, rj->props[i].source, strlen(rj->props[i].source)) != 0) {
            snprintf(tk->detail, sizeof tk->detail, "%s: %s", path, strerror(errno));
            return -1;
        }
        vec_push(argv, "--variant");
        vec_push(argv, path);
        vec_push(argv, "--label");
        vec_push(argv, rj->props[i].label);
    }
    rj->json_path = arena_printf(a, "%s/judge.json", rj->dir);
    rj->out_path = arena_printf(a, "%s/judge.out", rj->dir);
    rj->err_path = arena_printf(a, "%s/judge.err", rj->dir);
    const char *opts[] = {"--json", rj->json_path, "--work", arena_printf(a, "%s/work", rj->dir),
                          "--runs", arena_printf(a, "%d", run->judge_runs),
                          "--rounds", arena_printf(a, "%d", run->judge_rounds),
                          "--seeds", arena_printf(a, "%d", run->judge_seeds),
                          "--timeout", arena_printf(a, "%g", run->judge_timeout), "--"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        vec_push(argv, opts[i]);
    for (size_t i = 0; i < run->n_nvcc_flags; i++)
        vec_push(argv, run->nvcc_flags[i]);
    memset(pj, 0, sizeof *pj);
    pj->argv = argv->items;
    pj->argc = argv->len;
    pj->label = arena_printf(a, "%s-r%d", tk->k->name, tk->rounds);
    pj->needs_gpu = 1;
    pj->timeout_s = 120 + run->judge_timeout * (double)(rj->n + 1) * 8;
    pj->stdout_path = rj->out_path;
    pj->stderr_path = rj->err_path;
    return 0;
}

/* the last line of a file, for a one-line reason */
static void last_line(const char *path, char *out, size_t size)
{
    char *text = NULL;
    out[0] = '\0';
    if (file_read_all(path, 1 << 20, &text, NULL) != 0)
        return;
    const char *last = text;
    for (const char *p = text; *p; p++)
        if (p[0] == '\n' && p[1])
            last = p + 1;
    snprintf(out, size, "%.300s", last);
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = '\0';
    free(text);
}

/* reads the judgement into tk; 0, or -1 when the judge itself failed */
int tune_finish_job(tune_run *run, round_job *rj, const pool_job *pj, arena *a)
{
    tune_kernel *tk = rj->tk;
    tk->seconds += pj->wall_s;
    char *text = NULL;
    if (!pool_job_ok(pj) || file_read_all(rj->json_path, 64 << 20, &text, NULL) != 0) {
        char why[320];
        last_line(rj->err_path, why, sizeof why);
        if (!why[0])
            snprintf(why, sizeof why, "%s", pj->detail);
        snprintf(tk->detail, sizeof tk->detail, "the judge failed (%s, exit %d): %s", pj->status,
                 pj->exit_code, why);
        free(text);
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        snprintf(tk->detail, sizeof tk->detail, "%s: not JSON", rj->json_path);
        return -1;
    }
    static const char *const phases[3] = {"build_seconds", "check_seconds", "timing_seconds"};
    for (int p = 0; p < 3; p++) {
        double s = json_number(root, phases[p]);
        tk->judge_phase_s[p] += isfinite(s) ? s : 0;
    }
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(root, "ran_on_gpu");
    run->ran_on_gpu = cJSON_IsTrue(gpu);
    tk->build_errors = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(root, "variants"))
        tk->build_errors += strcmp(json_string(v, "verdict", a), "build_error") == 0;
    if (run->ran_on_gpu) {
        start_recording(run, root, a);
        tune_key_kernel(run, tk);
        record_results(run, tk, root, rj->props, rj->n, a);
    }
    cJSON_Delete(root);
    return 0;
}

/* a proposal that failed before the judge (a bad LLM reply): recorded as
 * a failed evaluation */
void tune_record_failed_proposal(tune_run *run, tune_kernel *tk, const pol_proposal *p)
{
    pol_sample s = {NULL, p->label, "bad_reply", NAN};
    vec_push(&tk->history, s);
    tk->tried++;
    if (!run->db)
        return;
    strbuf err;
    sb_init(&err);
    char hash[65];
    tunedb_variant_hash(p->label, p->failure, hash);
    if (tunedb_record_evaluation(run->db, tk->key, hash, "bad_reply", NAN, p->failure, &err) != 0)
        log_warn("tune: recording a failed proposal: %s", sb_str(&err));
    sb_free(&err);
}
