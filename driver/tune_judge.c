/*
 * tune_judge.c: one kernel's round of `cl1cc tune` as a judge job: the
 * variants written out and the `cl1cc judge` command line the pool runs,
 * then its JSON read back into the kernel's history and the tuning
 * database (every evaluation, every variant with its verdict).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kernel_key.h"
#include "launch_rule.h"
#include "tune.h"
#include "tunedb.h"

static char *features_json(const double *f)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < POL_NFEATURES; i++)
        cJSON_AddNumberToObject(o, pol_feature_name(i), round(f[i] * 1e6) / 1e6);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}


/* The kernel's database key for the arch judged on, and its row (with the
 * chooser's features) once results are recorded. */
void tune_key_kernel(tune_loop *run, tune_target *tk)
{
    if (tk->key[0] && strcmp(tk->key_arch, run->arch) == 0 && (tk->recorded || !run->db))
        return;
    kernel_key(tk->model, tk->k, run->arch, (const char *const *)run->cl->codegen_flags.items,
               run->cl->codegen_flags.len, tk->key);
    snprintf(tk->key_arch, sizeof tk->key_arch, "%s", run->arch);
    if (!run->db)
        return;
    strbuf err;
    sb_init(&err);
    char *fj = features_json(tk->features);
    if (tunedb_record_kernel(run->db, tk->key, tk->row.kernel, tk->row.file, tk->original, fj,
                             &err) != 0)
        log_warn("tune: %s", sb_str(&err));
    else
        tk->recorded = 1;
    free(fj);
    sb_free(&err);
}

const char *tune_llm_policy(const pol_llm_config *llm, arena *a)
{
    return llm->model ? arena_printf(a, "llm:%s", llm->model) : "llm";
}

/* the first judgement that ran on a GPU decides the arch (that of the
 * machine the pool ran it on: with Slurm, not this one) and opens the
 * database */
static void start_recording(tune_loop *run, const hn_judge_result *r, arena *a)
{
    if (run->recording)
        return;
    run->recording = 1;
    if (r->arch[0])
        run->arch = arena_strdup(a, r->arch);
    run->gpu_name = r->gpu_name[0] ? arena_strdup(a, r->gpu_name) : NULL;
    strbuf err;
    sb_init(&err);
    if (tunedb_open(run->db_path, TUNEDB_READWRITE, &run->db, &err) != 0) {
        log_warn("tune: %s: results are not recorded", sb_str(&err));
        run->db = NULL;
    }
    sb_free(&err);
}

/* one judged proposal in the tuning database: its evaluation and the
 * variant with the policy that made it */
static void record_variant(tune_loop *run, tune_target *tk, const tune_proposal *tp,
                           const hn_variant_verdict *v, double speedup, const char *instances)
{
    int pass = v->verdict == VERDICT_PASS;
    double ms = v->timing.median_ms;
    double spread = v->timing.p75_ms - v->timing.p25_ms;
    char hash[65], edits[LAUNCH_RULE_EDITS_MAX];
    const char *launch_edits = launch_rule_edits(tp->p.source, edits);
    tunedb_variant_hash(tp->p.source, launch_edits, hash);
    tunedb_variant tv;
    memset(&tv, 0, sizeof tv);
    tv.kernel_key = tk->key;
    tv.kernel_name = tk->k->qualified_name;
    tv.arch = run->arch;
    tv.source = tp->p.source;
    tv.launch_edits = launch_edits;
    tv.policy = tp->policy;
    tv.transforms = tp->p.label;
    tv.verified = pass;
    tv.baseline_ms = isfinite(tk->row.baseline_ms) ? tk->row.baseline_ms : NAN;
    tv.variant_ms = pass ? ms : NAN;
    tv.spread_ms = pass && isfinite(spread) ? spread : NAN;
    tv.speedup = pass && isfinite(speedup) ? speedup : NAN;
    tv.gpu_name = run->gpu_name;
    tv.instances = instances && *instances ? instances : NULL; /* a template's */
    strbuf err;
    sb_init(&err);
    if (tunedb_record_evaluation(run->db, tk->key, hash, verdict_name(v->verdict),
                                 pass ? ms : NAN, v->detail, &err) != 0 ||
        tunedb_record_variant(run->db, &tv, NULL, &err) != 0)
        log_warn("tune: recording a result: %s", sb_str(&err));
    sb_free(&err);
}

/* a verdict for every proposal: the judge's, or not_run when it gave none */
static const hn_variant_verdict *verdict_of(const hn_judge_result *r, size_t i,
                                            hn_variant_verdict *missing)
{
    if (i < r->n_variants)
        return &r->variants[i];
    memset(missing, 0, sizeof *missing);
    missing->verdict = VERDICT_NOT_RUN;
    snprintf(missing->detail, sizeof missing->detail, "the judge gave no verdict");
    missing->timing.median_ms = missing->timing.p25_ms = missing->timing.p75_ms = NAN;
    missing->speedup = NAN;
    return missing;
}

static void record_results(tune_loop *run, tune_target *tk, const hn_judge_result *r,
                           const tune_proposal *props, size_t n)
{
    double base = r->original.median_ms;
    if (isfinite(base) && base > 0)
        tk->row.baseline_ms = base;
    for (size_t i = 0; i < n; i++) {
        hn_variant_verdict missing;
        const hn_variant_verdict *v = verdict_of(r, i, &missing);
        int pass = v->verdict == VERDICT_PASS;
        double raw = v->speedup;
        /* a difference inside the spread is no speedup */
        double speedup = !pass ? NAN : v->significant > 0 ? raw : (raw > 1 ? 1.0 : raw);
        tk->row.variants_tried++;
        tk->row.variants_passed += pass;
        pol_sample s = {props[i].p.source, props[i].p.label, verdict_name(v->verdict), speedup};
        vec_push(&tk->history, s);
        if (pass && speedup > 1 && speedup > tk->best_speedup) {
            tk->best_speedup = speedup;
            tk->best_ms = v->timing.median_ms;
            tk->row.best_label = props[i].p.label;
            tk->row.spread_ms = v->timing.p75_ms - v->timing.p25_ms;
            vec_push(&tk->row.progress_t, tk->row.tune_seconds);
            vec_push(&tk->row.progress_best, speedup);
        }
        if (run->db)
            record_variant(run, tk, &props[i], v, speedup, r->instances);
    }
}

/* writes the variants and the judge's command line; 0, or -1 (tk->detail) */
int tune_prepare_job(tune_loop *run, tune_target *tk, round_job *rj, pool_job *pj, arena *a)
{
    rj->tk = tk;
    rj->dir = arena_printf(a, "%s/%s-k%zu-r%d", run->work, hn_capture_tag(tk->model->main_file, a), tk->index,
                           tk->rounds);
    if (dir_create_all(rj->dir, 0755) != 0) {
        snprintf(tk->detail, sizeof tk->detail, "%s: %s", rj->dir, strerror(errno));
        return -1;
    }
    cstr_vec *argv = &rj->argv;
    vec_push(argv, run->self);
    vec_push(argv, "judge");
    vec_push(argv, tk->model->main_file); /* the TU, a header kernel's too */
    vec_push(argv, tk->k->qualified_name);
    vec_push(argv, "--captures");
    vec_push(argv, tk->captures);
    for (size_t i = 0; i < rj->n; i++) {
        const char *path = arena_printf(a, "%s/v%zu.cu", rj->dir, i);
        const pol_proposal *p = &rj->props[i].p;
        if (file_write_atomic(path, p->source, strlen(p->source)) != 0) {
            snprintf(tk->detail, sizeof tk->detail, "%s: %s", path, strerror(errno));
            return -1;
        }
        vec_push(argv, "--variant");
        vec_push(argv, path);
        vec_push(argv, "--label");
        vec_push(argv, p->label);
    }
    rj->json_path = arena_printf(a, "%s/judge.json", rj->dir);
    rj->out_path = arena_printf(a, "%s/judge.out", rj->dir);
    rj->err_path = arena_printf(a, "%s/judge.err", rj->dir);
    /* the GPU's peaks measured once per run and GPU model, not per judge */
    const char *opts[] = {"--json", rj->json_path, "--work", arena_printf(a, "%s/work", rj->dir),
                          "--peaks-dir", run->work};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        vec_push(argv, opts[i]);
    hn_judge_settings_argv(run->judge, argv, a);
    vec_push(argv, "--");
    for (size_t i = 0; i < run->n_nvcc_flags; i++)
        vec_push(argv, run->nvcc_flags[i]);
    memset(pj, 0, sizeof *pj);
    pj->argv = argv->items;
    pj->argc = argv->len;
    pj->label = arena_printf(a, "%s-r%d", tk->k->name, tk->rounds);
    pj->needs_gpu = 1;
    pj->timeout_s = 120 + run->judge->timeout_s * (double)(rj->n + 1) * 8;
    pj->stdout_path = rj->out_path;
    pj->stderr_path = rj->err_path;
    return 0;
}

/* a one-line reason from the judge's stderr (log_error_line) */
static void failure_line(const char *path, char *out, size_t size)
{
    char *text = NULL;
    out[0] = '\0';
    if (file_read_all(path, 1 << 20, &text, NULL) != 0)
        return;
    log_error_line(text, out, size);
    free(text);
}

/* why the judge failed: its error line from stderr, or the pool's word */
static void judge_failure(const round_job *rj, const pool_job *pj, tune_target *tk)
{
    char why[600];
    failure_line(rj->err_path, why, sizeof why);
    if (!why[0])
        snprintf(why, sizeof why, "%s", pj->detail);
    snprintf(tk->detail, sizeof tk->detail, "the judge failed (%s, exit %d): %s", pj->status,
             pj->exit_code, why);
}

/* the judgement's roofline into tk's row, and the original's headroom
 * into the chooser's features */
static void note_roofline(tune_target *tk, const hn_judge_result *r)
{
    if (!isfinite(r->roofline.limit_ms))
        return;
    tk->row.limit_ms = r->roofline.limit_ms;
    tk->row.bytes = r->roofline.read_bytes + r->roofline.written_bytes;
    tk->row.flops = r->roofline.flops;
    tk->row.original_pct_of_limit = r->original_pct_of_limit;
    /* the original's: a fact of the kernel and its launch, as the other
     * features are, not of how well tuning went */
    double pct = r->original_pct_of_limit;
    tk->facts.headroom = isfinite(pct) ? 1 - fmin(1, fmax(0, pct / 100)) : 0;
    tk->features[POL_FEATURE_HEADROOM] = tk->facts.headroom;
}

/* reads the judgement into tk; 0, or -1 when the judge itself failed */
int tune_finish_job(tune_loop *run, round_job *rj, const pool_job *pj, arena *a)
{
    tune_target *tk = rj->tk;
    tk->row.tune_seconds += pj->wall_s;
    if (tk->row.first_verdict_seconds <= 0)
        tk->row.first_verdict_seconds = proc_now_seconds() - run->tuning_started;
    char *text = NULL;
    if (!pool_job_ok(pj) || file_read_all(rj->json_path, 64 << 20, &text, NULL) != 0) {
        judge_failure(rj, pj, tk);
        free(text);
        return -1;
    }
    hn_judge_result *r = xcalloc(1, sizeof *r);
    strbuf err;
    sb_init(&err);
    int rc = hn_judge_json_read(text, r, a, &err);
    free(text);
    sb_free(&err);
    if (rc != 0) {
        snprintf(tk->detail, sizeof tk->detail, "%s: not JSON", rj->json_path);
        free(r);
        return -1;
    }
    const double phases[REPORT_JUDGE_PHASES] = {r->build_seconds, r->check_seconds,
                                                r->timing_seconds, r->check_run_seconds,
                                                r->lock_wait_seconds};
    for (int p = 0; p < REPORT_JUDGE_PHASES; p++)
        tk->row.judge_seconds[p] += isfinite(phases[p]) ? phases[p] : 0;
    tk->row.captures_checked = (long)(r->n_captures - r->captures_repeated);
    tk->row.check_runs += (long)r->check_runs;
    if (isfinite(r->slowest_check_run_seconds) &&
        !(tk->row.slowest_check_run_seconds >= r->slowest_check_run_seconds))
        tk->row.slowest_check_run_seconds = r->slowest_check_run_seconds;
    run->ran_on_gpu = r->ran_on_gpu;
    tk->build_errors = 0;
    for (size_t i = 0; i < r->n_variants; i++)
        tk->build_errors += r->variants[i].verdict == VERDICT_BUILD_ERROR;
    if (run->ran_on_gpu) {
        note_roofline(tk, r);
        start_recording(run, r, a);
        tune_key_kernel(run, tk);
        record_results(run, tk, r, rj->props, rj->n);
    }
    free(r);
    return 0;
}

/* a proposal that failed before the judge (a bad LLM reply): recorded as
 * a failed evaluation */
void tune_record_failed_proposal(tune_loop *run, tune_target *tk, const pol_proposal *p)
{
    const char *bad_reply = verdict_name(VERDICT_BAD_REPLY);
    pol_sample s = {NULL, p->label, bad_reply, NAN};
    vec_push(&tk->history, s);
    tk->row.variants_tried++;
    if (!run->db)
        return;
    strbuf err;
    sb_init(&err);
    char hash[65];
    tunedb_variant_hash(p->label, p->failure, hash);
    if (tunedb_record_evaluation(run->db, tk->key, hash, bad_reply, NAN, p->failure, &err) != 0)
        log_warn("tune: recording a failed proposal: %s", sb_str(&err));
    sb_free(&err);
}
