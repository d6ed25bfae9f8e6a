/*
 * judge.c: decides whether each variant of a kernel equals the original on
 * captured launches (and on perturbed copies of their inputs), and how fast
 * it is.  A judgement is the ordered list of steps in judge_steps[] below
 * (the correctness step in judge_check.c); every run of generated code is
 * a child process with limits (judge_exec.c), and this process compares
 * its outputs (judge_inputs.c).
 */
#include "judge_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- step: the TU and the kernel -------------------------------------------- */

/* a template kernel's instantiations, as its captures name them: every
 * capture must name one (the driver runs each on its own) */
static step_result note_instances(judgement *j)
{
    const kernel *k = &j->m.kernels.items[j->kernel_index];
    hn_judge_result *res = j->res;
    res->instances[0] = res->timed_instance[0] = '\0';
    if (!k->is_template)
        return STEP_NEXT;
    cstr_vec names = {0};
    strbuf why = {0};
    size_t unnamed = hn_capture_instances(j->rq->captures, j->rq->n_captures, &j->a, &names, &why);
    step_result r = STEP_NEXT;
    if (unnamed) {
        sb_printf(j->err, "template kernel %s: %zu of its captures name no instantiation (%s)",
                  k->qualified_name, unnamed, sb_str(&why));
        r = STEP_FAILED;
    }
    /* one a line; the first capture's is timed */
    size_t used = 0;
    for (size_t i = 0; r == STEP_NEXT && i < names.len; i++) {
        size_t n = strlen(names.items[i]);
        if (used + n + 2 > sizeof res->instances) {
            sb_printf(j->err, "template kernel %s: too many instantiations", k->qualified_name);
            r = STEP_FAILED;
            break;
        }
        used += (size_t)snprintf(res->instances + used, sizeof res->instances - used, "%s%s",
                                 used ? "\n" : "", names.items[i]);
    }
    if (r == STEP_NEXT && names.len)
        snprintf(res->timed_instance, sizeof res->timed_instance, "%s", names.items[0]);
    vec_free(&names);
    sb_free(&why);
    return r;
}

static step_result find_kernel(judgement *j)
{
    const hn_judge_request *rq = j->rq;
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    fo.flags = rq->clang_flags;
    fo.n_flags = rq->n_clang_flags;
    fo.with_bodies = 1; /* the roofline counts the body's operations */
    strbuf diags;
    sb_init(&diags);
    int parsed = fe_parse(rq->file, &fo, &j->m, &diags) == FE_OK;
    if (!parsed)
        sb_printf(j->err, "%s", sb_str(&diags));
    sb_free(&diags);
    if (!parsed)
        return STEP_FAILED;
    long found = -1;
    for (size_t i = 0; i < j->m.kernels.len; i++)
        if (strcmp(j->m.kernels.items[i].qualified_name, rq->kernel) == 0 ||
            strcmp(j->m.kernels.items[i].name, rq->kernel) == 0)
            found = (long)i;
    if (found < 0) {
        sb_printf(j->err, "%s: no kernel named %s", rq->file, rq->kernel);
        return STEP_FAILED;
    }
    j->kernel_index = (size_t)found;
    return note_instances(j);
}

static step_result make_work_dir(judgement *j)
{
    if (dir_create_all(j->rq->work_dir, 0755) != 0) {
        sb_printf(j->err, "%s: %s", j->rq->work_dir, strerror(errno));
        return STEP_FAILED;
    }
    return STEP_NEXT;
}

/* the GPU here decides the arch; without one, the request's (or sm_90) */
static step_result pick_arch(judgement *j)
{
    hn_judge_result *res = j->res;
    res->ran_on_gpu = hn_gpu_detect(res->arch, sizeof res->arch, res->gpu_name, sizeof res->gpu_name);
    j->arch = res->ran_on_gpu ? res->arch : (j->rq->arch ? j->rq->arch : "sm_90");
    if (!res->ran_on_gpu)
        snprintf(res->arch, sizeof res->arch, "%s", j->arch);
    return STEP_NEXT;
}

/* ---- step: building ---------------------------------------------------------- */

static void keep_good(judgement *j, size_t i)
{
    vec_push(&j->good, j->rq->variant_sources[i]);
    vec_push(&j->good_index, i);
}

/* each variant built alone: the one that does not compile is judged by
 * itself; then the driver of those that did */
static step_result build_one_by_one(judgement *j, strbuf *log)
{
    const hn_judge_request *rq = j->rq;
    for (size_t i = 0; i < rq->n_variants; i++) {
        const char *alone;
        sb_clear(log);
        const char *name = arena_printf(&j->a, "check%zu", i);
        if (judge_build_driver(rq, &j->m, j->kernel_index, &rq->variant_sources[i], 1, name,
                               j->arch, &alone, &j->a, log) != 0)
            judge_set_verdict(&j->res->variants[i], VERDICT_BUILD_ERROR, sb_str(log));
        else
            keep_good(j, i);
    }
    sb_clear(log);
    if (judge_build_driver(rq, &j->m, j->kernel_index, j->good.items, j->good.len, "driver",
                           j->arch, &j->exe, &j->a, log) != 0) {
        sb_printf(j->err, "the replay driver did not build: %s", sb_str(log));
        return STEP_FAILED;
    }
    return STEP_NEXT;
}

/* one driver with every variant; only when that does not build, each
 * variant alone */
static step_result build(judgement *j)
{
    const hn_judge_request *rq = j->rq;
    j->build_started = now_seconds();
    strbuf log;
    sb_init(&log);
    step_result r = STEP_NEXT;
    if (judge_build_driver(rq, &j->m, j->kernel_index, rq->variant_sources, rq->n_variants,
                           "driver", j->arch, &j->exe, &j->a, &log) == 0) {
        for (size_t i = 0; i < rq->n_variants; i++)
            keep_good(j, i);
    } else {
        r = build_one_by_one(j, &log);
    }
    sb_free(&log);
    j->res->build_seconds = now_seconds() - j->build_started;
    return r;
}

static step_result stop_without_gpu(judgement *j)
{
    if (j->res->ran_on_gpu)
        return STEP_NEXT;
    for (size_t g = 0; g < j->good.len; g++)
        judge_set_verdict(good_verdict(j, g), VERDICT_NOT_RUN,
                          "built; no GPU on this machine, so not verified or timed");
    return STEP_FINISHED;
}

static step_result materialize_captures(judgement *j)
{
    const hn_judge_request *rq = j->rq;
    j->captures = arena_alloc(&j->a, (rq->n_captures + 1) * sizeof *j->captures);
    for (size_t ci = 0; ci < rq->n_captures; ci++)
        if (!(j->captures[ci] = judge_materialize(rq, rq->captures[ci], (int)ci, &j->a, j->err)))
            return STEP_FAILED;
    return STEP_NEXT;
}

/* ---- step: timing -------------------------------------------------------------- */

/* the samples of a timing: the original's, and each good variant's */
typedef struct timing_samples {
    double_vec base;
    double_vec *variant; /* [good.len] */
} timing_samples;

/* after many launches in one process the outputs must still be right (no
 * caching of the first result) */
static void check_after_timing(judgement *j, const hn_capture *c, size_t g, const char *out)
{
    char detail[512];
    const char *ref0 = arena_printf(&j->a, "%s/ref0-0", j->rq->work_dir);
    int cmp = judge_compare_dirs(j->rq, c, ref0, "out", out, NULL, detail, sizeof detail, j->err);
    if (cmp > 0 && !j->scale0) /* the captured inputs' magnitudes, as set (0, 0)'s */
        j->scale0 = judge_run_magnitudes(j->rq, j->exe, c, arena_printf(&j->a, "%s/meta", c->dir),
                                         c->dir, 0, 0, &j->a);
    if (cmp > 0 && j->scale0)
        cmp = judge_compare_dirs(j->rq, c, ref0, "out", out, j->scale0, detail, sizeof detail,
                                 j->err);
    if (cmp != 0)
        judge_set_verdict(good_verdict(j, g), VERDICT_WRONG,
                          "after repeated launches (timing runs) the outputs differ");
}

/* The original and every passing variant timed in one process (rounds
 * alternate the order inside it), each variant's outputs checked after.
 * 0 when the batch did not finish: the caller then times each alone. */
static int time_batch(judgement *j, const hn_capture *c, const char *meta, timing_samples *ts)
{
    int idx[HN_MAX_VARIANTS + 1], done[HN_MAX_VARIANTS + 1];
    size_t n = 0;
    idx[n++] = 0;
    for (size_t g = 0; g < j->good.len; g++)
        if (good_verdict(j, g)->verdict == VERDICT_PASS)
            idx[n++] = (int)g + 1;
    const char *dir = judge_make_dir(j->rq, &j->a, "timebatch%d-%d", 0, 0);
    if (!dir)
        return 0;
    judge_run_batch(j->rq, j->exe, idx, n, meta, c->dir, dir, j->set->timed_runs, j->set->rounds,
                    done, &j->a);
    for (size_t i = 0; i < n; i++)
        if (!done[i])
            return 0;
    for (size_t i = 0; i < n; i++) {
        const char *kd = arena_printf(&j->a, "%s/k%d", dir, idx[i]);
        if (judge_read_timings(kd, idx[i] == 0 ? &ts->base : &ts->variant[idx[i] - 1]) != 0) {
            ts->base.len = 0;
            for (size_t g = 0; g < j->good.len; g++)
                ts->variant[g].len = 0;
            return 0;
        }
        if (idx[i] > 0)
            check_after_timing(j, c, (size_t)idx[i] - 1, kd);
    }
    return 1;
}

/* the original and each passing variant in alternating rounds, each run in
 * its own process; 0, or -1 when timing the original failed (err) */
static int time_alone(judgement *j, const hn_capture *c, const char *meta, timing_samples *ts)
{
    size_t n = j->good.len;
    for (int round = 0; round < j->set->rounds; round++) {
        for (size_t g = 0; g <= n; g++) {
            size_t which = round % 2 ? n - g : g; /* alternate the order */
            if (which > 0 && good_verdict(j, which - 1)->verdict != VERDICT_PASS)
                continue;
            const char *out = judge_make_dir(j->rq, &j->a, "time%d-%d", round, (int)which);
            run_outcome tr = judge_run_driver(j->exe, (int)which, meta, c->dir, out,
                                              j->set->timed_runs, j->set->timeout_s * 4);
            if (!tr.ok && which == 0) {
                sb_printf(j->err, "timing the original failed: %s", tr.detail);
                return -1;
            }
            if (!tr.ok) {
                judge_set_verdict(good_verdict(j, which - 1), tr.verdict, tr.detail);
                continue;
            }
            judge_read_timings(out, which == 0 ? &ts->base : &ts->variant[which - 1]);
            if (which > 0)
                check_after_timing(j, c, which - 1, out);
        }
    }
    return 0;
}

/* the timings summarised, each passing variant's speedup, the winner */
static void summarise(judgement *j, timing_samples *ts)
{
    hn_timing_summarise(ts->base.items, ts->base.len, &j->res->original);
    j->winner = -1;
    for (size_t g = 0; g < j->good.len; g++) {
        hn_variant_verdict *v = good_verdict(j, g);
        if (v->verdict != VERDICT_PASS)
            continue;
        hn_timing_summarise(ts->variant[g].items, ts->variant[g].len, &v->timing);
        v->speedup = hn_speedup(&j->res->original, &v->timing, &v->significant);
        if (j->winner < 0 || v->speedup > good_verdict(j, (size_t)j->winner)->speedup)
            j->winner = (long)g;
    }
}

/* on the first capture: in one process when that works, else alone */
static step_result time_variants(judgement *j)
{
    j->timing_started = now_seconds();
    j->res->check_seconds = j->timing_started - j->build_started - j->res->build_seconds;
    if (j->rq->n_captures == 0)
        return STEP_FINISHED;
    hn_capture c;
    if (hn_capture_read(j->captures[0], &c, j->err) != 0)
        return STEP_FAILED;
    const char *meta = arena_printf(&j->a, "%s/meta", c.dir);
    timing_samples ts = {{0}, xcalloc(j->good.len ? j->good.len : 1, sizeof *ts.variant)};
    int timed = !j->set->isolate_every_run && time_batch(j, &c, meta, &ts);
    int rc = timed ? 0 : time_alone(j, &c, meta, &ts);
    if (rc == 0)
        summarise(j, &ts);
    for (size_t g = 0; g < j->good.len; g++)
        vec_free(&ts.variant[g]);
    free(ts.variant);
    vec_free(&ts.base);
    return rc == 0 ? STEP_NEXT : STEP_FAILED;
}

/* the timed capture's roofline, and each timing's percentage of it */
static step_result estimate_roofline(judgement *j)
{
    judge_roofline(j->rq, &j->m, &j->m.kernels.items[j->kernel_index], j->exe, j->captures[0],
                   j->have_pure0 ? j->pure0 : NULL, j->res, &j->a);
    return STEP_NEXT;
}

/* compute-sanitizer over the winner on the first capture */
static step_result sanitize_winner(judgement *j)
{
    if (j->set->sanitize && j->winner >= 0) {
        const char *in = j->captures[0];
        judge_sanitize(j->rq, j->exe, (int)j->winner + 1, arena_printf(&j->a, "%s/meta", in), in,
                       good_verdict(j, (size_t)j->winner), &j->a);
    }
    j->res->timing_seconds = now_seconds() - j->timing_started;
    return STEP_FINISHED;
}

/* ---- the judgement ---------------------------------------------------------------- */

typedef struct judge_step {
    const char *what;
    step_result (*run)(judgement *j);
} judge_step;

/* in order; a step that finishes or fails ends the judgement */
static const judge_step judge_steps[] = {
    {"parse the TU and find the kernel", find_kernel},
    {"make the work folder", make_work_dir},
    {"detect the GPU and pick the arch", pick_arch},
    {"build the replay driver", build},
    {"without a GPU, stop at building", stop_without_gpu},
    {"copy the captures into the work folder", materialize_captures},
    {"check every variant on every input set", judge_check_captures},
    {"time the original and the passing variants", time_variants},
    {"estimate the roofline and each timing's share of it", estimate_roofline},
    {"sanitize the winner", sanitize_winner},
};

int hn_judge(const hn_judge_request *rq, hn_judge_result *res, strbuf *err)
{
    double start = now_seconds();
    hn_gpu_lock_stats before, after;
    hn_gpu_lock_totals(&before);
    memset(res, 0, sizeof *res);
    if (rq->n_variants > HN_MAX_VARIANTS) {
        sb_printf(err, "at most %d variants at a time", HN_MAX_VARIANTS);
        return -1;
    }
    judgement j;
    memset(&j, 0, sizeof j);
    j.rq = rq;
    j.set = &rq->settings;
    j.res = res;
    j.err = err;
    j.winner = -1;
    arena_init(&j.a);
    model_init(&j.m);
    res->n_variants = rq->n_variants;
    res->roofline.read_bytes = res->roofline.written_bytes = res->roofline.flops = NAN;
    res->roofline.limit_ms = res->original_pct_of_limit = NAN;
    for (size_t i = 0; i < rq->n_variants; i++) {
        res->variants[i].pct_of_limit = NAN;
        res->variants[i].verdict = VERDICT_PENDING;
        res->variants[i].label = rq->variant_labels ? rq->variant_labels[i] : NULL;
    }
    step_result r = STEP_NEXT;
    for (size_t s = 0; r == STEP_NEXT && s < sizeof judge_steps / sizeof judge_steps[0]; s++) {
        r = judge_steps[s].run(&j);
        if (r == STEP_FAILED)
            log_verbose("judge: %s failed", judge_steps[s].what);
    }
    for (size_t i = 0; i < rq->n_variants; i++)
        if (res->variants[i].verdict == VERDICT_PENDING)
            judge_set_verdict(&res->variants[i], VERDICT_NOT_RUN, "not judged");
    vec_free(&j.good);
    vec_free(&j.good_index);
    model_free(&j.m);
    arena_free(&j.a);
    res->total_seconds = now_seconds() - start;
    hn_gpu_lock_totals(&after);
    res->lock_wait_seconds = after.waited - before.waited;
    return r == STEP_FAILED ? -1 : 0;
}
