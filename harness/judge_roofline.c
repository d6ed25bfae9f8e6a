/*
 * judge_roofline.c: the judgement's roofline step: the GPU's peaks from
 * the replay driver (`@device`), the timed capture's bytes and flops
 * (roofline.c, roofline_flops.c), its limit, and how close the original
 * and each passing variant come to it.
 */
#include "judge_int.h"

#include <math.h>

void judge_roofline(const hn_judge_request *rq, const tu_model *m, const kernel *k,
                    const char *exe, const char *capture_dir, const int *pure,
                    hn_judge_result *res, arena *a)
{
    strbuf err;
    sb_init(&err);
    const char *file = arena_printf(a, "%s/device", rq->work_dir);
    run_outcome r = judge_run_device(exe, file, rq->settings.timeout_s);
    hn_capture c;
    if (!r.ok) {
        log_verbose("judge: no roofline: measuring the GPU failed: %s", r.detail);
    } else if (hn_device_peaks_read(file, &res->peaks, &err) != 0 ||
               hn_capture_read(capture_dir, &c, &err) != 0 ||
               hn_roofline_bytes(&c, rq->param_dtypes, rq->n_param_dtypes, pure, &res->roofline,
                                 &err) != 0) {
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
