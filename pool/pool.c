/*
 * pool.c: pool_run's common part: options, checks, the stop signals
 * (SIGINT, SIGTERM, SIGHUP caught into a flag while the backend runs, raised
 * again afterwards), the results bookkeeping both backends use, and the GPU
 * list of the local pool.
 */
#include "pool_int.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "proc.h"

void pool_options_init(pool_options *o)
{
    memset(o, 0, sizeof *o);
    o->backend = POOL_LOCAL;
    o->max_attempts = 3;
    o->retry_timeouts = 1;
    o->kill_grace_s = 2.0;
    o->slurm_gres = "gpu:1";
    o->slurm_job_prefix = "cl1cc";
    o->poll_s = 5.0;
    o->slurm_stuck_s = 300.0;
    o->slurm_cmd_timeout_s = 60.0;
}

int pool_job_ok(const pool_job *job)
{
    return strcmp(job->status, "done") == 0;
}

/* ---- stop signals --------------------------------------------------------- */

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof *stop_signals)
static volatile sig_atomic_t caught_stop;

static void on_stop_signal(int sig)
{
    caught_stop = sig;
}

int pool_stop_signal(void)
{
    return (int)caught_stop;
}

typedef struct stop_state {
    struct sigaction old[N_STOP_SIGNALS];
    int changed[N_STOP_SIGNALS];
    sigset_t caller_mask;
} stop_state;

static void stop_install(stop_state *st, pool_ctx *c)
{
    caught_stop = 0;
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < N_STOP_SIGNALS; i++) {
        st->changed[i] = 0;
        if (sigaction(stop_signals[i], NULL, &st->old[i]) != 0
            || st->old[i].sa_handler == SIG_IGN)
            continue; /* nohup keeps ignoring them */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigfillset(&sa.sa_mask);
        sa.sa_handler = on_stop_signal;
        if (sigaction(stop_signals[i], &sa, NULL) == 0)
            st->changed[i] = 1;
        else
            log_warn("sigaction %d: %s", stop_signals[i], strerror(errno));
        sigaddset(&block, stop_signals[i]);
    }
    /* blocked outside the waits, so that none arrives between a check of
     * the flag and the wait */
    if (sigprocmask(SIG_BLOCK, &block, &st->caller_mask) != 0)
        log_warn("sigprocmask: %s", strerror(errno));
    c->wait_mask = st->caller_mask;
    if (sigprocmask(SIG_SETMASK, NULL, &c->run_mask) != 0)
        c->run_mask = st->caller_mask;
}

static void stop_restore(stop_state *st)
{
    for (size_t i = 0; i < N_STOP_SIGNALS; i++)
        if (st->changed[i] && sigaction(stop_signals[i], &st->old[i], NULL) != 0)
            log_warn("sigaction %d: %s", stop_signals[i], strerror(errno));
    if (sigprocmask(SIG_SETMASK, &st->caller_mask, NULL) != 0)
        log_warn("sigprocmask: %s", strerror(errno));
}

int pool_past_deadline(const pool_ctx *c, double now)
{
    return c->deadline > 0 && now >= c->deadline;
}

const char *pool_stop_reason(const pool_ctx *c, arena *a)
{
    int sig = pool_stop_signal();
    if (sig)
        return arena_printf(a, "cl1cc was interrupted (SIG%s)", sigabbrev_np(sig));
    return arena_printf(a, "the pool's deadline of %g s passed", c->o->deadline_s);
}

/* ---- results ---------------------------------------------------------------- */

double pool_job_timeout(const pool_ctx *c, const pool_job *j)
{
    return j->timeout_s > 0 ? j->timeout_s : c->o->default_timeout_s;
}

const char *pool_job_label(pool_ctx *c, size_t i)
{
    const pool_job *j = &c->jobs[i];
    if (j->label && *j->label)
        return j->label;
    return arena_printf(&c->a, "job-%zu", i);
}

void pool_detail_add(pool_job *j, const char *fmt, ...)
{
    size_t len = strlen(j->detail);
    size_t room = sizeof j->detail - len;
    if (room <= 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(j->detail + len, room, fmt, ap);
    va_end(ap);
    if (w >= 0 && (size_t)w >= room)
        memcpy(j->detail + sizeof j->detail - 4, "...", 4);
}

void pool_emit(pool_ctx *c, pool_event ev, size_t i)
{
    if (c->cb)
        c->cb(c->cb_data, ev, i, &c->jobs[i]);
}

void pool_retry(pool_ctx *c, size_t i, const char *why)
{
    pool_job *j = &c->jobs[i];
    pool_detail_add(j, "%sattempt %d: %s (%s)", j->detail[0] ? "; " : "", j->attempts, why,
                    j->where);
    pool_emit(c, POOL_EV_RETRY, i);
}

void pool_finish(pool_ctx *c, size_t i, const char *status, int exit_code, const char *why)
{
    pool_job *j = &c->jobs[i];
    snprintf(j->status, sizeof j->status, "%s", status);
    j->exit_code = exit_code;
    if (j->attempts > 1)
        pool_detail_add(j, "%sattempt %d: %s", j->detail[0] ? "; " : "", j->attempts, why);
    else
        pool_detail_add(j, "%s%s", j->detail[0] ? "; " : "", why);
    pool_emit(c, POOL_EV_FINISHED, i);
}

const char *const *pool_job_argv(pool_ctx *c, const pool_job *j)
{
    const char **argv = arena_alloc(&c->a, (j->argc + 1) * sizeof *argv);
    for (size_t k = 0; k < j->argc; k++)
        argv[k] = j->argv[k];
    argv[j->argc] = NULL;
    return argv;
}

const char *pool_signal_text(arena *a, int sig)
{
    const char *name = sigabbrev_np(sig);
    return name ? arena_printf(a, "killed by signal %d (SIG%s)", sig, name)
                : arena_printf(a, "killed by signal %d", sig);
}

/* ---- the local pool's GPUs -------------------------------------------------- */

/* comma-separated words, trimmed, empty ones dropped */
static void split_list(const char *list, arena *a, cstr_vec *out)
{
    const char *p = list;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\n')
            p++;
        const char *start = p;
        while (*p && *p != ',' && *p != '\n')
            p++;
        const char *end = p;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
            end--;
        if (end > start)
            vec_push(out, arena_strndup(a, start, (size_t)(end - start)));
    }
}

void pool_local_gpus(const pool_options *o, arena *a, cstr_vec *out, const char **source)
{
    if (o->gpus) {
        split_list(o->gpus, a, out);
        *source = "options";
        return;
    }
    const char *env = getenv("CUDA_VISIBLE_DEVICES");
    if (env) {
        split_list(env, a, out);
        *source = "CUDA_VISIBLE_DEVICES";
        return;
    }
    *source = "none";
    const char *argv[] = {"nvidia-smi", "--query-gpu=index", "--format=csv,noheader", NULL};
    proc_options po;
    memset(&po, 0, sizeof po);
    po.capture_stdout = 1;
    po.capture_stderr = 1;
    po.stdin_path = "/dev/null";
    po.new_process_group = 1;
    po.limits.wall_seconds = 30;
    proc_result r;
    if (proc_run(argv, &po, &r) == 0 && r.exited && r.exit_code == 0) {
        split_list(sb_str(&r.out), a, out);
        if (out->len)
            *source = "nvidia-smi";
    } else if (!r.spawn_failed) {
        log_verbose("nvidia-smi: status %d: %s", proc_shell_status(&r), sb_str(&r.err));
    }
    proc_result_free(&r);
}

/* ---- pool_run --------------------------------------------------------------- */

static int check_jobs(const pool_options *o, const pool_job *jobs, size_t n, strbuf *err)
{
    if (o->backend != POOL_LOCAL && o->backend != POOL_SLURM) {
        sb_printf(err, "pool: unknown backend %d", (int)o->backend);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!jobs[i].argv || jobs[i].argc == 0 || !jobs[i].argv[0]) {
            sb_printf(err, "pool: job %zu has no command", i);
            return -1;
        }
        for (size_t k = 0; k < jobs[i].argc; k++)
            if (!jobs[i].argv[k]) {
                sb_printf(err, "pool: job %zu: argument %zu is NULL", i, k);
                return -1;
            }
    }
    return 0;
}

int pool_run(const pool_options *o, pool_job *jobs, size_t n, pool_progress_fn cb,
             void *cb_data, strbuf *err)
{
    for (size_t i = 0; i < n; i++) {
        pool_job *j = &jobs[i];
        snprintf(j->status, sizeof j->status, "not_run");
        j->exit_code = -1;
        j->attempts = 0;
        j->wall_s = 0;
        j->where[0] = j->backend_id[0] = j->detail[0] = '\0';
    }
    if (check_jobs(o, jobs, n, err) != 0)
        return -1;
    if (n == 0)
        return 0;

    pool_ctx c;
    memset(&c, 0, sizeof c);
    c.o = o;
    c.jobs = jobs;
    c.n = n;
    c.cb = cb;
    c.cb_data = cb_data;
    c.max_attempts = o->max_attempts > 0 ? o->max_attempts : 1;
    c.grace_s = o->kill_grace_s > 0 ? o->kill_grace_s : 2.0;
    c.deadline = o->deadline_s > 0 ? proc_now_seconds() + o->deadline_s : 0;
    arena_init(&c.a);

    stop_state st;
    stop_install(&st, &c);
    int rc = o->backend == POOL_SLURM ? pool_slurm_run(&c, err) : pool_local_run(&c, err);
    int sig = pool_stop_signal();
    if (sig) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(jobs[i].status, "not_run") == 0 && !jobs[i].detail[0])
                snprintf(jobs[i].detail, sizeof jobs[i].detail, "%s",
                         pool_stop_reason(&c, &c.a));
        sb_printf(err, "pool: %s", pool_stop_reason(&c, &c.a));
        rc = -1;
    }
    arena_free(&c.a);
    stop_restore(&st);
    if (sig)
        raise(sig); /* the caller's disposition decides; usually no return */
    return rc;
}
