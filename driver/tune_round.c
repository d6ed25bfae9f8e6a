/*
 * tune_round.c: one round of `cl1cc tune`: every kernel still being tuned
 * gets its proposals (the built-in policy's, then the LLM's) and a judge
 * job; the pool runs the judges; each judgement is recorded (tune_judge.c).
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "core.h"
#include "harness.h"
#include "llm.h"
#include "pool.h"
#include "tune.h"

/* a kernel whose captured launch took this long, or whose capture holds
 * this many bytes, gets a first round of LONG_FIRST_ROUND proposals
 * (correlation's 1.1-s kernel: a judge of 6 variants took 78 s on an H100;
 * particle-diffusion's 1.6-GB captures: 151 s of checks, each run reading
 * and writing them) */
#define LONG_KERNEL_MS 100.0
#define LARGE_CAPTURE_BYTES ((size_t)1 << 30)
enum { LONG_FIRST_ROUND = 3 };

/* data: the round's jobs; a kernel's first verdict is when its first
 * judge ends, not when the round does */
static void pool_progress(void *data, pool_event ev, size_t index, const pool_job *job)
{
    if (ev == POOL_EV_RETRY)
        log_verbose("tune: %s: retried: %s", job->label, job->detail);
    const tune_session *s = data;
    if (ev == POOL_EV_FINISHED && s) {
        tune_target *tk = s->round_targets[index];
        if (tk && tk->row.first_verdict_seconds <= 0 && pool_job_ok(job))
            tk->row.first_verdict_seconds = tune_now() - s->tuning_started;
    }
}

typedef struct round_jobs {
    VEC(round_job) rjobs;
    VEC(pool_job) pjobs;
} round_jobs;

/* props[from, to) made by policy into rj; those that failed before the
 * judge are recorded as such */
static void add_proposals(const pol_proposal_vec *props, size_t from, size_t to,
                          const char *policy, tune_session *s, tune_target *tk, round_job *rj)
{
    for (size_t p = from; p < to; p++) {
        if (props->items[p].source) {
            rj->props[rj->n].p = props->items[p];
            rj->props[rj->n++].policy = policy;
        } else {
            tune_record_failed_proposal(&s->loop, tk, &props->items[p]);
        }
    }
}

/* the kernel's proposals for this round: the built-in policy's, then the
 * LLM's (which sees the built-in policy's measurements as its history) */
static void propose(tune_session *s, tune_target *tk, size_t i, round_job *rj)
{
    const tune_options *o = &s->o;
    int room = o->kernel_evals - (int)tk->row.variants_tried;
    pol_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.model = tk->model;
    ctx.kernel_index = tk->index;
    ctx.kernel_source = tk->original;
    ctx.context_source = tk->context;
    ctx.launch_summary = tk->launches;
    /* a header kernel's variant is spliced with the header's text, its
     * launches as they are (docs/WRAPPER.md, "Header kernels") */
    ctx.same_launch_only = tk->k->decl_range.file && tk->model->main_file &&
                           strcmp(tk->k->decl_range.file, tk->model->main_file) != 0;
    ctx.arch = s->loop.arch;
    ctx.gpu_name = s->loop.gpu_name;
    ctx.history = tk->history.items;
    ctx.n_history = tk->history.len;
    int share = tune_round_share(tk, o->per_round);
    ctx.max_proposals = room < share ? room : share;
    /* a long kernel (each launch costs the judge seconds over its input
     * sets and timing) gets a smaller first round: the chooser's best few
     * land sooner, the rest follow */
    if (!tk->row.variants_tried &&
        (tk->captured_ms >= LONG_KERNEL_MS || tk->captured_bytes >= LARGE_CAPTURE_BYTES) &&
        ctx.max_proposals > LONG_FIRST_ROUND)
        ctx.max_proposals = LONG_FIRST_ROUND;
    pol_search_options so;
    memset(&so, 0, sizeof so);
    so.chooser = o->order == TUNE_ORDER_LEARNED ? s->chooser : NULL;
    so.random_order = o->order == TUNE_ORDER_RANDOM;
    so.seed = o->seed + i;
    so.facts = tk->facts;
    pol_proposal_vec props = {0};
    if (ctx.max_proposals > 0 && o->use_builtin)
        pol_builtin_propose(&ctx, &so, &s->a, &props);
    size_t n_builtin = props.len;
    int llm_room = room - (int)props.len;
    if (o->llm.url && llm_room > 0 && s->loop.ran_on_gpu) {
        ctx.max_proposals = llm_room < o->llm_per_round ? llm_room : o->llm_per_round;
        if (pol_llm_propose(&o->llm, &ctx, &s->a, &props, &s->err) < 0) {
            log_warn("tune: the LLM policy: %s", sb_str(&s->err));
            sb_clear(&s->err);
        }
    }
    memset(rj, 0, sizeof *rj);
    rj->props = arena_alloc(&s->a, (props.len ? props.len : 1) * sizeof *rj->props);
    add_proposals(&props, 0, n_builtin, TUNE_POLICY_BUILTIN, s, tk, rj);
    add_proposals(&props, n_builtin, props.len, tune_llm_policy(&o->llm, &s->a), s, tk, rj);
    vec_free(&props);
}

/* one kernel's part of the round: its proposals and its judge job */
static void propose_and_prepare(tune_session *s, int round, size_t i, round_jobs *jobs)
{
    tune_target *tk = &s->targets.items[i];
    if (tk->done)
        return;
    if (tune_now() - s->tuning_started > s->o.budget_seconds) {
        tk->done = 1;
        if (!tk->row.variants_tried)
            snprintf(tk->detail, sizeof tk->detail, "the time budget ran out first");
        return;
    }
    round_job rj;
    propose(s, tk, i, &rj);
    if (rj.n == 0) {
        if (tk->row.variants_tried >= s->o.kernel_evals || !s->o.llm.url || !s->loop.ran_on_gpu) {
            tk->done = 1;
            if (!tk->row.variants_tried)
                snprintf(tk->detail, sizeof tk->detail, "no transform of the catalogue applies");
        }
        return;
    }
    tk->rounds = round;
    pool_job pj;
    if (tune_prepare_job(&s->loop, tk, &rj, &pj, &s->a) != 0) {
        tk->done = 1;
        tk->row.status = "error";
        vec_free(&rj.argv);
        return;
    }
    vec_push(&jobs->rjobs, rj);
    vec_push(&jobs->pjobs, pj);
}

/* the pool runs every kernel's judge; 0, or -1 */
static int judge(tune_session *s, round_jobs *jobs)
{
    /* argv pointers moved with the vectors: point the jobs at them again */
    for (size_t j = 0; j < jobs->rjobs.len; j++) {
        vec_push(&jobs->rjobs.items[j].argv, NULL);
        jobs->pjobs.items[j].argv = jobs->rjobs.items[j].argv.items;
    }
    s->round_targets = arena_alloc(&s->a, (jobs->rjobs.len + 1) * sizeof *s->round_targets);
    for (size_t j = 0; j < jobs->rjobs.len; j++)
        s->round_targets[j] = jobs->rjobs.items[j].tk;
    if (pool_run(&s->o.pool, jobs->pjobs.items, jobs->pjobs.len, pool_progress, s, &s->err) != 0) {
        log_error("tune: the evaluation pool: %s", sb_str(&s->err));
        return -1;
    }
    return 0;
}

/* each judgement into its kernel (and the database), a line of progress */
static void record(tune_session *s, int round, round_jobs *jobs)
{
    for (size_t j = 0; j < jobs->rjobs.len; j++) {
        round_job *rj = &jobs->rjobs.items[j];
        tune_target *tk = rj->tk;
        if (tune_finish_job(&s->loop, rj, &jobs->pjobs.items[j], &s->a) != 0) {
            tk->done = 1;
            tk->row.status = "error";
        } else if (!s->loop.ran_on_gpu) {
            tk->done = 1;
            tk->row.status = "skipped_no_gpu";
            tk->row.variants_tried += (long)rj->n;
            tk->variants_built += (long)rj->n - tk->build_errors;
            tk->variants_unbuilt += tk->build_errors;
            snprintf(tk->detail, sizeof tk->detail,
                     "built the replay driver and %zu variant(s) (%d did not compile); "
                     "no GPU to verify and time them", rj->n, tk->build_errors);
        } else {
            printf("tune: %s %s round %d on %s: %zu variant(s), %ld/%ld passed so far, "
                   "best %.2fx%s%s\n",
                   hn_capture_tag(tk->row.file, &s->a), tk->row.kernel, round,
                   jobs->pjobs.items[j].where, rj->n, tk->row.variants_passed,
                   tk->row.variants_tried, tk->best_speedup, tk->row.best_label[0] ? " with " : "",
                   tk->row.best_label);
        }
    }
    fflush(stdout);
}

static void round_jobs_free(round_jobs *jobs)
{
    for (size_t j = 0; j < jobs->rjobs.len; j++)
        vec_free(&jobs->rjobs.items[j].argv);
    vec_free(&jobs->rjobs);
    vec_free(&jobs->pjobs);
}

/* 3. one round: every active kernel proposes, the pool runs the judges,
 * the results are recorded.  1 when something was judged, 0 when nothing
 * is left to do, -1 when the pool failed. */
int tune_round(tune_session *s, int round)
{
    round_jobs jobs;
    memset(&jobs, 0, sizeof jobs);
    for (size_t i = 0; i < s->targets.len; i++)
        propose_and_prepare(s, round, i, &jobs);
    int rc = jobs.rjobs.len == 0 ? 0 : judge(s, &jobs) == 0 ? 1 : -1;
    if (rc > 0)
        record(s, round, &jobs);
    round_jobs_free(&jobs);
    return rc;
}
