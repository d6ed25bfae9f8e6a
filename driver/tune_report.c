/*
 * tune_report.c: what `cl1cc tune` ends with: a table for people and, with
 * --json, the summary that `cl1cc ci` and other tools read.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

#ifndef CL1CC_VERSION
#define CL1CC_VERSION "0.0.0"
#endif

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void tune_report_print(const tune_report *r, FILE *out)
{
    fprintf(out, "\ncl1cc tune on %s (%s), %.1f s\n", r->gpu_name ? r->gpu_name : "no GPU",
            r->arch, r->wall_seconds);
    fprintf(out, "%-20s %-26s %-14s %11s %11s %8s %6s %6s %7s  %s\n", "file", "kernel", "status",
            "original_ms", "best_ms", "speedup", "tried", "passed", "seconds", "best variant");
    double log_sum = 0;
    size_t measured = 0;
    for (size_t i = 0; i < r->n_rows; i++) {
        const tune_report_row *w = &r->rows[i];
        char base[16] = "-", best[16] = "-", speed[16] = "-";
        if (isfinite(w->baseline_ms))
            snprintf(base, sizeof base, "%.4f", w->baseline_ms);
        if (isfinite(w->best_ms))
            snprintf(best, sizeof best, "%.4f", w->best_ms);
        if (isfinite(w->baseline_ms)) {
            snprintf(speed, sizeof speed, "%.2fx", w->speedup);
            log_sum += log(w->speedup);
            measured++;
        }
        fprintf(out, "%-20.20s %-26.26s %-14s %11s %11s %8s %6d %6d %7.1f  %s\n",
                base_name(w->file), w->kernel, w->status, base, best, speed, w->tried, w->passed,
                w->seconds, w->best_label && w->best_label[0] ? w->best_label : w->detail);
    }
    if (measured)
        fprintf(out, "geomean speedup over %zu measured kernel(s): %.2fx\n", measured,
                exp(log_sum / (double)measured));
    if (!r->ran_on_gpu)
        fprintf(out, "%snothing was verified or timed, and nothing was recorded.\n",
                r->gpu_name ? "" : "no GPU: ");
}

static void add_number(cJSON *o, const char *name, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

int tune_report_write_json(const tune_report *r, const char *path, strbuf *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "cl1cc_version", CL1CC_VERSION);
    cJSON_AddStringToObject(root, "arch", r->arch);
    if (r->gpu_name)
        cJSON_AddStringToObject(root, "gpu_name", r->gpu_name);
    else
        cJSON_AddNullToObject(root, "gpu_name");
    cJSON_AddBoolToObject(root, "ran_on_gpu", r->ran_on_gpu);
    cJSON *budget = cJSON_AddObjectToObject(root, "budget");
    cJSON_AddNumberToObject(budget, "seconds", r->budget_seconds);
    cJSON_AddNumberToObject(budget, "evaluations", r->kernel_evals);
    cJSON_AddNumberToObject(root, "wall_seconds", r->wall_seconds);
    cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
    for (size_t i = 0; i < r->n_rows; i++) {
        const tune_report_row *w = &r->rows[i];
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "file", w->file);
        cJSON_AddStringToObject(k, "kernel", w->kernel);
        cJSON_AddStringToObject(k, "key", w->key);
        cJSON_AddStringToObject(k, "status", w->status);
        add_number(k, "baseline_ms", w->baseline_ms);
        add_number(k, "best_ms", w->best_ms);
        add_number(k, "speedup", isfinite(w->baseline_ms) ? w->speedup : NAN);
        add_number(k, "spread_ms", w->spread_ms);
        cJSON_AddStringToObject(k, "best_label", w->best_label ? w->best_label : "");
        cJSON_AddNumberToObject(k, "variants_tried", w->tried);
        cJSON_AddNumberToObject(k, "variants_passed", w->passed);
        cJSON_AddNumberToObject(k, "tune_seconds", w->seconds);
        cJSON *phases = cJSON_AddObjectToObject(k, "judge_seconds");
        static const char *const names[3] = {"build", "checks", "timing"};
        for (int p = 0; p < 3; p++)
            cJSON_AddNumberToObject(phases, names[p], round(w->judge_phase_s[p] * 100) / 100);
        cJSON_AddStringToObject(k, "detail", w->detail ? w->detail : "");
        cJSON *prog = cJSON_AddArrayToObject(k, "progress");
        for (size_t p = 0; p < w->n_progress; p++) {
            cJSON *pt = cJSON_CreateArray();
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(w->progress_t[p] * 100) / 100));
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(round(w->progress_best[p] * 1000) / 1000));
            cJSON_AddItemToArray(prog, pt);
        }
        cJSON_AddItemToArray(ks, k);
    }
    return json_write_file(root, path, 1, err);
}
