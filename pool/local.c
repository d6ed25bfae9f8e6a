/*
 * local.c: the local pool.  One slot per visible GPU; a GPU job runs alone on
 * its GPU (CUDA_VISIBLE_DEVICES set to exactly that one), so that it times an
 * otherwise idle device; jobs that need no GPU run beside them up to a CPU
 * limit, with no GPU visible.  Each child leads its own process group, which
 * is killed at its timeout; attempts that could not start or died of a signal
 * are retried on another GPU.
 */
#include "pool_int.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

enum { WAITING, RUNNING, FINISHED };

typedef struct local_job {
    int state;
    int slot;             /* its GPU slot while it runs; -1 for a CPU job */
    proc_child child;
    double term_at;       /* its timeout, monotonic; 0 none */
    double kill_at;       /* SIGKILL due; 0 none */
    int timed_out;        /* SIGTERM sent at the timeout */
    unsigned char *avoid; /* per slot: an attempt there failed */
} local_job;

typedef struct local_pool {
    pool_ctx *c;
    local_job *lj;
    const char **slot_gpu; /* CUDA_VISIBLE_DEVICES value per slot; NULL: set none */
    int *slot_job;         /* the job on each slot, -1 free */
    size_t n_slots;
    int have_gpus;
    size_t cpu_limit, cpu_running;
    size_t waiting, running;
} local_pool;

static int slot_allowed(const local_pool *lp, const local_job *j, size_t slot)
{
    if (!j->avoid[slot])
        return 1;
    for (size_t s = 0; s < lp->n_slots; s++)
        if (!j->avoid[s])
            return 0; /* another GPU is still untried: wait for that one */
    return 1;
}

static void attempt_ended(local_pool *lp, size_t i, const proc_result *r, int spawn_errno);

static void start_job(local_pool *lp, size_t i, int slot)
{
    pool_ctx *c = lp->c;
    pool_job *j = &c->jobs[i];
    local_job *l = &lp->lj[i];
    const char *env[2] = {NULL, NULL};
    if (slot >= 0) {
        const char *gpu = lp->slot_gpu[slot];
        if (gpu) {
            env[0] = arena_printf(&c->a, "CUDA_VISIBLE_DEVICES=%s", gpu);
            snprintf(j->where, sizeof j->where, "gpu %s", gpu);
        } else {
            snprintf(j->where, sizeof j->where, "host");
        }
    } else {
        /* no GPU in sight of a CPU job, so it cannot disturb a timing */
        if (lp->have_gpus)
            env[0] = "CUDA_VISIBLE_DEVICES=";
        snprintf(j->where, sizeof j->where, "cpu");
    }
    proc_options po;
    memset(&po, 0, sizeof po);
    po.cwd = j->cwd;
    po.env_set = env[0] ? env : NULL;
    po.stdin_path = "/dev/null";
    po.stdout_path = j->stdout_path ? j->stdout_path : "/dev/null";
    po.stderr_path = j->stderr_path ? j->stderr_path : "/dev/null";
    po.new_process_group = 1;

    j->attempts++;
    l->slot = slot;
    l->timed_out = 0;
    l->kill_at = 0;
    int spawn_errno = 0;
    if (l->state == WAITING)
        lp->waiting--;
    if (proc_spawn(pool_job_argv(c, j), &po, &l->child, &spawn_errno) != 0) {
        j->backend_id[0] = '\0';
        l->state = RUNNING; /* attempt_ended's bookkeeping expects it */
        lp->running++;
        if (slot >= 0)
            lp->slot_job[slot] = (int)i;
        else
            lp->cpu_running++;
        attempt_ended(lp, i, NULL, spawn_errno);
        return;
    }
    double timeout = pool_job_timeout(c, j);
    l->term_at = timeout > 0 ? l->child.start + timeout : 0;
    l->state = RUNNING;
    lp->running++;
    if (slot >= 0)
        lp->slot_job[slot] = (int)i;
    else
        lp->cpu_running++;
    snprintf(j->backend_id, sizeof j->backend_id, "%ld", l->child.pid);
    log_verbose("pool: %s started on %s (pid %ld)", pool_job_label(c, i), j->where,
                l->child.pid);
    pool_emit(c, POOL_EV_STARTED, i);
}

/* Frees the attempt's slot, then retries or finishes the job.  r is NULL
 * when the attempt could not start (spawn_errno says why). */
static void attempt_ended(local_pool *lp, size_t i, const proc_result *r, int spawn_errno)
{
    pool_ctx *c = lp->c;
    pool_job *j = &c->jobs[i];
    local_job *l = &lp->lj[i];
    lp->running--;
    if (l->slot >= 0)
        lp->slot_job[l->slot] = -1;
    else
        lp->cpu_running--;
    j->wall_s = r ? r->wall_seconds : 0;

    const char *status, *why;
    int code, retryable;
    if (!r) {
        status = "failed", code = 127, retryable = 1;
        why = arena_printf(&c->a, "could not start %s: %s", j->argv[0], strerror(spawn_errno));
    } else if (l->timed_out) {
        status = "timeout", code = 124, retryable = c->o->retry_timeouts;
        why = arena_printf(&c->a, "ran past its %g s limit, process group killed",
                           pool_job_timeout(c, j));
    } else if (r->signaled) {
        status = "failed", code = 128 + r->signal, retryable = 1;
        why = pool_signal_text(&c->a, r->signal);
    } else if (r->exited && r->exit_code == 0) {
        status = "done", code = 0, retryable = 0;
        why = "exit 0";
    } else {
        status = "failed", code = r->exited ? r->exit_code : 127, retryable = 0;
        why = arena_printf(&c->a, "exit %d", code);
    }
    if (retryable && j->attempts < c->max_attempts) {
        if (l->slot >= 0)
            l->avoid[l->slot] = 1;
        l->state = WAITING;
        lp->waiting++;
        log_verbose("pool: %s: %s on %s; retrying", pool_job_label(c, i), why, j->where);
        pool_retry(c, i, why);
        return;
    }
    l->state = FINISHED;
    pool_finish(c, i, status, code, why);
}

/* Starts what the free slots allow, in job order. */
static void schedule(local_pool *lp)
{
    pool_ctx *c = lp->c;
    for (size_t s = 0; s < lp->n_slots && lp->waiting; s++) {
        while (lp->slot_job[s] < 0 && lp->waiting) {
            size_t pick = c->n;
            for (size_t i = 0; i < c->n && pick == c->n; i++)
                if (lp->lj[i].state == WAITING && c->jobs[i].needs_gpu
                    && slot_allowed(lp, &lp->lj[i], s))
                    pick = i;
            if (pick == c->n)
                break;
            start_job(lp, pick, (int)s); /* a failed start frees the slot again */
        }
    }
    while (lp->cpu_running < lp->cpu_limit && lp->waiting) {
        size_t pick = c->n;
        for (size_t i = 0; i < c->n && pick == c->n; i++)
            if (lp->lj[i].state == WAITING && !c->jobs[i].needs_gpu)
                pick = i;
        if (pick == c->n)
            break;
        start_job(lp, pick, -1);
    }
}

static void reap_ended(local_pool *lp)
{
    for (size_t i = 0; i < lp->c->n; i++) {
        local_job *l = &lp->lj[i];
        if (l->state != RUNNING)
            continue;
        proc_result r;
        int got = proc_child_poll(&l->child, &r);
        if (got == 1)
            attempt_ended(lp, i, &r, 0);
        else if (got < 0)
            attempt_ended(lp, i, NULL, r.spawn_errno);
        proc_result_free(&r);
    }
}

/* Timeouts and SIGKILLs due; returns the next moment one is due (0 none). */
static double enforce_limits(local_pool *lp, double now)
{
    double next = 0;
    for (size_t i = 0; i < lp->c->n; i++) {
        local_job *l = &lp->lj[i];
        if (l->state != RUNNING)
            continue;
        if (l->term_at > 0 && !l->timed_out && now >= l->term_at) {
            l->timed_out = 1;
            proc_child_signal(&l->child, SIGTERM);
            l->kill_at = now + lp->c->grace_s;
        }
        if (l->kill_at > 0 && now >= l->kill_at) {
            proc_child_signal(&l->child, SIGKILL);
            l->kill_at = 0;
        }
        double due = l->kill_at > 0 ? l->kill_at : (l->timed_out ? 0 : l->term_at);
        if (due > 0 && (next == 0 || due < next))
            next = due;
    }
    return next;
}

static void wait_a_while(local_pool *lp, proc_child **children, double until)
{
    size_t k = 0;
    for (size_t i = 0; i < lp->c->n; i++)
        if (lp->lj[i].state == RUNNING)
            children[k++] = &lp->lj[i].child;
    double timeout = -1;
    if (until > 0) {
        timeout = until - proc_now_seconds();
        if (timeout < 0)
            timeout = 0;
        timeout += 0.001;
    }
    if (k == 0 && timeout < 0)
        timeout = 0.05; /* nothing to wait for; cannot happen while jobs wait */
    proc_wait_children(children, k, timeout, &lp->c->wait_mask);
}

/* Interrupted or out of time: SIGTERM every group, SIGKILL after the grace,
 * reap them all; nothing runs when it returns. */
static void stop_everything(local_pool *lp, proc_child **children)
{
    pool_ctx *c = lp->c;
    const char *why = pool_stop_reason(c, &c->a);
    for (size_t i = 0; i < c->n; i++)
        if (lp->lj[i].state == RUNNING)
            proc_child_signal(&lp->lj[i].child, SIGTERM);
    double kill_at = proc_now_seconds() + c->grace_s;
    int killed = 0;
    while (lp->running) {
        for (size_t i = 0; i < c->n; i++) {
            local_job *l = &lp->lj[i];
            if (l->state != RUNNING)
                continue;
            proc_result r;
            int got = proc_child_poll(&l->child, &r);
            if (got != 0) {
                lp->running--;
                if (l->slot >= 0)
                    lp->slot_job[l->slot] = -1;
                else
                    lp->cpu_running--;
                l->state = FINISHED;
                c->jobs[i].wall_s = r.wall_seconds;
                pool_finish(c, i, "cancelled", got > 0 ? proc_shell_status(&r) : -1,
                            arena_printf(&c->a, "stopped: %s", why));
            }
            proc_result_free(&r);
        }
        if (!lp->running)
            break;
        double now = proc_now_seconds();
        if (!killed && now >= kill_at) {
            for (size_t i = 0; i < c->n; i++)
                if (lp->lj[i].state == RUNNING)
                    proc_child_signal(&lp->lj[i].child, SIGKILL);
            killed = 1;
        }
        wait_a_while(lp, children, killed ? now + 0.05 : kill_at);
    }
    for (size_t i = 0; i < c->n; i++) {
        if (lp->lj[i].state != WAITING)
            continue;
        lp->lj[i].state = FINISHED;
        if (c->jobs[i].attempts > 0)
            pool_finish(c, i, "cancelled", c->jobs[i].exit_code,
                        arena_printf(&c->a, "not retried: %s", why));
        else
            pool_finish(c, i, "not_run", -1, why);
    }
    lp->waiting = 0;
}

int pool_local_run(pool_ctx *c, strbuf *err)
{
    local_pool lp;
    memset(&lp, 0, sizeof lp);
    lp.c = c;
    cstr_vec gpus = {0};
    const char *source = "none";
    pool_local_gpus(c->o, &c->a, &gpus, &source);
    lp.have_gpus = gpus.len > 0;
    lp.n_slots = lp.have_gpus ? gpus.len : 1;
    lp.slot_gpu = arena_alloc(&c->a, lp.n_slots * sizeof *lp.slot_gpu);
    lp.slot_job = arena_alloc(&c->a, lp.n_slots * sizeof *lp.slot_job);
    for (size_t s = 0; s < lp.n_slots; s++) {
        lp.slot_gpu[s] = lp.have_gpus ? gpus.items[s] : NULL;
        lp.slot_job[s] = -1;
    }
    vec_free(&gpus);
    size_t need_gpu = 0;
    for (size_t i = 0; i < c->n; i++)
        need_gpu += c->jobs[i].needs_gpu != 0;
    static int said_no_gpu; /* once per process: the tune loop runs many pools */
    if (!lp.have_gpus && need_gpu && !said_no_gpu) {
        said_no_gpu = 1;
        log_warn("pool: no GPU found (%s): running GPU jobs one at a time, no device set",
                 strcmp(source, "none") == 0 ? "CUDA_VISIBLE_DEVICES unset, no nvidia-smi GPUs"
                                             : "the GPU list is empty");
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    lp.cpu_limit = c->o->cpu_jobs > 0 ? (size_t)c->o->cpu_jobs : (cpus > 0 ? (size_t)cpus : 1);

    lp.lj = xcalloc(c->n, sizeof *lp.lj);
    unsigned char *avoid = xcalloc(c->n, lp.n_slots);
    proc_child **children = xcalloc(c->n, sizeof *children);
    for (size_t i = 0; i < c->n; i++) {
        lp.lj[i].state = WAITING;
        lp.lj[i].child.pidfd = -1;
        lp.lj[i].avoid = avoid + i * lp.n_slots;
    }
    lp.waiting = c->n;
    log_verbose("pool: %zu jobs, %zu GPU slots (%s), %zu CPU jobs at once", c->n, lp.n_slots,
                source, lp.cpu_limit);
    pool_gpu_keepers keepers;
    pool_gpu_keepers_start(lp.have_gpus && need_gpu ? c->o->keep_gpus_exe : NULL, lp.slot_gpu,
                           lp.n_slots, &keepers, &c->a);

    for (;;) {
        if (pool_stop_signal() || pool_past_deadline(c, proc_now_seconds())) {
            stop_everything(&lp, children);
            break;
        }
        schedule(&lp);
        if (!lp.running && !lp.waiting)
            break;
        double due = enforce_limits(&lp, proc_now_seconds());
        if (c->deadline > 0 && (due == 0 || c->deadline < due))
            due = c->deadline;
        wait_a_while(&lp, children, due);
        reap_ended(&lp);
        enforce_limits(&lp, proc_now_seconds());
    }
    pool_gpu_keepers_stop(&keepers);
    free(children);
    free(avoid);
    free(lp.lj);

    return 0;
}
