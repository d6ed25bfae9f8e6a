/*
 * tune_cmd.c: `cl1cc tune --run CMD [--build CMD] FILES... [-- NVCC-FLAGS]`:
 * the whole loop.  Captures real launches of the user's program, then for
 * every captured kernel runs rounds of proposals (the built-in policy) that
 * the harness verifies and times (`cl1cc judge` children), feeds the
 * measurements back into the next round and into the chooser, records
 * everything in the tuning database and ends with a table (and --json).
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "core.h"
#include "driver.h"
#include "frontend.h"
#include "harness.h"
#include "kernel_key.h"
#include "llm.h"
#include "pool.h"
#include "proc.h"
#include "tempfiles.h"
#include "tune.h"
#include "tunedb.h"
#include "wrapper.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: cl1cc tune --run CMD [--build CMD] [OPTIONS] FILES.cu... [-- NVCC-FLAGS]\n"
            "       cl1cc tune --captures DIR [OPTIONS] FILES.cu... [-- NVCC-FLAGS]\n"
            "       cl1cc tune --retrain [--chooser FILE]\n"
            "  --run CMD            runs the program (its launches are captured)\n"
            "  --build CMD          builds it first, with cl1cc standing in for nvcc\n"
            "  --captures DIR       where captures go, or come from without --run\n"
            "  --limit N            launches captured per kernel (default 2)\n"
            "  --kernel NAME        tune only this kernel (repeatable)\n"
            "  --budget-seconds S   stop starting evaluations S seconds after the capture (default 900)\n"
            "  --kernel-evals N     variants evaluated per kernel at most (default 24)\n"
            "  --per-round N        proposals per kernel per round (default 6)\n"
            "  --order ORDER        learned (default), random or catalogue\n"
            "  --seed N             for --order random\n"
            "  --chooser FILE       the chooser model to read and update\n"
            "  --no-learn           leave the chooser model as it is\n"
            "  --cl1-fast-math      allow fast intrinsics (results change slightly)\n"
            "  --policy P           builtin (default), llm, or both (default with an LLM URL)\n"
            "  --llm-per-round N    LLM proposals per kernel per round (default 2)\n"
            "  --cl1-llm-url URL --cl1-llm-model NAME ...   the LLM policy (docs/LLM.md)\n"
            "  --cl1-backend B      local (default: one judge per GPU here) or slurm\n"
            "  --gpus LIST          the local pool's GPUs (default CUDA_VISIBLE_DEVICES)\n"
            "  --slurm-partition P  and --slurm-gres G: what Slurm jobs ask for\n"
            "  --work DIR           keep the variants and judge logs here (shared with\n"
            "                       the nodes for slurm)\n"
            "  --json FILE          a summary for tools and `cl1cc ci`\n"
            "  --runs N, --rounds N, --seeds N, --timeout S   passed to the judge\n");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char *self_path(arena *a)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    return arena_strdup(a, self);
}

static int has_meta_below(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char meta[PATH_MAX];
        snprintf(meta, sizeof meta, "%s/%s/meta", dir, e->d_name);
        found = access(meta, R_OK) == 0;
    }
    closedir(d);
    return found;
}

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b, b = t;
    }
    return a;
}

/* a kernel whose captured launch took this long gets a first round of
 * LONG_FIRST_ROUND proposals (correlation's 1.1-s kernel: a judge of 6
 * variants took 78 s on an H100) */
#define LONG_KERNEL_MS 100.0
enum { LONG_FIRST_ROUND = 3 };

/* what the captured launches tell the transforms; *longest_ms the longest
 * captured launch's wall time */
static void facts_from_captures(const char *dir, const kernel *k, pol_facts *f, double *longest_ms)
{
    *longest_ms = 0;
    f->block_threads = 0;
    f->pointers_distinct = 0;
    f->block[0] = f->block[1] = f->block[2] = 0;
    f->flat_grid = 0;
    for (int s = 0; s < 3; s++)
        f->grid_gcd[s] = f->grid_max[s] = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int seen = 0, distinct = 1, flat = 1;
    strbuf err;
    sb_init(&err);
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        hn_capture c;
        if (hn_capture_read(sub, &c, &err) != 0)
            continue;
        seen++;
        if (c.launch_ms > *longest_ms)
            *longest_ms = c.launch_ms;
        flat &= c.grid[1] <= 1 && c.grid[2] <= 1;
        for (int s = 0; s < 3; s++) {
            unsigned g = c.grid[s] ? c.grid[s] : 1;
            f->grid_gcd[s] = gcd(f->grid_gcd[s], g);
            if (g > f->grid_max[s])
                f->grid_max[s] = g;
        }
        int shape[3] = {(int)c.block[0], c.block[1] ? (int)c.block[1] : 1, c.block[2] ? (int)c.block[2] : 1};
        int threads = shape[0] * shape[1] * shape[2];
        for (int s = 0; s < 3; s++)
            f->block[s] = seen == 1 ? shape[s] : f->block[s] == shape[s] ? shape[s] : -1;
        if (threads > f->block_threads)
            f->block_threads = threads;
        for (int i = 0; i < c.nargs; i++)
            for (int j = i + 1; j < c.nargs; j++)
                if (c.arg_alloc[i] >= 0 && c.arg_alloc[i] == c.arg_alloc[j])
                    distinct = 0;
    }
    closedir(d);
    sb_free(&err);
    (void)k;
    f->pointers_distinct = seen > 0 && distinct;
    f->flat_grid = seen > 0 && flat;
    for (int s = 0; s < 3; s++)
        if (f->block[s] < 0 || !seen)
            f->block[0] = f->block[1] = f->block[2] = 0;
}

/* the captures of one kernel: DIR/<tag of file>/k<index> */
static const char *kernel_capture_dir(const char *root, const tu_model *m, size_t index, arena *a)
{
    return arena_printf(a, "%s/%s/k%zu", root, hn_capture_tag(m->main_file, a), index);
}

static const char *context_text(const tu_model *m, const kernel *k, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t d = 0; d < k->deps.len; d++) {
        const dependency *dep = &m->decls.items[k->deps.items[d]];
        const char *t = fe_range_text(m, &dep->range, a);
        if (t) {
            sb_puts(&sb, t);
            sb_puts(&sb, "\n");
        }
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static const char *launch_text(const tu_model *m, size_t index, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        if (l->kernel_index != (long)index)
            continue;
        const char *t = fe_range_text(m, &l->range, a);
        sb_printf(&sb, "%s in %s\n", t ? t : l->kernel_name, l->caller ? l->caller : "?");
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static void pool_progress(void *data, pool_event ev, size_t index, const pool_job *job)
{
    (void)data;
    (void)index;
    if (ev == POOL_EV_RETRY)
        log_verbose("tune: %s: retried: %s", job->label, job->detail);
}

/* ---- the loop ---------------------------------------------------------------- */

typedef VEC(tune_kernel) tune_kernel_vec;
typedef VEC(tu_model *) model_vec;

static int load_tunables(const char *file, const tune_options *o, const nvcc_cmdline *cl,
                         const char *captures, arena *a, tune_kernel_vec *out,
                         model_vec *models)
{
    tu_model *m = xcalloc(1, sizeof *m);
    model_init(m);
    vec_push(models, m);
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    fo.flags = (const char *const *)cl->frontend_flags.items;
    fo.n_flags = cl->frontend_flags.len;
    fo.with_bodies = 1;
    strbuf diags;
    sb_init(&diags);
    if (fe_parse(file, &fo, m, &diags) != FE_OK) {
        fputs(sb_str(&diags), stderr);
        sb_free(&diags);
        return -1;
    }
    sb_free(&diags);
    for (size_t i = 0; i < m->kernels.len; i++) {
        const kernel *k = &m->kernels.items[i];
        if (!k->is_definition || strcmp(k->decl_range.file, m->main_file) != 0)
            continue;
        int wanted = o->n_kernels == 0;
        for (size_t w = 0; w < o->n_kernels && !wanted; w++)
            wanted = strcmp(o->kernels[w], k->name) == 0 ||
                     strcmp(o->kernels[w], k->qualified_name) == 0;
        if (!wanted)
            continue;
        tune_kernel tk;
        memset(&tk, 0, sizeof tk);
        tk.file = m->main_file;
        tk.model = m;
        tk.index = i;
        tk.k = k;
        tk.name = k->qualified_name;
        tk.captures = kernel_capture_dir(captures, m, i, a);
        tk.original = fe_range_text(m, &k->decl_range, a);
        tk.context = context_text(m, k, a);
        tk.launches = launch_text(m, i, a);
        tk.baseline_ms = NAN;
        tk.best_ms = NAN;
        tk.spread_ms = NAN;
        tk.best_speedup = 1;
        tk.best_label = "";
        tk.status = "no_gain";
        facts_from_captures(tk.captures, k, &tk.facts, &tk.captured_ms);
        tk.facts.fast_math = o->fast_math;
        pol_kernel_features(m, k, &tk.facts, tk.features);
        if (!has_meta_below(tk.captures)) {
            tk.done = 1;
            tk.status = "not_captured";
            snprintf(tk.detail, sizeof tk.detail, "no launch of it was captured%s",
                     k->is_template ? " (template kernels are not captured yet)" : "");
        }
        vec_push(out, tk);
    }
    return 0;
}

static void learn(pol_chooser *c, const tune_kernel *tk)
{
    size_t n = tk->history.len;
    if (n < 2)
        return;
    const char **labels = xcalloc(n, sizeof *labels);
    double *speedups = xcalloc(n, sizeof *speedups);
    for (size_t i = 0; i < n; i++) {
        labels[i] = tk->history.items[i].label;
        double s = tk->history.items[i].speedup;
        speedups[i] = isfinite(s) ? s : 0;
    }
    pol_chooser_learn(c, tk->features, labels, speedups, n);
    free(labels);
    free(speedups);
}

int cmd_tune(int argc, char **argv)
{
    tune_options o;
    if (tune_parse_options(argc, argv, &o) != 0) {
        usage();
        tune_options_free(&o);
        return 2;
    }
    if (o.help) {
        usage();
        tune_options_free(&o);
        return 0;
    }
    if (o.retrain) {
        int rc = tune_retrain(&o);
        tune_options_free(&o);
        return rc;
    }
    arena a;
    arena_init(&a);
    int rc = 1;
    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    tune_kernel_vec kernels = {0};
    model_vec models = {0};
    pol_chooser *chooser = NULL;
    tune_run run;
    memset(&run, 0, sizeof run);
    run.judge_runs = o.judge_runs;
    run.judge_rounds = o.judge_rounds;
    run.judge_seeds = o.judge_seeds;
    run.judge_timeout = o.judge_timeout;
    run.started = now_s();
    if (nvcc_cmdline_parse((int)o.n_nvcc_flags, o.nvcc_flags, &cl, &err) != 0) {
        log_error("tune: %s", sb_str(&err));
        sb_free(&err);
        tune_options_free(&o);
        return 2;
    }
    run.cl = &cl;
    run.nvcc_flags = (const char *const *)o.nvcc_flags;
    run.n_nvcc_flags = o.n_nvcc_flags;
    run.self = self_path(&a);
    run.db_path = tunedb_default_path(&a);
    if (!run.self || !run.db_path) {
        log_error("tune: cannot find cl1cc itself or a place for the tuning database");
        goto out;
    }
    const char *db_dir = arena_strdup(&a, run.db_path);
    char *slash = strrchr((char *)db_dir, '/');
    if (slash)
        *slash = '\0';
    const char *captures = o.captures ? o.captures : arena_printf(&a, "%s/captures", db_dir);

    if (o.work)
        run.work = o.work;
    else if (o.pool.backend == POOL_SLURM) /* the nodes must see it: not TMPDIR */
        run.work = arena_printf(&a, "%s/work/tune-%ld", db_dir, (long)getpid());
    /* 1. capture */
    if (o.run_cmd) {
        cstr_vec cap = {0};
        vec_push(&cap, run.self);
        vec_push(&cap, "capture");
        vec_push(&cap, "--run");
        vec_push(&cap, o.run_cmd);
        if (o.build_cmd) {
            vec_push(&cap, "--build");
            vec_push(&cap, o.build_cmd);
        }
        vec_push(&cap, "--out");
        vec_push(&cap, captures);
        vec_push(&cap, "--limit");
        vec_push(&cap, arena_printf(&a, "%d", o.limit));
        for (size_t i = 0; i < o.n_files; i++)
            vec_push(&cap, o.files[i]);
        vec_push(&cap, NULL);
        printf("tune: capturing launches: %s\n", o.run_cmd);
        fflush(stdout);
        proc_result res;
        int started = proc_run(cap.items, NULL, &res);
        int status = proc_shell_status(&res);
        proc_result_free(&res);
        vec_free(&cap);
        if (started != 0 || status != 0) {
            log_error("tune: capturing failed (status %d): see above", status);
            goto out;
        }
    }

    /* 2. what to tune */
    for (size_t i = 0; i < o.n_files; i++) {
        char resolved[PATH_MAX];
        if (!realpath(o.files[i], resolved)) {
            log_error("tune: %s: %s", o.files[i], strerror(errno));
            goto out;
        }
        if (load_tunables(arena_strdup(&a, resolved), &o, &cl, captures, &a, &kernels, &models) != 0)
            goto out;
    }
    char gpu_arch[16] = "", gpu_name[128] = "";
    int have_gpu = hn_gpu_detect(gpu_arch, sizeof gpu_arch, gpu_name, sizeof gpu_name);
    run.arch = have_gpu ? arena_strdup(&a, gpu_arch) : "none";
    run.gpu_name = have_gpu ? arena_strdup(&a, gpu_name) : NULL;
    if (!have_gpu && o.pool.backend == POOL_LOCAL)
        printf("tune: no GPU on this machine: each kernel's first round of variants is "
               "generated and built, verifying and timing them is skipped.\n");
    for (size_t i = 0; i < kernels.len; i++)
        tune_key_kernel(&run, &kernels.items[i]);
    const char *chooser_path = o.chooser ? o.chooser : arena_printf(&a, "%s/chooser.json", db_dir);
    if (pol_chooser_load(chooser_path, &chooser, &err) != 0) {
        sb_clear(&err);
        const char *prior = arena_printf(&a, "%s/../share/cl1cc/chooser-prior.json", self_exe_dir());
        if (pol_chooser_load(prior, &chooser, &err) != 0) {
            log_warn("tune: no chooser model (%s): trying transforms in catalogue order",
                     sb_str(&err));
            sb_clear(&err);
            chooser = pol_chooser_new();
        }
    }
    if (!run.work) {
        strbuf work;
        sb_init(&work);
        if (tempfiles_make_dir("cl1cc-tune", &work) != 0) {
            log_error("tune: cannot make a work folder: %s", strerror(errno));
            sb_free(&work);
            goto out;
        }
        tempfiles_install_handlers();
        run.work = arena_strdup(&a, sb_str(&work));
        sb_free(&work);
    } else if (dir_create_all(run.work, 0755) != 0) {
        log_error("tune: %s: %s", run.work, strerror(errno));
        goto out;
    }

    run.ran_on_gpu = 1; /* until a judgement says otherwise */
    /* the budget is for tuning: the capture (the user's whole program, its
     * CPU reference included) does not count against it */
    double tuning_started = now_s();
    /* 3. rounds: every active kernel proposes, the pool runs the judges */
    for (int round = 1;; round++) {
        VEC(round_job) rjobs = {0};
        VEC(pool_job) pjobs = {0};
        for (size_t i = 0; i < kernels.len; i++) {
            tune_kernel *tk = &kernels.items[i];
            if (tk->done)
                continue;
            if (now_s() - tuning_started > o.budget_seconds) {
                tk->done = 1;
                if (!tk->tried)
                    snprintf(tk->detail, sizeof tk->detail, "the time budget ran out first");
                continue;
            }
            int room = o.kernel_evals - tk->tried;
            pol_context ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.model = tk->model;
            ctx.kernel_index = tk->index;
            ctx.kernel_source = tk->original;
            ctx.context_source = tk->context;
            ctx.launch_summary = tk->launches;
            ctx.arch = run.arch;
            ctx.gpu_name = run.gpu_name;
            ctx.history = tk->history.items;
            ctx.n_history = tk->history.len;
            ctx.max_proposals = room < o.per_round ? room : o.per_round;
            /* a long kernel (each launch costs the judge seconds over its
             * input sets and timing) gets a smaller first round: the
             * chooser's best few land sooner, the rest follow */
            if (!tk->tried && tk->captured_ms >= LONG_KERNEL_MS && ctx.max_proposals > LONG_FIRST_ROUND)
                ctx.max_proposals = LONG_FIRST_ROUND;
            pol_search_options so;
            memset(&so, 0, sizeof so);
            so.chooser = o.order == TUNE_ORDER_LEARNED ? chooser : NULL;
            so.random_order = o.order == TUNE_ORDER_RANDOM;
            so.seed = o.seed + i;
            so.facts = tk->facts;
            pol_proposal_vec props = {0};
            if (ctx.max_proposals > 0 && o.use_builtin)
                pol_builtin_propose(&ctx, &so, &a, &props);
            /* the LLM sees the built-in policy's measurements as its history */
            int llm_room = room - (int)props.len;
            if (o.llm.url && llm_room > 0 && run.ran_on_gpu) {
                ctx.max_proposals = llm_room < o.llm_per_round ? llm_room : o.llm_per_round;
                if (pol_llm_propose(&o.llm, &ctx, &a, &props, &err) < 0) {
                    log_warn("tune: the LLM policy: %s", sb_str(&err));
                    sb_clear(&err);
                }
            }
            round_job rj;
            memset(&rj, 0, sizeof rj);
            rj.props = arena_alloc(&a, (props.len ? props.len : 1) * sizeof *rj.props);
            for (size_t p = 0; p < props.len; p++) {
                if (props.items[p].source)
                    rj.props[rj.n++] = props.items[p];
                else
                    tune_record_failed_proposal(&run, tk, &props.items[p]);
            }
            vec_free(&props);
            if (rj.n == 0) {
                if (tk->tried >= o.kernel_evals || !o.llm.url || !run.ran_on_gpu) {
                    tk->done = 1;
                    if (!tk->tried)
                        snprintf(tk->detail, sizeof tk->detail,
                                 "no transform of the catalogue applies");
                }
                continue;
            }
            tk->rounds = round;
            pool_job pj;
            if (tune_prepare_job(&run, tk, &rj, &pj, &a) != 0) {
                tk->done = 1;
                tk->status = "error";
                vec_free(&rj.argv);
                continue;
            }
            vec_push(&rjobs, rj);
            vec_push(&pjobs, pj);
        }
        if (!rjobs.len) {
            vec_free(&rjobs);
            vec_free(&pjobs);
            break;
        }
        /* argv pointers moved with the vectors: point the jobs at them again */
        for (size_t j = 0; j < rjobs.len; j++) {
            vec_push(&rjobs.items[j].argv, NULL);
            pjobs.items[j].argv = rjobs.items[j].argv.items;
        }
        if (pool_run(&o.pool, pjobs.items, pjobs.len, pool_progress, NULL, &err) != 0) {
            log_error("tune: the evaluation pool: %s", sb_str(&err));
            for (size_t j = 0; j < rjobs.len; j++)
                vec_free(&rjobs.items[j].argv);
            vec_free(&rjobs);
            vec_free(&pjobs);
            goto out;
        }
        for (size_t j = 0; j < rjobs.len; j++) {
            round_job *rj = &rjobs.items[j];
            tune_kernel *tk = rj->tk;
            if (tune_finish_job(&run, rj, &pjobs.items[j], &a) != 0) {
                tk->done = 1;
                tk->status = "error";
            } else if (!run.ran_on_gpu) {
                tk->done = 1;
                tk->status = "skipped_no_gpu";
                tk->tried += (int)rj->n;
                snprintf(tk->detail, sizeof tk->detail,
                         "built the replay driver and %zu variant(s) (%d did not compile); "
                         "no GPU to verify and time them", rj->n, tk->build_errors);
            } else {
                printf("tune: %s %s round %d on %s: %zu variant(s), %d/%d passed so far, "
                       "best %.2fx%s%s\n",
                       hn_capture_tag(tk->file, &a), tk->name, round, pjobs.items[j].where, rj->n,
                       tk->passed, tk->tried, tk->best_speedup, tk->best_label[0] ? " with " : "",
                       tk->best_label);
            }
            vec_free(&rj->argv);
        }
        fflush(stdout);
        vec_free(&rjobs);
        vec_free(&pjobs);
    }

    /* 4. learn, report */
    for (size_t i = 0; i < kernels.len; i++) {
        tune_kernel *tk = &kernels.items[i];
        if (tk->best_speedup > 1 && tk->best_label[0])
            tk->status = "improved";
        if (o.learn && run.ran_on_gpu)
            learn(chooser, tk);
    }
    if (o.learn && run.ran_on_gpu && chooser && pol_chooser_save(chooser, chooser_path, &err) != 0) {
        log_warn("tune: saving the chooser: %s", sb_str(&err));
        sb_clear(&err);
    }
    tune_report rep;
    memset(&rep, 0, sizeof rep);
    rep.arch = run.arch;
    rep.gpu_name = run.gpu_name;
    rep.ran_on_gpu = run.recording;
    rep.budget_seconds = o.budget_seconds;
    rep.kernel_evals = o.kernel_evals;
    rep.wall_seconds = now_s() - run.started;
    tune_report_row *rows = xcalloc(kernels.len ? kernels.len : 1, sizeof *rows);
    for (size_t i = 0; i < kernels.len; i++) {
        tune_kernel *tk = &kernels.items[i];
        tune_report_row *r = &rows[i];
        r->file = tk->file;
        r->kernel = tk->name;
        r->key = tk->key;
        r->status = tk->status;
        r->detail = tk->detail;
        r->baseline_ms = tk->baseline_ms;
        r->best_ms = tk->best_speedup > 1 ? tk->best_ms : tk->baseline_ms;
        r->speedup = tk->best_speedup;
        r->spread_ms = tk->spread_ms;
        r->best_label = tk->best_label;
        r->tried = tk->tried;
        r->passed = tk->passed;
        r->seconds = tk->seconds;
        memcpy(r->judge_phase_s, tk->judge_phase_s, sizeof r->judge_phase_s);
        r->progress_t = tk->progress_t.items;
        r->progress_best = tk->progress_best.items;
        r->n_progress = tk->progress_t.len;
    }
    rep.rows = rows;
    rep.n_rows = kernels.len;
    tune_report_print(&rep, stdout);
    rc = 0;
    if (o.json && tune_report_write_json(&rep, o.json, &err) != 0) {
        log_error("tune: %s", sb_str(&err));
        rc = 1;
    }
    free(rows);
out:
    for (size_t i = 0; i < kernels.len; i++) {
        vec_free(&kernels.items[i].history);
        vec_free(&kernels.items[i].progress_t);
        vec_free(&kernels.items[i].progress_best);
    }
    vec_free(&kernels);
    for (size_t i = 0; i < models.len; i++) {
        model_free(models.items[i]);
        free(models.items[i]);
    }
    vec_free(&models);
    pol_chooser_free(chooser);
    tunedb_close(run.db);
    nvcc_cmdline_free(&cl);
    sb_free(&err);
    tune_options_free(&o);
    arena_free(&a);
    return rc;
}
