/*
 * tune_json.c: reads what `cl1cc tune --json` writes.  Tolerant by design:
 * a later tuner may add fields (ignored) or leave optional ones out (NaN,
 * -1, NULL), so that reports from older and newer runs still come out.
 */
#include "report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

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
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(root, "kernels");
    if (!cJSON_IsObject(root) || !cJSON_IsArray(kernels)) {
        sb_puts(err, "not a tuning run: no \"kernels\" array");
        rc = -1;
        goto done;
    }
    out->cl1cc_version = get_string(root, "cl1cc_version", a);
    out->arch = get_string(root, "arch", a);
    out->gpu_name = get_string(root, "gpu_name", a);
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(root, "ran_on_gpu");
    if (cJSON_IsBool(gpu))
        out->ran_on_gpu = cJSON_IsTrue(gpu);
    const cJSON *budget = cJSON_GetObjectItemCaseSensitive(root, "budget");
    if (cJSON_IsObject(budget)) {
        out->budget_seconds = get_number(budget, "seconds");
        out->budget_evaluations = get_count(budget, "evaluations");
    }
    out->wall_seconds = get_number(root, "wall_seconds");
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
        tk.file = get_string(k, "file", a);
        tk.kernel = get_string(k, "kernel", a);
        tk.key = get_string(k, "key", a);
        tk.status = get_string(k, "status", a);
        if (!tk.status)
            tk.status = "unknown";
        tk.baseline_ms = get_number(k, "baseline_ms");
        tk.best_ms = get_number(k, "best_ms");
        tk.speedup = get_number(k, "speedup");
        tk.spread_ms = get_number(k, "spread_ms");
        tk.tune_seconds = get_number(k, "tune_seconds");
        tk.best_label = get_string(k, "best_label", a);
        tk.detail = get_string(k, "detail", a);
        tk.variants_tried = get_count(k, "variants_tried");
        tk.variants_passed = get_count(k, "variants_passed");
        vec_push(&out->kernels, tk);
        index++;
    }
done:
    cJSON_Delete(root);
    if (rc != 0)
        vec_free(&out->kernels);
    return rc;
}

void tune_run_free(tune_run *run) { vec_free(&run->kernels); }
