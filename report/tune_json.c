/*
 * tune_json.c: the tuning run as JSON, both ways: `cl1cc tune --json`
 * writes it, `cl1cc ci` reads it.  The reader is tolerant by design: a
 * later tuner may add fields (ignored) or leave optional ones out (NaN, -1,
 * NULL), so that reports from older and newer runs still come out.
 */
#include "report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

/* a kernel's numbers, in the order they are written (null: unknown) */
static const struct {
    const char *key;
    size_t offset;
} ms_keys[] = {
    {"baseline_ms", offsetof(tune_kernel, baseline_ms)},
    {"best_ms", offsetof(tune_kernel, best_ms)},
    {"speedup", offsetof(tune_kernel, speedup)},
    {"spread_ms", offsetof(tune_kernel, spread_ms)},
    {"limit_ms", offsetof(tune_kernel, limit_ms)},
    {"bytes", offsetof(tune_kernel, bytes)},
    {"flops", offsetof(tune_kernel, flops)},
    {"original_pct_of_limit", offsetof(tune_kernel, original_pct_of_limit)},
    {"best_pct_of_limit", offsetof(tune_kernel, best_pct_of_limit)},
};
static const char *const phase_keys[REPORT_JUDGE_PHASES] = {"build", "checks", "timing",
                                                             "check_runs", "lock_wait"};

#define K_KERNELS "kernels"
#define K_FILE "file"
#define K_KERNEL "kernel"
#define K_KEY "key"
#define K_STATUS "status"
#define K_BEST_LABEL "best_label"
#define K_TRIED "variants_tried"
#define K_PASSED "variants_passed"
#define K_TUNE_SECONDS "tune_seconds"
#define K_JUDGE_SECONDS "judge_seconds"
#define K_DETAIL "detail"
#define K_CHECKS "checks"
#define K_CHECKS_CAPTURES "captures"
#define K_CHECKS_RUNS "runs"
#define K_CHECKS_SLOWEST "slowest_run_seconds"
#define K_PROGRESS "progress"
#define K_NOT_CAPTURED "not_captured"
#define K_FAR_REASON "far_reason"
#define K_VERSION "cl1cc_version"
#define K_ARCH "arch"
#define K_GPU_NAME "gpu_name"
#define K_RAN_ON_GPU "ran_on_gpu"
#define K_BUDGET "budget"
#define K_BUDGET_SECONDS "seconds"
#define K_BUDGET_EVALUATIONS "evaluations"
#define K_WALL_SECONDS "wall_seconds"
#define K_CAPTURE_SECONDS "capture_seconds"
#define K_CAPTURE_BUILD_SECONDS "capture_build_seconds"
#define K_CAPTURE_RUN_SECONDS "capture_run_seconds"
#define K_FIRST_VERDICT "first_verdict_seconds"

#define MS_FIELD(k, i) (*(double *)((char *)(k) + ms_keys[i].offset))
#define MS_CFIELD(k, i) (*(const double *)((const char *)(k) + ms_keys[i].offset))
enum { N_MS = sizeof ms_keys / sizeof ms_keys[0] };

/* ---- writing ------------------------------------------------------------------ */

static void add_number(cJSON *o, const char *name, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

static const char *or_empty(const char *s) { return s ? s : ""; }

static cJSON *kernel_json(const tune_kernel *w)
{
    cJSON *k = cJSON_CreateObject();
    cJSON_AddStringToObject(k, K_FILE, or_empty(w->file));
    cJSON_AddStringToObject(k, K_KERNEL, or_empty(w->kernel));
    cJSON_AddStringToObject(k, K_KEY, or_empty(w->key));
    cJSON_AddStringToObject(k, K_STATUS, or_empty(w->status));
    for (size_t i = 0; i < N_MS; i++)
        add_number(k, ms_keys[i].key, MS_CFIELD(w, i));
    cJSON_AddStringToObject(k, K_BEST_LABEL, or_empty(w->best_label));
    cJSON_AddNumberToObject(k, K_TRIED, (double)w->variants_tried);
    cJSON_AddNumberToObject(k, K_PASSED, (double)w->variants_passed);
    cJSON_AddNumberToObject(k, K_TUNE_SECONDS, w->tune_seconds);
    cJSON *phases = cJSON_AddObjectToObject(k, K_JUDGE_SECONDS);
    for (int p = 0; p < REPORT_JUDGE_PHASES; p++)
        cJSON_AddNumberToObject(phases, phase_keys[p], round(w->judge_seconds[p] * 100) / 100);
    if (w->check_runs > 0) {
        cJSON *checks = cJSON_AddObjectToObject(k, K_CHECKS);
        cJSON_AddNumberToObject(checks, K_CHECKS_CAPTURES, (double)w->captures_checked);
        cJSON_AddNumberToObject(checks, K_CHECKS_RUNS, (double)w->check_runs);
        add_number(checks, K_CHECKS_SLOWEST, round(w->slowest_check_run_seconds * 100) / 100);
    }
    cJSON_AddStringToObject(k, K_DETAIL, or_empty(w->detail));
    if (w->not_captured)
        cJSON_AddStringToObject(k, K_NOT_CAPTURED, w->not_captured);
    if (w->far_reason)
        cJSON_AddStringToObject(k, K_FAR_REASON, w->far_reason);
    if (w->first_verdict_seconds > 0)
        cJSON_AddNumberToObject(k, K_FIRST_VERDICT, w->first_verdict_seconds);
    cJSON *prog = cJSON_AddArrayToObject(k, K_PROGRESS);
    for (size_t p = 0; p < w->progress_t.len && p < w->progress_best.len; p++) {
        cJSON *pt = cJSON_CreateArray();
        cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(w->progress_t.items[p] * 100) / 100));
        cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(w->progress_best.items[p] * 1000) / 1000));
        cJSON_AddItemToArray(prog, pt);
    }
    return k;
}

int report_write_tune(const tune_run *run, const char *path, strbuf *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, K_VERSION, or_empty(run->cl1cc_version));
    cJSON_AddStringToObject(root, K_ARCH, or_empty(run->arch));
    if (run->gpu_name)
        cJSON_AddStringToObject(root, K_GPU_NAME, run->gpu_name);
    else
        cJSON_AddNullToObject(root, K_GPU_NAME);
    cJSON_AddBoolToObject(root, K_RAN_ON_GPU, run->ran_on_gpu > 0);
    cJSON *budget = cJSON_AddObjectToObject(root, K_BUDGET);
    cJSON_AddNumberToObject(budget, K_BUDGET_SECONDS, run->budget_seconds);
    cJSON_AddNumberToObject(budget, K_BUDGET_EVALUATIONS, (double)run->budget_evaluations);
    cJSON_AddNumberToObject(root, K_WALL_SECONDS, run->wall_seconds);
    if (run->capture_seconds > 0)
        cJSON_AddNumberToObject(root, K_CAPTURE_SECONDS, run->capture_seconds);
    if (run->capture_build_seconds > 0 || run->capture_run_seconds > 0) {
        cJSON_AddNumberToObject(root, K_CAPTURE_BUILD_SECONDS, run->capture_build_seconds);
        cJSON_AddNumberToObject(root, K_CAPTURE_RUN_SECONDS, run->capture_run_seconds);
    }
    cJSON *ks = cJSON_AddArrayToObject(root, K_KERNELS);
    for (size_t i = 0; i < run->kernels.len; i++)
        cJSON_AddItemToArray(ks, kernel_json(&run->kernels.items[i]));
    return json_write_file(root, path, 1, err);
}

/* ---- reading ------------------------------------------------------------------ */

static const char *get_string(const cJSON *o, const char *name, arena *a)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) && v->valuestring ? arena_strdup(a, v->valuestring) : NULL;
}

static double get_number(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static long get_count(const cJSON *o, const char *name)
{
    double d = get_number(o, name);
    return isnan(d) || d < 0 || d > 1e15 ? -1 : (long)d;
}

static void read_progress(const cJSON *k, tune_kernel *tk)
{
    const cJSON *pt;
    cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(k, K_PROGRESS))
    {
        const cJSON *t = cJSON_GetArrayItem(pt, 0), *best = cJSON_GetArrayItem(pt, 1);
        if (!cJSON_IsNumber(t) || !cJSON_IsNumber(best))
            continue;
        vec_push(&tk->progress_t, t->valuedouble);
        vec_push(&tk->progress_best, best->valuedouble);
    }
}

static void read_kernel(const cJSON *k, tune_kernel *tk, arena *a)
{
    memset(tk, 0, sizeof *tk);
    tk->file = get_string(k, K_FILE, a);
    tk->kernel = get_string(k, K_KERNEL, a);
    tk->key = get_string(k, K_KEY, a);
    tk->status = get_string(k, K_STATUS, a);
    if (!tk->status)
        tk->status = "unknown";
    for (size_t i = 0; i < N_MS; i++)
        MS_FIELD(tk, i) = get_number(k, ms_keys[i].key);
    tk->tune_seconds = get_number(k, K_TUNE_SECONDS);
    tk->best_label = get_string(k, K_BEST_LABEL, a);
    tk->detail = get_string(k, K_DETAIL, a);
    tk->not_captured = get_string(k, K_NOT_CAPTURED, a);
    tk->far_reason = get_string(k, K_FAR_REASON, a);
    double first = get_number(k, K_FIRST_VERDICT);
    tk->first_verdict_seconds = isfinite(first) ? first : 0;
    tk->variants_tried = get_count(k, K_TRIED);
    tk->variants_passed = get_count(k, K_PASSED);
    const cJSON *phases = cJSON_GetObjectItemCaseSensitive(k, K_JUDGE_SECONDS);
    for (int p = 0; p < REPORT_JUDGE_PHASES; p++)
        tk->judge_seconds[p] = get_number(phases, phase_keys[p]);
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(k, K_CHECKS);
    tk->captures_checked = get_count(checks, K_CHECKS_CAPTURES);
    tk->check_runs = get_count(checks, K_CHECKS_RUNS);
    tk->slowest_check_run_seconds = get_number(checks, K_CHECKS_SLOWEST);
    read_progress(k, tk);
}

static void read_run(const cJSON *root, tune_run *out, arena *a)
{
    out->cl1cc_version = get_string(root, K_VERSION, a);
    out->arch = get_string(root, K_ARCH, a);
    out->gpu_name = get_string(root, K_GPU_NAME, a);
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(root, K_RAN_ON_GPU);
    if (cJSON_IsBool(gpu))
        out->ran_on_gpu = cJSON_IsTrue(gpu);
    const cJSON *budget = cJSON_GetObjectItemCaseSensitive(root, K_BUDGET);
    if (cJSON_IsObject(budget)) {
        out->budget_seconds = get_number(budget, K_BUDGET_SECONDS);
        out->budget_evaluations = get_count(budget, K_BUDGET_EVALUATIONS);
    }
    out->wall_seconds = get_number(root, K_WALL_SECONDS);
    double capture = get_number(root, K_CAPTURE_SECONDS);
    out->capture_seconds = isfinite(capture) ? capture : 0;
    double build = get_number(root, K_CAPTURE_BUILD_SECONDS), ran = get_number(root, K_CAPTURE_RUN_SECONDS);
    out->capture_build_seconds = isfinite(build) ? build : 0;
    out->capture_run_seconds = isfinite(ran) ? ran : 0;
}

int report_parse_tune(const char *json, arena *a, tune_run *out, strbuf *err)
{
    memset(out, 0, sizeof *out);
    out->ran_on_gpu = -1;
    out->budget_seconds = out->wall_seconds = NAN;
    out->budget_evaluations = -1;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, 1);
    if (!root) {
        size_t at = end ? (size_t)(end - json) : 0;
        unsigned line = 1;
        for (size_t i = 0; i < at && json[i]; i++)
            line += json[i] == '\n';
        sb_printf(err, "line %u: not valid JSON", line);
        return -1;
    }
    int rc = 0;
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(root, K_KERNELS);
    if (!cJSON_IsObject(root) || !cJSON_IsArray(kernels)) {
        sb_puts(err, "not a tuning run: no \"kernels\" array");
        rc = -1;
        goto done;
    }
    read_run(root, out, a);
    size_t index = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, kernels)
    {
        if (!cJSON_IsObject(k)) {
            sb_printf(err, "kernels[%zu] is not an object", index);
            rc = -1;
            goto done;
        }
        tune_kernel tk;
        read_kernel(k, &tk, a);
        vec_push(&out->kernels, tk);
        index++;
    }
done:
    cJSON_Delete(root);
    if (rc != 0)
        tune_run_free(out);
    return rc;
}

void tune_run_free(tune_run *run)
{
    for (size_t i = 0; i < run->kernels.len; i++) {
        vec_free(&run->kernels.items[i].progress_t);
        vec_free(&run->kernels.items[i].progress_best);
    }
    vec_free(&run->kernels);
}
