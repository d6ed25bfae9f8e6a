/*
 * judge_check.c: the judge's correctness step, capture by capture: the
 * original must reproduce each capture (or the judge says why not), its
 * pure outputs are found, and every live variant runs on the captured
 * inputs and on perturbed copies (together, in one process a set; on the
 * captured inputs a variant that fails there runs again alone, so a crash
 * or hang is its own), and is compared with the original's outputs on the
 * same inputs (on a perturbed set, the original runs first in the same
 * process).  A capture that repeats one checked before is skipped.
 */
#include "judge_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- step: correctness, capture by capture ------------------------------------ */

/* one input set of one capture: its inputs (the captured ones, or
 * perturbed with seed), the original's outputs on them and its magnitudes */
typedef struct input_set {
    const hn_capture *c;
    const char *meta;
    int ci, seed;
    const char *in, *want, *mag;
    /* the original's outputs (want) come from the variants' batch: its
     * kernel 0, run first on the same inputs, until then want is NULL */
    int want_from_batch;
} input_set;

/* 1 when a capture's meta text holds variable name ("symbol N name") */
static int meta_holds_symbol(const char *text, const char *name)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        char held[256];
        if (sscanf(line, "symbol %*d %255s", held) == 1 && strcmp(held, name) == 0)
            return 1;
    }
    return 0;
}

/* the kernel's __device__ and __constant__ variables the capture at meta
 * does not hold (its launch site did not see them, or they are extern),
 * ", "-separated into out ("" when none) */
static void global_state(judgement *j, const char *meta, strbuf *out)
{
    const kernel *k = &j->m.kernels.items[j->kernel_index];
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(meta, 0, &text, &len) != 0)
        text = NULL;
    for (size_t i = 0; i < k->deps.len; i++) {
        const dependency *d = &j->m.decls.items[k->deps.items[i]];
        if (d->kind != DECL_VARIABLE || !d->space ||
            (strcmp(d->space, "constant") != 0 && strcmp(d->space, "device") != 0))
            continue;
        if (!text || !meta_holds_symbol(text, hn_state_var_expr(d, &j->a)))
            sb_printf(out, "%s__%s__ %s", out->len ? ", " : "", d->space, d->name);
    }
    free(text);
}

/* The original did not reproduce capture c: a second run on the same
 * inputs tells a nondeterministic kernel (the runs differ: atomics decide
 * an order) from one that reads state the capture lacks (they agree) */
static void explain_no_reproduction(judgement *j, const hn_capture *c, int ci, const char *meta,
                                    const char *ref, const char *mag, const char *detail)
{
    const char *again = judge_make_dir(j->rq, &j->a, "again%d-%d", ci, 0);
    char differ[512] = "";
    run_outcome r = again ? judge_run_driver(j->exe, 0, meta, c->dir, again, 0, j->set->timeout_s)
                          : (run_outcome){0};
    strbuf ignored = {0};
    int same = r.ok && judge_compare_dirs(j->rq, c, ref, "out", again, mag, differ, sizeof differ,
                                          &ignored) == 0;
    sb_free(&ignored);
    if (r.ok && !same) {
        sb_printf(j->err,
                  "the original kernel is nondeterministic: two runs on capture %s's inputs "
                  "differ (%s), so its outputs cannot judge a variant",
                  c->dir, differ);
        return;
    }
    strbuf state = {0};
    global_state(j, meta, &state);
    sb_printf(j->err,
              "the original kernel does not reproduce capture %s (%s), though it runs the same "
              "twice: it depends on state the capture lacks%s%s",
              c->dir, detail, state.len ? " (it uses " : "",
              state.len ? sb_str(&state) : "");
    if (state.len)
        sb_puts(j->err, ", which captures do not hold)");
    sb_free(&state);
}

/* The original runs on the capture and reproduces its outputs, into ref:
 * within the tolerance on |want|, or, where a float sum's order varies
 * (atomics), on the magnitudes of its run on absolute inputs, as the
 * variants are judged (compare_outputs) */
static int check_reference(judgement *j, const hn_capture *c, int ci, const char *meta,
                           const char *ref)
{
    run_outcome r = judge_run_driver(j->exe, 0, meta, c->dir, ref, 0, j->set->timeout_s);
    if (!r.ok) {
        sb_printf(j->err, "the original kernel failed on capture %s: %s", c->dir, r.detail);
        return -1;
    }
    char detail[512];
    const char *mag = NULL;
    int d = judge_compare_dirs(j->rq, c, c->dir, "out", ref, NULL, detail, sizeof detail, j->err);
    if (d > 0) {
        mag = judge_run_magnitudes(j->rq, j->exe, c, meta, c->dir, ci, -1, &j->a);
        if (mag)
            d = judge_compare_dirs(j->rq, c, c->dir, "out", ref, mag, detail, sizeof detail,
                                   j->err);
    }
    if (d > 0)
        explain_no_reproduction(j, c, ci, meta, ref, mag, detail);
    return d == 0 ? 0 : -1;
}

/* the set's inputs and the original's outputs on them; 1 ready, 0 when the
 * original cannot take these inputs (the set is skipped), -1 with err.
 * On the captured inputs (seed 0) the original's outputs are ref, the
 * reference run's: no second run (at real sizes each costs seconds). */
static int prepare_input_set(judgement *j, input_set *s, const int *pure, const char *ref)
{
    const hn_judge_request *rq = j->rq;
    /* a capture of integers alone: its perturbed inputs are the captured
     * ones, and so are the original's outputs (no second run) */
    int perturbed = s->seed > 0 && judge_edit_changes_any(rq, s->c, INPUTS_PERTURB, NULL);
    s->in = judge_make_dir(rq, &j->a, "in%d-%d", s->ci, s->seed);
    s->want = perturbed ? judge_make_dir(rq, &j->a, "want%d-%d", s->ci, s->seed) : ref;
    if (!s->in || !s->want ||
        judge_edit_inputs(rq, s->c, s->c->dir, s->in, INPUTS_COPY, 0, NULL, j->err) != 0)
        return -1;
    if (perturbed) {
        if (judge_edit_inputs(rq, s->c, s->in, s->in, INPUTS_PERTURB,
                              (uint64_t)s->seed * 1000003u + (uint64_t)s->ci, NULL, j->err) != 0)
            return -1;
        /* batched: the original runs first in the variants' process on
         * these inputs (poisoned too: it was shown not to read them, and
         * the variants see the same bytes), a process fewer a set */
        if (!j->set->isolate_every_run) {
            s->want_from_batch = 1;
            s->want = NULL;
        } else {
            run_outcome wr =
                judge_run_driver(j->exe, 0, s->meta, s->in, s->want, 0, j->set->timeout_s);
            if (!wr.ok)
                return 0;
        }
    }
    /* the variants see poisoned pure outputs, a poison per input set: each
     * one the original was shown not to read (judge_find_pure_outputs) */
    if (judge_edit_inputs(rq, s->c, s->in, s->in, INPUTS_POISON,
                          (uint64_t)(s->seed % HN_POISONS), pure, j->err) != 0)
        return -1;
    return 1;
}

/* the live variants in one process on the set (after the original,
 * kernel 0, when the set's want comes from the batch); batch_done[g] when
 * variant g's outputs are under *batch_dir/k<g + 1>; 1 when the
 * original's are under *batch_dir/k0 */
static int run_live_batch(judgement *j, const input_set *s, int *batch_done,
                          const char **batch_dir)
{
    int idx[HN_MAX_VARIANTS + 1], done[HN_MAX_VARIANTS + 1];
    size_t nb = 0;
    if (s->want_from_batch)
        idx[nb++] = 0;
    for (size_t g = 0; g < j->good.len; g++)
        if (live(good_verdict(j, g)))
            idx[nb++] = (int)g + 1;
    *batch_dir = judge_make_dir(j->rq, &j->a, "batch%d-%d", s->ci, s->seed);
    if (nb == (size_t)s->want_from_batch || !*batch_dir)
        return 0;
    judge_run_batch(j->rq, j->exe, idx, nb, s->meta, s->in, *batch_dir, 0, 1, done, &j->a);
    int original = 0;
    for (size_t b = 0; b < nb; b++) {
        if (idx[b] == 0)
            original = done[b];
        else
            batch_done[idx[b] - 1] = done[b];
    }
    return original;
}

/* the set's want when the batch did not make it: the original alone; 0,
 * or -1 when the original cannot take these inputs (the set is skipped) */
static int want_alone(judgement *j, input_set *s)
{
    s->want = judge_make_dir(j->rq, &j->a, "want%d-%d", s->ci, s->seed);
    if (!s->want)
        return -1;
    run_outcome wr = judge_run_driver(j->exe, 0, s->meta, s->in, s->want, 0, j->set->timeout_s);
    return wr.ok ? 0 : -1;
}

/* The set's magnitudes (the original on its absolute inputs), made the
 * first time a comparison needs them: only a difference beyond the
 * tolerance on |want| does (the magnitudes only widen it), so a variant
 * that matches closely costs no run on absolute inputs.  Made after the
 * inputs were poisoned: the original never reads a poisoned allocation. */
static const char *set_magnitudes(judgement *j, input_set *s)
{
    if (!s->mag)
        s->mag = judge_run_magnitudes(j->rq, j->exe, s->c, s->meta, s->in, s->ci, s->seed, &j->a);
    if (s->ci == 0 && s->seed == 0 && !j->scale0)
        j->scale0 = s->mag;
    return s->mag;
}

/* outputs got against the set's want: on |want| first, then, where that
 * finds a difference, on the magnitudes (>0 differs, <0 error) */
static int compare_outputs(judgement *j, input_set *s, const char *got, char *detail,
                           size_t len)
{
    int cmp = judge_compare_dirs(j->rq, s->c, s->want, "out", got, NULL, detail, len, j->err);
    if (cmp > 0 && set_magnitudes(j, s))
        cmp = judge_compare_dirs(j->rq, s->c, s->want, "out", got, s->mag, detail, len, j->err);
    return cmp;
}

/* variant g on the set: its outputs from the batch, or a run of its own */
static void check_variant(judgement *j, input_set *s, size_t g, const char *batch_out)
{
    hn_variant_verdict *v = good_verdict(j, g);
    const char *got = batch_out;
    if (!got) {
        got = judge_make_dir(j->rq, &j->a, "got%d-%d", s->ci * 1000 + s->seed, (int)g);
        run_outcome vr = judge_run_driver(j->exe, (int)g + 1, s->meta, s->in, got, 0,
                                          j->set->timeout_s);
        if (!vr.ok) {
            judge_set_verdict(v, vr.verdict, vr.detail);
            return;
        }
    }
    char detail[512];
    int cmp = compare_outputs(j, s, got, detail, sizeof detail);
    if (cmp != 0) {
        char where[700];
        snprintf(where, sizeof where, "%s inputs of capture %d: %s",
                 s->seed ? "perturbed" : "captured", s->ci, cmp < 0 ? sb_str(j->err) : detail);
        judge_set_verdict(v, VERDICT_WRONG, where);
        return;
    }
    v->verdict = VERDICT_PASS;
}

/* The variants in one process on the set; on the first set (captured
 * inputs) only a pass counts from it: a variant that did not finish there
 * or differs runs again alone, so that every failure is its own (a crash,
 * hang or sticky error of one variant, or an out-of-bounds write that
 * spoiled the next one's inputs, never fails another).  Later sets keep
 * the batch's verdicts: every variant left on them ran alone once. */
static void check_input_set(judgement *j, input_set *s)
{
    int first = s->ci == 0 && s->seed == 0;
    size_t live_left = 0;
    for (size_t g = 0; g < j->good.len; g++)
        live_left += live(good_verdict(j, g)) != 0;
    if (!live_left)
        return; /* nothing left to check here, nor an original to run */
    int batch_done[HN_MAX_VARIANTS] = {0};
    const char *batch_dir = NULL;
    /* every batch within a run's limit per kernel, the first set's too: at
     * real sizes a run's reads and writes of the allocations take seconds
     * each, so a shorter limit would cut off a batch that is only slow.  A
     * hang there costs that limit, then the variants left run alone. */
    if (!j->set->isolate_every_run) {
        int original = run_live_batch(j, s, batch_done, &batch_dir);
        if (s->want_from_batch) {
            if (original)
                s->want = arena_printf(&j->a, "%s/k0", batch_dir);
            else if (want_alone(j, s) != 0)
                return; /* the original cannot take these inputs: no set */
        }
    }
    for (size_t g = 0; g < j->good.len; g++) {
        if (!live(good_verdict(j, g)))
            continue;
        const char *got =
            batch_done[g] ? arena_printf(&j->a, "%s/k%zu", batch_dir, g + 1) : NULL;
        if (first && got) {
            char detail[512];
            if (compare_outputs(j, s, got, detail, sizeof detail) == 0) {
                good_verdict(j, g)->verdict = VERDICT_PASS;
                continue;
            }
            sb_clear(j->err); /* the run alone decides */
            got = NULL;
        }
        check_variant(j, s, g, got);
    }
}

/* Every capture is checked on its own inputs; the perturbed copies are
 * made of all of them up to this size, and above it of the first (the
 * timed one) only: at real sizes each input set costs seconds of copies,
 * runs and comparisons, and another capture of the same kernel is mostly
 * another step of the same loop */
#define PERTURB_ALL_MAX_BYTES ((size_t)64 << 20)

static size_t capture_bytes(const hn_capture *c)
{
    size_t total = 0;
    for (int al = 0; al < c->nallocs; al++)
        total += c->alloc_size[al];
    return total;
}

/* capture ci: the reference, then the captured input set and the
 * perturbed ones; 0, or -1 with err */
static int check_capture(judgement *j, const hn_capture *c, int ci)
{
    const char *meta = arena_printf(&j->a, "%s/meta", c->dir);
    const char *ref = judge_make_dir(j->rq, &j->a, "ref%d-%d", ci, 0);
    if (check_reference(j, c, ci, meta, ref) != 0)
        return -1;
    int pure[HN_MAX_ARGS];
    judge_find_pure_outputs(j->rq, j->exe, c, meta, ref, pure, &j->a, j->err);
    if (ci == 0) {
        memcpy(j->pure0, pure, sizeof pure);
        j->have_pure0 = 1;
    }
    int seeds = ci > 0 && capture_bytes(c) > PERTURB_ALL_MAX_BYTES ? 0 : j->set->seeds;
    /* nothing perturbed and nothing poisoned: every set is the captured one */
    if (!judge_edit_changes_any(j->rq, c, INPUTS_PERTURB, NULL) &&
        !judge_edit_changes_any(j->rq, c, INPUTS_POISON, pure))
        seeds = 0;
    for (int seed = 0; seed <= seeds; seed++) {
        input_set s = {c, meta, ci, seed, NULL, NULL, NULL, 0};
        int ready = prepare_input_set(j, &s, pure, ref);
        if (ready < 0)
            return -1;
        if (ready > 0)
            check_input_set(j, &s);
    }
    return 0;
}

/* Judges share a GPU for their checks (gpu_lock.c) unless a working set
 * is so large that several of them could run the GPU out of memory: a run
 * holds each allocation twice (its state and its pristine copy) */
#define SHARED_CHECKS_MAX_BYTES ((size_t)4 << 30)

static void share_gpu_by_size(const hn_capture *caps, size_t n)
{
    size_t most = 0;
    for (size_t ci = 0; ci < n; ci++)
        if (capture_bytes(&caps[ci]) > most)
            most = capture_bytes(&caps[ci]);
    hn_gpu_lock_checks_exclusive(most > SHARED_CHECKS_MAX_BYTES);
}

/* 1 when capture ci is the same launch on the same inputs as one checked
 * before it: its checks would repeat that one's */
static int repeats_a_checked_capture(const hn_capture *caps, size_t ci)
{
    for (size_t e = 0; e < ci; e++)
        if (hn_captures_same_inputs(&caps[e], &caps[ci]))
            return 1;
    return 0;
}

step_result judge_check_captures(judgement *j)
{
    size_t n = j->rq->n_captures;
    hn_capture *caps = xcalloc(n ? n : 1, sizeof *caps);
    step_result r = STEP_NEXT;
    for (size_t ci = 0; r == STEP_NEXT && ci < n; ci++)
        if (hn_capture_read(j->captures[ci], &caps[ci], j->err) != 0)
            r = STEP_FAILED;
    if (r == STEP_NEXT)
        share_gpu_by_size(caps, n);
    hn_gpu_lock_stats before, after;
    hn_gpu_lock_totals(&before);
    hn_gpu_lock_mark();
    for (size_t ci = 0; r == STEP_NEXT && ci < n; ci++) {
        if (repeats_a_checked_capture(caps, ci)) {
            j->res->captures_repeated++;
            continue;
        }
        if (check_capture(j, &caps[ci], (int)ci) != 0)
            r = STEP_FAILED;
    }
    hn_gpu_lock_totals(&after);
    j->res->check_run_seconds = after.held - before.held;
    j->res->check_runs = (size_t)(after.runs - before.runs);
    j->res->slowest_check_run_seconds = after.slowest;
    free(caps);
    return r;
}

