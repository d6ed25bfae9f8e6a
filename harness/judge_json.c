/*
 * judge_json.c: the judgement as JSON, both ways: `cl1cc judge --json`
 * writes it, `cl1cc tune` reads it back from the judge's child process.
 * Every key is spelled once, in the tables below.
 */
#include "harness.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

typedef struct number_key {
    const char *key;
    size_t offset; /* of a double in its struct */
} number_key;

static const number_key timing_keys[] = {
    {"median_ms", offsetof(hn_timing, median_ms)}, {"p25_ms", offsetof(hn_timing, p25_ms)},
    {"p75_ms", offsetof(hn_timing, p75_ms)},       {"min_ms", offsetof(hn_timing, min_ms)},
    {"max_ms", offsetof(hn_timing, max_ms)},
};
static const char *const runs_key = "runs";

static const number_key phase_keys[] = {
    {"build_seconds", offsetof(hn_judge_result, build_seconds)},
    {"check_seconds", offsetof(hn_judge_result, check_seconds)},
    {"timing_seconds", offsetof(hn_judge_result, timing_seconds)},
    {"total_seconds", offsetof(hn_judge_result, total_seconds)},
    {"check_run_seconds", offsetof(hn_judge_result, check_run_seconds)},
    {"lock_wait_seconds", offsetof(hn_judge_result, lock_wait_seconds)},
    {"slowest_check_run_seconds", offsetof(hn_judge_result, slowest_check_run_seconds)},
};

/* the roofline (docs/HARNESS.md, "Roofline"); null when unknown */
static const number_key roofline_keys[] = {
    {"limit_ms", offsetof(hn_judge_result, roofline.limit_ms)},
    {"read_bytes", offsetof(hn_judge_result, roofline.read_bytes)},
    {"written_bytes", offsetof(hn_judge_result, roofline.written_bytes)},
    {"flops", offsetof(hn_judge_result, roofline.flops)},
    {"copy_bytes_per_s", offsetof(hn_judge_result, peaks.copy_bytes_per_s)},
    {"fp32_flops_per_s", offsetof(hn_judge_result, peaks.fp32_flops_per_s)},
    {"original_pct_of_limit", offsetof(hn_judge_result, original_pct_of_limit)},
};
#define K_BYTES "bytes" /* read plus written, written only */
#define K_LIMIT_BOUND "limit_bound"
#define K_PCT_OF_LIMIT "pct_of_limit"

enum {
    N_TIMING = sizeof timing_keys / sizeof timing_keys[0],
    N_PHASES = sizeof phase_keys / sizeof phase_keys[0],
    N_ROOFLINE = sizeof roofline_keys / sizeof roofline_keys[0]
};

/* the result's keys, and each variant's */
#define K_FILE "file"
#define K_KERNEL "kernel"
#define K_ARCH "arch"
#define K_GPU_NAME "gpu_name"
#define K_RAN_ON_GPU "ran_on_gpu"
#define K_CAPTURES "captures"
#define K_CAPTURES_REPEATED "captures_repeated"
#define K_CHECK_RUNS "check_runs"
#define K_INSTANCES "instances"
#define K_TIMED_INSTANCE "timed_instance"
#define K_ORIGINAL "original"
#define K_VARIANTS "variants"
#define K_LABEL "label"
#define K_HASH "hash"
#define K_VERDICT "verdict"
#define K_DETAIL "detail"
#define K_TIMING "timing"
#define K_SPEEDUP "speedup"
#define K_SIGNIFICANT "significant"

#define FIELD(base, offset) (*(double *)((char *)(base) + (offset)))
#define CFIELD(base, offset) (*(const double *)((const char *)(base) + (offset)))

/* ---- writing ------------------------------------------------------------------ */

static cJSON *timing_json(const hn_timing *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, runs_key, (double)t->runs);
    for (size_t i = 0; i < N_TIMING; i++)
        cJSON_AddNumberToObject(o, timing_keys[i].key, CFIELD(t, timing_keys[i].offset));
    return o;
}

static cJSON *variant_json(const hn_variant_verdict *v)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, K_LABEL, v->label ? v->label : "");
    cJSON_AddStringToObject(e, K_HASH, v->hash);
    cJSON_AddStringToObject(e, K_VERDICT, verdict_name(v->verdict));
    cJSON_AddStringToObject(e, K_DETAIL, v->detail);
    cJSON_AddItemToObject(e, K_TIMING, timing_json(&v->timing));
    cJSON_AddNumberToObject(e, K_SPEEDUP, isfinite(v->speedup) ? v->speedup : 0);
    cJSON_AddNumberToObject(e, K_SIGNIFICANT, v->significant);
    cJSON_AddNumberToObject(e, K_PCT_OF_LIMIT, v->pct_of_limit);
    return e;
}

int hn_judge_json_write(const hn_judge_result *r, const char *path, strbuf *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, K_FILE, r->file ? r->file : "");
    cJSON_AddStringToObject(root, K_KERNEL, r->kernel ? r->kernel : "");
    cJSON_AddStringToObject(root, K_ARCH, r->arch);
    cJSON_AddStringToObject(root, K_GPU_NAME, r->gpu_name);
    cJSON_AddBoolToObject(root, K_RAN_ON_GPU, r->ran_on_gpu);
    cJSON_AddNumberToObject(root, K_CAPTURES, (double)r->n_captures);
    cJSON_AddNumberToObject(root, K_CAPTURES_REPEATED, (double)r->captures_repeated);
    cJSON_AddNumberToObject(root, K_CHECK_RUNS, (double)r->check_runs);
    if (r->instances[0]) {
        cJSON_AddStringToObject(root, K_INSTANCES, r->instances);
        cJSON_AddStringToObject(root, K_TIMED_INSTANCE, r->timed_instance);
    }
    for (size_t i = 0; i < N_PHASES; i++)
        cJSON_AddNumberToObject(root, phase_keys[i].key, CFIELD(r, phase_keys[i].offset));
    for (size_t i = 0; i < N_ROOFLINE; i++)
        cJSON_AddNumberToObject(root, roofline_keys[i].key, CFIELD(r, roofline_keys[i].offset));
    cJSON_AddNumberToObject(root, K_BYTES, r->roofline.read_bytes + r->roofline.written_bytes);
    cJSON_AddStringToObject(root, K_LIMIT_BOUND, r->roofline.bound);
    cJSON_AddItemToObject(root, K_ORIGINAL, timing_json(&r->original));
    cJSON *vs = cJSON_AddArrayToObject(root, K_VARIANTS);
    for (size_t i = 0; i < r->n_variants; i++)
        cJSON_AddItemToArray(vs, variant_json(&r->variants[i]));
    return json_write_file(root, path, 1, err);
}

/* ---- reading ------------------------------------------------------------------ */

static double number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* the string at key into out (size bytes), "" when absent */
static void string_into(const cJSON *o, const char *key, char *out, size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    snprintf(out, size, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static const char *string_in(const cJSON *o, const char *key, arena *a)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? arena_strdup(a, v->valuestring) : NULL;
}

static void timing_read(const cJSON *o, hn_timing *t)
{
    double runs = number(o, runs_key);
    t->runs = isfinite(runs) && runs > 0 ? (size_t)runs : 0;
    for (size_t i = 0; i < N_TIMING; i++)
        FIELD(t, timing_keys[i].offset) = number(o, timing_keys[i].key);
}

static void variant_read(const cJSON *e, hn_variant_verdict *v, arena *a)
{
    v->label = string_in(e, K_LABEL, a);
    string_into(e, K_HASH, v->hash, sizeof v->hash);
    const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(e, K_VERDICT);
    verdict_parse(cJSON_IsString(verdict) ? verdict->valuestring : NULL, &v->verdict);
    string_into(e, K_DETAIL, v->detail, sizeof v->detail);
    timing_read(cJSON_GetObjectItemCaseSensitive(e, K_TIMING), &v->timing);
    v->speedup = number(e, K_SPEEDUP);
    double significant = number(e, K_SIGNIFICANT);
    v->significant = significant > 0 ? 1 : significant < 0 ? -1 : 0;
    v->pct_of_limit = number(e, K_PCT_OF_LIMIT);
}

int hn_judge_json_read(const char *text, hn_judge_result *r, arena *a, strbuf *err)
{
    memset(r, 0, sizeof *r);
    cJSON *root = cJSON_Parse(text);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        sb_puts(err, "not a judgement: no JSON object");
        return -1;
    }
    r->file = string_in(root, K_FILE, a);
    r->kernel = string_in(root, K_KERNEL, a);
    string_into(root, K_ARCH, r->arch, sizeof r->arch);
    string_into(root, K_GPU_NAME, r->gpu_name, sizeof r->gpu_name);
    string_into(root, K_INSTANCES, r->instances, sizeof r->instances);
    string_into(root, K_TIMED_INSTANCE, r->timed_instance, sizeof r->timed_instance);
    r->ran_on_gpu = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, K_RAN_ON_GPU));
    double captures = number(root, K_CAPTURES);
    r->n_captures = isfinite(captures) && captures > 0 ? (size_t)captures : 0;
    double repeated = number(root, K_CAPTURES_REPEATED);
    r->captures_repeated = isfinite(repeated) && repeated > 0 ? (size_t)repeated : 0;
    double runs = number(root, K_CHECK_RUNS);
    r->check_runs = isfinite(runs) && runs > 0 ? (size_t)runs : 0;
    for (size_t i = 0; i < N_PHASES; i++)
        FIELD(r, phase_keys[i].offset) = number(root, phase_keys[i].key);
    for (size_t i = 0; i < N_ROOFLINE; i++)
        FIELD(r, roofline_keys[i].offset) = number(root, roofline_keys[i].key);
    string_into(root, K_LIMIT_BOUND, r->roofline.bound, sizeof r->roofline.bound);
    timing_read(cJSON_GetObjectItemCaseSensitive(root, K_ORIGINAL), &r->original);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, K_VARIANTS))
    {
        if (r->n_variants == HN_MAX_VARIANTS)
            break;
        variant_read(e, &r->variants[r->n_variants++], a);
    }
    cJSON_Delete(root);
    return 0;
}
