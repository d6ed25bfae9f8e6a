/*
 * pool_int.h: what pool.c shares with its two backends (local.c, slurm.c):
 * the run's context, result bookkeeping and the signal flag.  Not public.
 */
#ifndef CL1CC_POOL_INT_H
#define CL1CC_POOL_INT_H

#include <signal.h>

#include "pool.h"
#include "proc.h"

typedef struct pool_ctx {
    const pool_options *o;
    pool_job *jobs;
    size_t n;
    pool_progress_fn cb;
    void *cb_data;
    int max_attempts;
    double grace_s;
    double deadline; /* monotonic seconds; 0: none */
    sigset_t wait_mask; /* the caller's mask: waits let the stop signals in */
    sigset_t run_mask;  /* the mask outside waits: the stop signals blocked */
    arena a;            /* freed when pool_run returns */
} pool_ctx;

int pool_local_run(pool_ctx *c, strbuf *err);

/* gpu_keep.c: a child per distinct GPU of gpus[] holding a CUDA context
 * open (`exe --cl1-keep-gpu`) from start to stop; nothing when exe is NULL */
typedef struct pool_gpu_keepers {
    proc_child *children;
    size_t n;
} pool_gpu_keepers;
void pool_gpu_keepers_start(const char *exe, const char *const *gpus, size_t n,
                            pool_gpu_keepers *k, arena *a);
void pool_gpu_keepers_stop(pool_gpu_keepers *k);
int pool_slurm_run(pool_ctx *c, strbuf *err);

/* the stop signal caught while running (SIGINT...), or 0 */
int pool_stop_signal(void);
/* 1 when the deadline has passed */
int pool_past_deadline(const pool_ctx *c, double now);
/* why the pool stops, for details: "interrupted by SIGINT", "pool deadline" */
const char *pool_stop_reason(const pool_ctx *c, arena *a);
/* the job's limit per attempt; 0 none */
double pool_job_timeout(const pool_ctx *c, const pool_job *j);
/* the job's label, or "job-INDEX" */
const char *pool_job_label(pool_ctx *c, size_t i);
/* appends to the job's detail (truncating with "...") */
void pool_detail_add(pool_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* an attempt ended and the job runs again: notes why, tells the callback */
void pool_retry(pool_ctx *c, size_t i, const char *why);
/* the final status: sets status and exit code, adds why to the detail
 * ("attempt N: why" after earlier attempts), tells the callback */
void pool_finish(pool_ctx *c, size_t i, const char *status, int exit_code, const char *why);
void pool_emit(pool_ctx *c, pool_event ev, size_t i);
/* a NULL-terminated copy of the job's argv */
const char *const *pool_job_argv(pool_ctx *c, const pool_job *j);
/* "killed by signal 9 (Killed)" */
const char *pool_signal_text(arena *a, int sig);

#endif
