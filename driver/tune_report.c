/*
 * tune_report.c: how `cl1cc tune` ends: every kernel's row, the table for
 * people, and the JSON for tools and `cl1cc ci` (report/tune_json.c's
 * report_write_tune).
 */
#include <math.h>
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

void tune_report_print(const tune_run *r, FILE *out)
{
    fprintf(out, "\ncl1cc tune on %s (%s), %.1f s\n", r->gpu_name ? r->gpu_name : "no GPU",
            r->arch, r->wall_seconds);
    fprintf(out, "%-20s %-26s %-14s %11s %11s %8s %10s %6s %6s %6s %6s %7s  %s\n", "file", "kernel",
            "status", "original_ms", "best_ms", "speedup", "limit_ms", "orig%", "best%", "tried",
            "passed", "seconds", "best variant");
    double log_sum = 0;
    size_t measured = 0;
    for (size_t i = 0; i < r->kernels.len; i++) {
        const tune_kernel *w = &r->kernels.items[i];
        char base[16] = "-", best[16] = "-", speed[16] = "-", limit[16] = "-", orig[16] = "-",
             best_pct[16] = "-";
        if (isfinite(w->limit_ms))
            snprintf(limit, sizeof limit, "%.4f", w->limit_ms);
        if (isfinite(w->original_pct_of_limit))
            snprintf(orig, sizeof orig, "%.1f", w->original_pct_of_limit);
        if (isfinite(w->best_pct_of_limit))
            snprintf(best_pct, sizeof best_pct, "%.1f", w->best_pct_of_limit);
        if (isfinite(w->baseline_ms))
            snprintf(base, sizeof base, "%.4f", w->baseline_ms);
        if (isfinite(w->best_ms))
            snprintf(best, sizeof best, "%.4f", w->best_ms);
        if (isfinite(w->baseline_ms)) {
            snprintf(speed, sizeof speed, "%.2fx", w->speedup);
            log_sum += log(w->speedup);
            measured++;
        }
        fprintf(out, "%-20.20s %-26.26s %-14s %11s %11s %8s %10s %6s %6s %6ld %6ld %7.1f  %s\n",
                base_name(w->file), w->kernel, w->status, base, best, speed, limit, orig, best_pct,
                w->variants_tried, w->variants_passed, w->tune_seconds,
                w->best_label && w->best_label[0] ? w->best_label : w->detail);
    }
    if (measured)
        fprintf(out, "geomean speedup over %zu measured kernel(s): %.2fx\n", measured,
                exp(log_sum / (double)measured));
    if (r->ran_on_gpu && r->kernels.len)
        fprintf(out, "limit_ms: the roofline limit of the timed launch; orig%%, best%%: the "
                     "original's and the best variant's share of it (docs/TUNING.md, \"Roofline\")\n");
    for (size_t i = 0; i < r->kernels.len; i++) {
        const tune_kernel *w = &r->kernels.items[i];
        if (w->far_reason)
            fprintf(out, "%s: %.1f%% of its limit: %s\n", w->kernel, w->best_pct_of_limit,
                    w->far_reason);
    }
    if (!r->ran_on_gpu && r->gpu_name)
        fprintf(out, "nothing was verified or timed, and nothing was recorded.\n");
}

/* without a GPU, what tune did, in numbers: never a variant it did not build */
static void print_without_gpu(const tune_session *s, FILE *out)
{
    long launches = 0, kernels = 0, proposed = 0, built = 0, unbuilt = 0;
    for (size_t i = 0; i < s->targets.len; i++) {
        const tune_target *tk = &s->targets.items[i];
        launches += tk->n_captured;
        kernels += tk->n_captured > 0;
        proposed += tk->row.variants_tried;
        built += tk->variants_built;
        unbuilt += tk->variants_unbuilt;
    }
    fprintf(out, "no GPU: %zu kernel(s) read, launches captured: ", s->targets.len);
    if (launches)
        fprintf(out, "%ld (of %ld kernel(s))", launches, kernels);
    else
        fputs("none", out);
    if (!proposed)
        fputs(", variants proposed and compiled: none", out);
    else if (!built)
        fprintf(out, ", variants proposed: %ld, compiled: none", proposed);
    else
        fprintf(out, ", variants proposed: %ld, compiled: %ld (%ld did not compile)", proposed,
                built, unbuilt);
    fputs("; nothing was verified or timed, and nothing was recorded.\n", out);
}

/* the kernel's final row: its status and best, its strings in place */
static void finish_row(tune_target *tk)
{
    tune_kernel *r = &tk->row;
    if (tk->best_speedup > 1 && r->best_label[0])
        r->status = "improved";
    r->key = tk->key;
    r->detail = tk->detail;
    r->best_ms = tk->best_speedup > 1 ? tk->best_ms : r->baseline_ms;
    r->speedup = isfinite(r->baseline_ms) ? tk->best_speedup : NAN;
    r->best_pct_of_limit = tune_best_pct_of_limit(tk);
    tune_far_reason(tk, tk->far_reason, sizeof tk->far_reason);
    r->far_reason = tk->far_reason[0] ? tk->far_reason : NULL;
}

/* 4. the table and --json; the exit code */
int tune_report(tune_session *s)
{
    tune_run run;
    memset(&run, 0, sizeof run);
    run.cl1cc_version = CL1CC_VERSION;
    run.arch = s->loop.arch;
    run.gpu_name = s->loop.gpu_name;
    run.ran_on_gpu = s->loop.recording;
    run.budget_seconds = s->o.budget_seconds;
    run.budget_evaluations = s->o.kernel_evals;
    run.wall_seconds = tune_now() - s->loop.started;
    run.capture_seconds = s->loop.capture_seconds;
    run.capture_build_seconds = s->loop.capture_phases[HN_CAPTURE_BUILD];
    run.capture_run_seconds = s->loop.capture_phases[HN_CAPTURE_RUN];
    for (size_t i = 0; i < s->targets.len; i++) {
        tune_target *tk = &s->targets.items[i];
        finish_row(tk);
        vec_push(&run.kernels, tk->row);
        /* the run owns the progress from here */
        memset(&tk->row.progress_t, 0, sizeof tk->row.progress_t);
        memset(&tk->row.progress_best, 0, sizeof tk->row.progress_best);
    }
    tune_report_print(&run, stdout);
    if (!run.ran_on_gpu && !run.gpu_name)
        print_without_gpu(s, stdout);
    int rc = 0;
    if (s->o.json && report_write_tune(&run, s->o.json, &s->err) != 0) {
        log_error("tune: %s", sb_str(&s->err));
        rc = 1;
    }
    tune_run_free(&run);
    return rc;
}
