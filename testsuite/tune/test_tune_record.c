/*
 * test_tune_record.c WORKDIR: one round of `cl1cc tune` read back from its
 * judge: a judgement (as `cl1cc judge --json` writes it, ran on a GPU) read
 * by tune_finish_job into the kernel's results and the tuning database,
 * each variant under the policy that proposed it (the built-in policy's
 * as "builtin", the LLM's as "llm:<model>"); then the run's JSON written
 * and read back as `cl1cc ci` reads it; the roofline's columns in the
 * table, the JSON and the HTML report, and the budget's share by headroom.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "frontend.h"
#include "tune.h"

/* tune_report.c's clock (tune_cmd.c's is not linked in) */
double tune_now(void)
{
    return 0;
}

static const char *const kernel_source =
    "__global__ void scale(float *x, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        x[i] *= 2.0f;\n"
    "}\n";

/* the judgement of two variants: the first passes twice as fast, the
 * second computes something else */
static void write_judgement(const char *path)
{
    hn_judge_result *r = calloc(1, sizeof *r);
    snprintf(r->arch, sizeof r->arch, "sm_90");
    snprintf(r->gpu_name, sizeof r->gpu_name, "NVIDIA H100");
    r->ran_on_gpu = 1;
    r->original = (hn_timing){10, 2.0, 1.9, 2.1, 1.95, 2.05};
    r->build_seconds = 1;
    r->n_captures = 3;
    r->captures_repeated = 1;
    r->check_runs = 9;
    r->slowest_check_run_seconds = 0.5;
    r->n_variants = 2;
    r->variants[0].verdict = VERDICT_PASS;
    r->variants[0].timing = (hn_timing){10, 1.0, 0.9, 1.1, 0.95, 1.05};
    r->variants[0].speedup = 2.0;
    r->variants[0].significant = 1;
    r->variants[0].pct_of_limit = 50;
    r->variants[1].verdict = VERDICT_WRONG;
    r->variants[1].pct_of_limit = NAN;
    /* a limit of 0.5 ms: the original at 25%, the variant at 50% */
    r->roofline = (hn_roofline){3e6, 1e6, 1e9, 0.5, "memory"};
    r->peaks = (hn_device_peaks){3e12, 6.7e13, HN_LAUNCH_OVERHEAD_MS};
    r->original_pct_of_limit = 25;
    snprintf(r->variants[1].detail, sizeof r->variants[1].detail, "allocation 0 differs");
    strbuf err;
    sb_init(&err);
    CHECK(hn_judge_json_write(r, path, &err) == 0);
    sb_free(&err);
    free(r);
}

/* run written as the report JSON at path (its kernels freed) and read
 * back into back (strings in a); 0, or -1 */
static int json_round_trip(tune_run *run, const char *path, arena *a, tune_run *back)
{
    strbuf err = {0};
    int ok = report_write_tune(run, path, &err) == 0;
    CHECK(ok);
    vec_free(&run->kernels);
    char *text = NULL;
    ok = ok && file_read_all(path, 0, &text, NULL) == 0 && text &&
         report_parse_tune(text, a, back, &err) == 0;
    CHECK(ok);
    free(text);
    sb_free(&err);
    return ok ? 0 : -1;
}

/* the table tune prints for run, as text (free it), written through path */
static char *printed_table(const tune_run *run, const char *path)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return NULL;
    tune_report_print(run, f);
    fclose(f);
    char *text = NULL;
    CHECK(file_read_all(path, 0, &text, NULL) == 0);
    return text;
}

/* a kernel under 10% of its limit says why, in the order tune_far_reason
 * tries them; at 10% or more, or with the limit unknown, nothing */
static void check_far_reasons(tune_target *tk, const char *dir)
{
    char why[200];
    tune_target t = *tk;
    t.best_speedup = 1;
    t.best_ms = NAN;
    t.row.limit_ms = 0.05;
    t.row.baseline_ms = 0.5; /* 10%: not far */
    tune_far_reason(&t, why, sizeof why);
    CHECK(why[0] == '\0');
    t.row.limit_ms = NAN;
    tune_far_reason(&t, why, sizeof why);
    CHECK(why[0] == '\0');
    t.row.limit_ms = 0.0025;
    t.row.baseline_ms = 0.008; /* 31%: not far */
    tune_far_reason(&t, why, sizeof why);
    CHECK(why[0] == '\0');
    t.row.limit_ms = 0.0005;   /* 6% of an 8-us launch */
    tune_far_reason(&t, why, sizeof why);
    CHECK(strcmp(why, "launch-bound: 8.0 us a launch") == 0);
    t.row.baseline_ms = 2.0;
    t.row.limit_ms = 0.1;      /* 5% */
    t.facts.block_threads = 256;
    t.facts.grid_max[0] = 8, t.facts.grid_max[1] = 1, t.facts.grid_max[2] = 0;
    tune_far_reason(&t, why, sizeof why);
    CHECK(strcmp(why, "2048 threads at most: too few to fill the GPU") == 0);
    t.facts.grid_max[0] = 4096;
    t.original = "__global__ void h(int *c, const int *x) { atomicAdd(&c[x[0]], 1); }";
    tune_far_reason(&t, why, sizeof why);
    CHECK(strcmp(why, "atomics: their contention is not in the limit") == 0);
    t.original = "__global__ void s(float *x) { x[0] = 1; }";
    t.row.flops = NAN;
    tune_far_reason(&t, why, sizeof why);
    CHECK(strncmp(why, "its flops are not counted", 25) == 0);
    t.row.flops = 1e9;
    tune_far_reason(&t, why, sizeof why);
    CHECK(strcmp(why, "no transform of the catalogue closes the gap") == 0);
    /* a variant that brings it over 10% clears it */
    t.best_speedup = 3;
    t.best_ms = 0.5;
    tune_far_reason(&t, why, sizeof why);
    CHECK(why[0] == '\0');
    /* the reason in the JSON, both ways, the table and both reports */
    tune_run run, back;
    memset(&run, 0, sizeof run);
    tune_kernel far = t.row;
    far.kernel = "far";
    far.status = "no_gain";
    far.key = far.detail = far.best_label = "";
    far.best_pct_of_limit = 5;
    far.far_reason = "no transform of the catalogue closes the gap";
    memset(&far.progress_t, 0, sizeof far.progress_t);
    memset(&far.progress_best, 0, sizeof far.progress_best);
    vec_push(&run.kernels, far);
    char path[4096];
    snprintf(path, sizeof path, "%s/far.json", dir);
    arena a;
    arena_init(&a);
    if (json_round_trip(&run, path, &a, &back) != 0) {
        arena_free(&a);
        return;
    }
    CHECK(back.kernels.len == 1);
    if (back.kernels.len == 1) {
        CHECK(back.kernels.items[0].far_reason &&
              strcmp(back.kernels.items[0].far_reason, far.far_reason) == 0);
        snprintf(path, sizeof path, "%s/far.txt", dir);
        char *table = printed_table(&back, path);
        CHECK(table &&
              strstr(table, "far: 5.0% of its limit: no transform of the catalogue closes the gap\n"));
        free(table);
        report_input in;
        memset(&in, 0, sizeof in);
        in.run = &back;
        strbuf html = {0}, md = {0};
        report_html(&in, &html);
        CHECK(strstr(sb_str(&html), "<small>5.0% of its limit: no transform of the catalogue closes the gap</small>"));
        report_markdown(&in, &md);
        CHECK(strstr(sb_str(&md), "5.0% of its limit: no transform of the catalogue closes the gap"));
        sb_free(&html);
        sb_free(&md);
    }
    tune_run_free(&back);
    arena_free(&a);
}

static const char *policy_of(const tunedb_variant_list *list, const char *source)
{
    for (size_t i = 0; i < list->len; i++)
        if (strcmp(list->items[i].source, source) == 0)
            return list->items[i].policy;
    return NULL;
}

/* the table and the HTML report carry the limit and both percentages */
static void check_table_and_html(const tune_run *run, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/table.txt", dir);
    tune_run shown = *run;
    shown.ran_on_gpu = 1;
    shown.gpu_name = "NVIDIA H100";
    char *text = printed_table(&shown, path);
    CHECK(text && strstr(text, "limit_ms") && strstr(text, "orig%") && strstr(text, "best%"));
    CHECK(text && strstr(text, "    0.5000   25.0   50.0 "));
    free(text);
    report_input in;
    memset(&in, 0, sizeof in);
    in.run = run;
    strbuf html;
    sb_init(&html);
    report_html(&in, &html);
    CHECK(strstr(sb_str(&html), "<td class=\"n\" title=\"roofline limit 0.5000 ms\">"));
    CHECK(strstr(sb_str(&html), "<br><small>25.0% → 50.0% of limit</small></td>"));
    sb_free(&html);
}

/* the results as the report JSON, read back */
static void check_report(tune_target *tk, const char *dir)
{
    tune_run run, back;
    memset(&run, 0, sizeof run);
    run.arch = "sm_90";
    run.ran_on_gpu = 1;
    run.budget_evaluations = 24;
    run.capture_seconds = 12.5;
    tk->row.key = tk->key;
    tk->row.detail = tk->detail;
    tk->row.best_pct_of_limit = tune_best_pct_of_limit(tk);
    vec_push(&run.kernels, tk->row);
    tune_kernel never;
    memset(&never, 0, sizeof never);
    never.kernel = "never";
    never.status = "not_captured";
    never.not_captured = "never launched";
    never.baseline_ms = never.best_ms = never.speedup = never.spread_ms = NAN;
    vec_push(&run.kernels, never);
    char path[4096];
    snprintf(path, sizeof path, "%s/tune.json", dir);
    arena a;
    arena_init(&a);
    if (json_round_trip(&run, path, &a, &back) != 0) {
        arena_free(&a);
        return;
    }
    CHECK(back.kernels.len == 2 && back.ran_on_gpu == 1 && back.budget_evaluations == 24 &&
          back.gpu_name == NULL && back.capture_seconds == 12.5);
    if (back.kernels.len == 2) {
        /* a kernel not captured says why; a captured one has no reason */
        const tune_kernel *reason = &back.kernels.items[1];
        CHECK(reason->not_captured && strcmp(reason->not_captured, "never launched") == 0);
        CHECK(back.kernels.items[0].not_captured == NULL);
        /* the judged kernel's first verdict came back; the other has none */
        CHECK(back.kernels.items[0].first_verdict_seconds > 0 &&
              reason->first_verdict_seconds == 0);
        const tune_kernel *k = &back.kernels.items[0];
        CHECK(strcmp(k->kernel, "scale") == 0 && strcmp(k->key, tk->key) == 0);
        CHECK(k->variants_tried == 2 && k->variants_passed == 1 && k->baseline_ms == 2.0);
        CHECK(strcmp(k->best_label, "restrict") == 0 && k->judge_seconds[0] == 1);
        /* the checks' captures, runs and slowest run */
        CHECK(k->captures_checked == 2 && k->check_runs == 9 &&
              k->slowest_check_run_seconds == 0.5);
        CHECK(reason->check_runs == -1 && isnan(reason->slowest_check_run_seconds));
        CHECK(k->progress_t.len == 1 && k->progress_best.len == 1 &&
              k->progress_best.items[0] == 2.0);
        CHECK(isnan(k->best_ms)); /* null in the JSON */
        CHECK(k->limit_ms == 0.5 && k->original_pct_of_limit == 25 && k->bytes == 4e6 &&
              k->flops == 1e9 && k->best_pct_of_limit == 50);
    }
    check_table_and_html(&back, dir);
    tune_run_free(&back);
    arena_free(&a);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char cu[4096], json[4096], db_path[4096];
    snprintf(cu, sizeof cu, "%s/scale.cu", dir);
    snprintf(json, sizeof json, "%s/judge.json", dir);
    snprintf(db_path, sizeof db_path, "%s/record.db", dir);
    remove(db_path);
    CHECK(file_write_atomic(cu, kernel_source, strlen(kernel_source)) == 0);
    write_judgement(json);

    tu_model m;
    model_init(&m);
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    strbuf err;
    sb_init(&err);
    int parsed = fe_parse(cu, &fo, &m, &err);
    if (parsed != FE_OK)
        fprintf(stderr, "%s\n", sb_str(&err));
    CHECK(parsed == FE_OK && m.kernels.len == 1);
    if (m.kernels.len != 1)
        return CHECK_REPORT("tune_record");
    nvcc_cmdline cl;
    CHECK(nvcc_cmdline_parse(0, NULL, &cl, &err) == 0);
    hn_judge_settings settings;
    hn_judge_settings_init(&settings);
    tune_loop loop;
    memset(&loop, 0, sizeof loop);
    loop.db_path = db_path;
    loop.arch = "none";
    loop.cl = &cl;
    loop.judge = &settings;
    tune_target tk;
    memset(&tk, 0, sizeof tk);
    tk.row.file = m.main_file;
    tk.row.kernel = m.kernels.items[0].qualified_name;
    tk.row.baseline_ms = tk.row.spread_ms = tk.row.best_ms = tk.row.speedup = NAN;
    tk.row.limit_ms = tk.row.bytes = tk.row.flops = NAN;
    tk.row.original_pct_of_limit = tk.row.best_pct_of_limit = NAN;
    CHECK(tune_round_share(&tk, 4) == 4); /* no limit known yet */
    tk.row.best_label = "";
    tk.model = &m;
    tk.k = &m.kernels.items[0];
    tk.original = kernel_source;
    tk.best_speedup = 1;
    tk.best_ms = NAN;

    pol_llm_config llm;
    pol_llm_config_init(&llm);
    llm.model = "fake-model";
    arena a;
    arena_init(&a);
    tune_proposal props[2] = {
        {{"__global__ void scale(float *__restrict__ x, int n) {}", "restrict", NULL},
         TUNE_POLICY_BUILTIN},
        {{"__global__ void scale(float *x, int n) { /* llm */ }", "llm:fake-model #1", NULL},
         tune_llm_policy(&llm, &a)},
    };
    round_job rj;
    memset(&rj, 0, sizeof rj);
    rj.tk = &tk;
    rj.props = props;
    rj.n = 2;
    rj.json_path = json;
    pool_job pj;
    memset(&pj, 0, sizeof pj);
    snprintf(pj.status, sizeof pj.status, "done");
    pj.wall_s = 3;
    CHECK(tune_finish_job(&loop, &rj, &pj, &a) == 0);
    CHECK(loop.ran_on_gpu && loop.recording && loop.db && strcmp(loop.arch, "sm_90") == 0);
    CHECK(tk.row.variants_tried == 2 && tk.row.variants_passed == 1 && tk.best_speedup == 2.0);
    CHECK(tk.history.len == 2 && strcmp(tk.history.items[1].verdict, "wrong") == 0);
    tunedb_variant_list list = {0};
    CHECK(loop.db && tunedb_list_variants(loop.db, tk.key, NULL, &a, &list, &err) == 0);
    CHECK(list.len == 2);
    const char *builtin = policy_of(&list, props[0].p.source);
    const char *by_llm = policy_of(&list, props[1].p.source);
    CHECK(builtin && strcmp(builtin, "builtin") == 0);
    CHECK(by_llm && strcmp(by_llm, "llm:fake-model") == 0);
    tunedb_evaluation_list evals = {0};
    CHECK(tunedb_list_evaluations(loop.db, tk.key, &a, &evals, &err) == 0 && evals.len == 2);
    /* the roofline: the row, the chooser's headroom (the original's), the
     * best variant's share, the next round's proposals */
    CHECK(tk.row.limit_ms == 0.5 && tk.row.bytes == 4e6 && tk.row.flops == 1e9 &&
          tk.row.original_pct_of_limit == 25);
    CHECK(fabs(tk.features[POL_FEATURE_HEADROOM] - 0.75) < 1e-12 && tk.facts.headroom == 0.75);
    CHECK(tune_best_pct_of_limit(&tk) == 50);
    CHECK(tune_round_share(&tk, 4) == 4);  /* headroom 0.5: 4 x (0.5 + 0.5) */
    tk.best_ms = 0.5;                       /* at the limit: half */
    CHECK(tune_round_share(&tk, 4) == 2 && tune_round_share(&tk, 1) == 1);
    tk.best_ms = 1.0;
    check_report(&tk, dir);
    check_far_reasons(&tk, dir);

    vec_free(&tk.history);
    vec_free(&tk.row.progress_t);
    vec_free(&tk.row.progress_best);
    tunedb_close(loop.db);
    nvcc_cmdline_free(&cl);
    model_free(&m);
    arena_free(&a);
    sb_free(&err);
    return CHECK_REPORT("tune_record");
}
