/*
 * judge_roofline.c: the judgement's roofline step: the GPU's peaks from
 * the replay driver (`@device`, once per tune run and GPU model), the timed capture's bytes and flops
 * (roofline.c, roofline_flops.c), its limit, and how close the original
 * and each passing variant come to it.
 */
#include "judge_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rq->peaks_dir's file for the GPU named name: its letters and digits */
static const char *shared_peaks_file(const hn_judge_request *rq, const char *name, arena *a)
{
    if (!rq->peaks_dir || !name || !*name)
        return NULL;
    char *file = arena_printf(a, "%s/%s.peaks", rq->peaks_dir, name);
    for (char *c = file + strlen(rq->peaks_dir) + 1; *c && strcmp(c, ".peaks") != 0; c++)
        if (!isalnum((unsigned char)*c))
            *c = '_';
    return file;
}

int judge_device_peaks(const hn_judge_request *rq, const char *exe, const char *gpu_name,
                       hn_device_peaks *p, arena *a, strbuf *err)
{
    const char *shared = shared_peaks_file(rq, gpu_name, a);
    strbuf ignored = {0};
    int found = shared && hn_device_peaks_read(shared, p, &ignored) == 0;
    sb_free(&ignored);
    if (found)
        return 0;
    const char *file = arena_printf(a, "%s/device", rq->work_dir);
    run_outcome r = judge_run_device(exe, file, rq->settings.timeout_s);
    if (!r.ok) {
        sb_printf(err, "measuring the GPU failed: %s", r.detail);
        return -1;
    }
    if (hn_device_peaks_read(file, p, err) != 0)
        return -1;
    /* for the run's next judges: a copy renamed into place, whole or not at all */
    char *text = NULL;
    size_t len = 0;
    if (shared && file_read_all(file, 0, &text, &len) == 0)
        file_write_atomic(shared, text, len);
    free(text);
    return 0;
}

void judge_roofline(const hn_judge_request *rq, const tu_model *m, const kernel *k,
                    const char *exe, const char *capture_dir, const int *pure,
                    hn_judge_result *res, arena *a)
{
    strbuf err;
    sb_init(&err);
    hn_capture c;
    if (judge_device_peaks(rq, exe, res->gpu_name, &res->peaks, a, &err) != 0 ||
        hn_capture_read(capture_dir, &c, &err) != 0 ||
        hn_roofline_bytes(&c, rq->param_dtypes, rq->n_param_dtypes, pure, &res->roofline, &err) != 0) {
        log_verbose("judge: no roofline: %s", sb_str(&err));
    } else {
        res->roofline.flops = hn_roofline_flops(m, k, &c);
        /* a kernel touching a row of a large allocation: its accesses
         * bound its bytes far below the allocation's size */
        double touched =
            hn_roofline_access_bytes(m, k, &c, rq->param_dtypes, rq->n_param_dtypes);
        hn_roofline *ro = &res->roofline;
        if (isfinite(touched) && touched < ro->read_bytes + ro->written_bytes)
            ro->read_bytes = touched > ro->written_bytes ? touched - ro->written_bytes : 0;
        hn_roofline_limit(&res->roofline, &res->peaks);
        res->original_pct_of_limit = hn_pct_of_limit(res->roofline.limit_ms, res->original.median_ms);
        for (size_t i = 0; i < res->n_variants; i++) {
            hn_variant_verdict *v = &res->variants[i];
            if (v->verdict == VERDICT_PASS)
                v->pct_of_limit = hn_pct_of_limit(res->roofline.limit_ms, v->timing.median_ms);
        }
    }
    sb_free(&err);
}
