/*
 * tune_cmd.c: `cl1cc tune --run CMD [--build CMD] FILES... [-- NVCC-FLAGS]`:
 * the whole loop.  Captures real launches of the user's program, then for
 * every captured kernel runs rounds of capture -> propose -> judge -> record:
 * proposals (the built-in policy, the LLM's) that the harness verifies and
 * times (`cl1cc judge` children), the measurements fed back into the next
 * round and into the chooser and recorded in the tuning database; it ends
 * with a table (and --json).
 */
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

#ifndef CL1CC_VERSION
#define CL1CC_VERSION "0.0.0"
#endif

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
            "  --runs N, --rounds N, --seeds N, --timeout S, --sanitize, --isolate\n"
            "                       passed to the judge\n");
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

/* ---- one tuning session ---------------------------------------------------------- */

typedef VEC(tune_target) tune_target_vec;
typedef VEC(tu_model *) model_vec;

typedef struct tune_session {
    tune_options o;
    tune_loop loop;
    nvcc_cmdline cl;
    arena a;
    strbuf err;
    const char *db_dir, *captures, *chooser_path;
    tune_target_vec targets;
    model_vec models;
    pol_chooser *chooser;
    double tuning_started; /* the budget counts from here, after the capture */
} tune_session;

/* a kernel to tune, before any round */
static void target_init(tune_target *tk, tu_model *m, size_t i, const char *captures,
                        const tune_options *o, arena *a)
{
    const kernel *k = &m->kernels.items[i];
    memset(tk, 0, sizeof *tk);
    tk->row.file = k->decl_range.file; /* the header, for a kernel of one */
    tk->row.kernel = k->qualified_name;
    tk->row.status = "no_gain";
    tk->row.best_label = "";
    tk->row.baseline_ms = tk->row.best_ms = tk->row.spread_ms = tk->row.speedup = NAN;
    tk->model = m;
    tk->index = i;
    tk->k = k;
    tk->captures = kernel_capture_dir(captures, m, i, a);
    tk->original = fe_range_text(m, &k->decl_range, a);
    tk->context = context_text(m, k, a);
    tk->launches = launch_text(m, i, a);
    tk->best_ms = NAN;
    tk->best_speedup = 1;
    facts_from_captures(tk->captures, k, &tk->facts, &tk->captured_ms);
    tk->facts.fast_math = o->fast_math;
    pol_kernel_features(m, k, &tk->facts, tk->features);
    if (!has_meta_below(tk->captures)) {
        tk->done = 1;
        tk->row.status = "not_captured";
        snprintf(tk->detail, sizeof tk->detail, "no launch of it was captured%s",
                 k->is_template ? " (of a template: no launch named its instantiation)" : "");
    }
}

static int wanted_kernel(const tune_options *o, const kernel *k)
{
    int wanted = o->n_kernels == 0;
    for (size_t w = 0; w < o->n_kernels && !wanted; w++)
        wanted = strcmp(o->kernels[w], k->name) == 0 || strcmp(o->kernels[w], k->qualified_name) == 0;
    return wanted;
}

/* the kernels of one file to tune; 0, or -1 after the parser's messages */
static int load_targets(tune_session *s, const char *file)
{
    tu_model *m = xcalloc(1, sizeof *m);
    model_init(m);
    vec_push(&s->models, m);
    fe_options fo;
    memset(&fo, 0, sizeof fo);
    fo.flags = (const char *const *)s->cl.frontend_flags.items;
    fo.n_flags = s->cl.frontend_flags.len;
    fo.with_bodies = 1;
    strbuf diags;
    sb_init(&diags);
    int parsed = fe_parse(file, &fo, m, &diags) == FE_OK;
    if (!parsed)
        fputs(sb_str(&diags), stderr);
    sb_free(&diags);
    if (!parsed)
        return -1;
    for (size_t i = 0; i < m->kernels.len; i++) {
        const kernel *k = &m->kernels.items[i];
        if (!tune_kernel_of_file(m, k, s->targets.items, s->targets.len) || !wanted_kernel(&s->o, k))
            continue;
        tune_target tk;
        target_init(&tk, m, i, s->captures, &s->o, &s->a);
        vec_push(&s->targets, tk);
    }
    return 0;
}

static void learn(pol_chooser *c, const tune_target *tk)
{
    size_t n = tk->history.len;
    if (n < 2)
        return;
    const char **labels = xcalloc(n, sizeof *labels);
    double *speedups = xcalloc(n, sizeof *speedups);
    for (size_t i = 0; i < n; i++) {
        labels[i] = tk->history.items[i].label;
        double sp = tk->history.items[i].speedup;
        speedups[i] = isfinite(sp) ? sp : 0;
    }
    pol_chooser_learn(c, tk->features, labels, speedups, n);
    free(labels);
    free(speedups);
}

/* ---- before the rounds ------------------------------------------------------------ */

/* where things go: cl1cc itself, the database and its folder, the
 * captures, the work folder for Slurm; 0, or -1 */
static int find_places(tune_session *s)
{
    tune_loop *loop = &s->loop;
    loop->self = self_path(&s->a);
    loop->db_path = tunedb_default_path(&s->a);
    if (!loop->self || !loop->db_path) {
        log_error("tune: cannot find cl1cc itself or a place for the tuning database");
        return -1;
    }
    char *db_dir = arena_strdup(&s->a, loop->db_path);
    char *slash = strrchr(db_dir, '/');
    if (slash)
        *slash = '\0';
    s->db_dir = db_dir;
    s->captures = s->o.captures ? s->o.captures : arena_printf(&s->a, "%s/captures", db_dir);
    if (s->o.work)
        loop->work = s->o.work;
    else if (s->o.pool.backend == POOL_SLURM) /* the nodes must see it: not TMPDIR */
        loop->work = arena_printf(&s->a, "%s/work/tune-%ld", db_dir, (long)getpid());
    return 0;
}

/* 1. capture: `cl1cc capture` runs the user's program; 0, or -1 */
static int capture(tune_session *s)
{
    const tune_options *o = &s->o;
    if (!o->run_cmd)
        return 0;
    cstr_vec cap = {0};
    const char *fixed[] = {s->loop.self, "capture", "--run", o->run_cmd};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        vec_push(&cap, fixed[i]);
    if (o->build_cmd) {
        vec_push(&cap, "--build");
        vec_push(&cap, o->build_cmd);
    }
    vec_push(&cap, "--out");
    vec_push(&cap, s->captures);
    vec_push(&cap, "--limit");
    vec_push(&cap, arena_printf(&s->a, "%d", o->limit));
    for (size_t i = 0; i < o->n_files; i++)
        vec_push(&cap, o->files[i]);
    vec_push(&cap, NULL);
    printf("tune: capturing launches: %s\n", o->run_cmd);
    fflush(stdout);
    proc_result res;
    int started = proc_run(cap.items, NULL, &res);
    int status = proc_shell_status(&res);
    proc_result_free(&res);
    vec_free(&cap);
    if (started != 0 || status != 0) {
        log_error("tune: capturing failed (status %d): see above", status);
        return -1;
    }
    return 0;
}

/* 2. what to tune: every wanted kernel of every file; 0, or -1 */
static int find_targets(tune_session *s)
{
    for (size_t i = 0; i < s->o.n_files; i++) {
        char resolved[PATH_MAX];
        if (!realpath(s->o.files[i], resolved)) {
            log_error("tune: %s: %s", s->o.files[i], strerror(errno));
            return -1;
        }
        if (load_targets(s, arena_strdup(&s->a, resolved)) != 0)
            return -1;
    }
    return 0;
}

/* the GPU here (the pool's judges say which ran where), the kernels' keys */
static void detect_gpu(tune_session *s)
{
    char gpu_arch[16] = "", gpu_name[128] = "";
    int have_gpu = hn_gpu_detect(gpu_arch, sizeof gpu_arch, gpu_name, sizeof gpu_name);
    s->loop.arch = have_gpu ? arena_strdup(&s->a, gpu_arch) : "none";
    s->loop.gpu_name = have_gpu ? arena_strdup(&s->a, gpu_name) : NULL;
    if (!have_gpu && s->o.pool.backend == POOL_LOCAL)
        printf("tune: no GPU on this machine: each kernel's first round of variants is "
               "generated and built, verifying and timing them is skipped.\n");
    for (size_t i = 0; i < s->targets.len; i++)
        tune_key_kernel(&s->loop, &s->targets.items[i]);
}

/* the chooser model: --chooser, the database's, the shipped prior, or none */
static void load_chooser(tune_session *s)
{
    s->chooser_path = s->o.chooser ? s->o.chooser : arena_printf(&s->a, "%s/chooser.json", s->db_dir);
    if (pol_chooser_load(s->chooser_path, &s->chooser, &s->err) == 0)
        return;
    sb_clear(&s->err);
    const char *prior = arena_printf(&s->a, "%s/../share/cl1cc/chooser-prior.json", self_exe_dir());
    if (pol_chooser_load(prior, &s->chooser, &s->err) != 0) {
        log_warn("tune: no chooser model (%s): trying transforms in catalogue order",
                 sb_str(&s->err));
        sb_clear(&s->err);
        s->chooser = pol_chooser_new();
    }
}

static int make_work_dir(tune_session *s)
{
    if (s->loop.work) {
        if (dir_create_all(s->loop.work, 0755) == 0)
            return 0;
        log_error("tune: %s: %s", s->loop.work, strerror(errno));
        return -1;
    }
    strbuf work;
    sb_init(&work);
    if (tempfiles_make_dir("cl1cc-tune", &work) != 0) {
        log_error("tune: cannot make a work folder: %s", strerror(errno));
        sb_free(&work);
        return -1;
    }
    tempfiles_install_handlers();
    s->loop.work = arena_strdup(&s->a, sb_str(&work));
    sb_free(&work);
    return 0;
}

/* ---- a round: propose -> judge -> record --------------------------------------------- */

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
    ctx.arch = s->loop.arch;
    ctx.gpu_name = s->loop.gpu_name;
    ctx.history = tk->history.items;
    ctx.n_history = tk->history.len;
    ctx.max_proposals = room < o->per_round ? room : o->per_round;
    /* a long kernel (each launch costs the judge seconds over its input
     * sets and timing) gets a smaller first round: the chooser's best few
     * land sooner, the rest follow */
    if (!tk->row.variants_tried && tk->captured_ms >= LONG_KERNEL_MS &&
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
    if (now_s() - s->tuning_started > s->o.budget_seconds) {
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
    if (pool_run(&s->o.pool, jobs->pjobs.items, jobs->pjobs.len, pool_progress, NULL, &s->err) != 0) {
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
static int tune_round(tune_session *s, int round)
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

/* ---- after the rounds: learn, report --------------------------------------------- */

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
}

static void learn_all(tune_session *s)
{
    int learning = s->o.learn && s->loop.ran_on_gpu;
    for (size_t i = 0; i < s->targets.len && learning; i++)
        learn(s->chooser, &s->targets.items[i]);
    if (learning && s->chooser && pol_chooser_save(s->chooser, s->chooser_path, &s->err) != 0) {
        log_warn("tune: saving the chooser: %s", sb_str(&s->err));
        sb_clear(&s->err);
    }
}

/* 4. the table and --json; the exit code */
static int report(tune_session *s)
{
    tune_run run;
    memset(&run, 0, sizeof run);
    run.cl1cc_version = CL1CC_VERSION;
    run.arch = s->loop.arch;
    run.gpu_name = s->loop.gpu_name;
    run.ran_on_gpu = s->loop.recording;
    run.budget_seconds = s->o.budget_seconds;
    run.budget_evaluations = s->o.kernel_evals;
    run.wall_seconds = now_s() - s->loop.started;
    for (size_t i = 0; i < s->targets.len; i++) {
        tune_target *tk = &s->targets.items[i];
        finish_row(tk);
        vec_push(&run.kernels, tk->row);
        /* the run owns the progress from here */
        memset(&tk->row.progress_t, 0, sizeof tk->row.progress_t);
        memset(&tk->row.progress_best, 0, sizeof tk->row.progress_best);
    }
    tune_report_print(&run, stdout);
    int rc = 0;
    if (s->o.json && report_write_tune(&run, s->o.json, &s->err) != 0) {
        log_error("tune: %s", sb_str(&s->err));
        rc = 1;
    }
    tune_run_free(&run);
    return rc;
}

static void session_free(tune_session *s)
{
    for (size_t i = 0; i < s->targets.len; i++) {
        tune_target *tk = &s->targets.items[i];
        vec_free(&tk->history);
        vec_free(&tk->row.progress_t);
        vec_free(&tk->row.progress_best);
    }
    vec_free(&s->targets);
    for (size_t i = 0; i < s->models.len; i++) {
        model_free(s->models.items[i]);
        free(s->models.items[i]);
    }
    vec_free(&s->models);
    pol_chooser_free(s->chooser);
    tunedb_close(s->loop.db);
    nvcc_cmdline_free(&s->cl);
    sb_free(&s->err);
    tune_options_free(&s->o);
    arena_free(&s->a);
}

/* capture -> what to tune -> rounds of propose -> judge -> record ->
 * learn -> report; the exit code */
static int tune(tune_session *s)
{
    if (find_places(s) != 0 || capture(s) != 0 || find_targets(s) != 0)
        return 1;
    detect_gpu(s);
    load_chooser(s);
    if (make_work_dir(s) != 0)
        return 1;
    s->loop.ran_on_gpu = 1; /* until a judgement says otherwise */
    /* the budget is for tuning: the capture (the user's whole program, its
     * CPU reference included) does not count against it */
    s->tuning_started = now_s();
    int more;
    for (int round = 1; (more = tune_round(s, round)) > 0; round++)
        ;
    if (more < 0)
        return 1;
    learn_all(s);
    return report(s);
}

int cmd_tune(int argc, char **argv)
{
    tune_session s;
    memset(&s, 0, sizeof s);
    int parsed = tune_parse_options(argc, argv, &s.o);
    if (parsed != 0 || s.o.help || s.o.retrain) {
        int rc = parsed != 0 ? 2 : s.o.help ? 0 : tune_retrain(&s.o);
        if (parsed != 0 || s.o.help)
            usage();
        tune_options_free(&s.o);
        return rc;
    }
    arena_init(&s.a);
    sb_init(&s.err);
    s.loop.judge = &s.o.judge;
    s.loop.started = now_s();
    if (nvcc_cmdline_parse((int)s.o.n_nvcc_flags, s.o.nvcc_flags, &s.cl, &s.err) != 0) {
        log_error("tune: %s", sb_str(&s.err));
        sb_free(&s.err);
        tune_options_free(&s.o);
        arena_free(&s.a);
        return 2;
    }
    s.loop.cl = &s.cl;
    s.loop.nvcc_flags = (const char *const *)s.o.nvcc_flags;
    s.loop.n_nvcc_flags = s.o.n_nvcc_flags;
    int rc = tune(&s);
    session_free(&s);
    return rc;
}
