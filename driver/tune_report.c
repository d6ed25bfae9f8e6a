/*
 * tune_report.c: the table `cl1cc tune` ends with, for people.  The JSON
 * for tools and `cl1cc ci` is report/tune_json.c's (report_write_tune).
 */
#include <math.h>
#include <string.h>

#include "tune.h"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void tune_report_print(const tune_run *r, FILE *out)
{
    fprintf(out, "\ncl1cc tune on %s (%s), %.1f s\n", r->gpu_name ? r->gpu_name : "no GPU",
            r->arch, r->wall_seconds);
    fprintf(out, "%-20s %-26s %-14s %11s %11s %8s %6s %6s %7s  %s\n", "file", "kernel", "status",
            "original_ms", "best_ms", "speedup", "tried", "passed", "seconds", "best variant");
    double log_sum = 0;
    size_t measured = 0;
    for (size_t i = 0; i < r->kernels.len; i++) {
        const tune_kernel *w = &r->kernels.items[i];
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
        fprintf(out, "%-20.20s %-26.26s %-14s %11s %11s %8s %6ld %6ld %7.1f  %s\n",
                base_name(w->file), w->kernel, w->status, base, best, speed, w->variants_tried,
                w->variants_passed, w->tune_seconds,
                w->best_label && w->best_label[0] ? w->best_label : w->detail);
    }
    if (measured)
        fprintf(out, "geomean speedup over %zu measured kernel(s): %.2fx\n", measured,
                exp(log_sum / (double)measured));
    if (!r->ran_on_gpu)
        fprintf(out, "%snothing was verified or timed, and nothing was recorded.\n",
                r->gpu_name ? "" : "no GPU: ");
}
