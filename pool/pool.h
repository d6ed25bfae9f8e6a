/*
 * pool.h: runs many independent jobs (child commands, such as `cl1cc judge`
 * evaluations) across the GPUs of this host or on a Slurm cluster, and
 * reports how each ended.  The pool never changes a job's arguments: a job's
 * results are in the files its command writes, and the caller reads them.
 * docs/POOL.md describes the scheduling rules and failure handling.
 */
#ifndef CL1CC_POOL_H
#define CL1CC_POOL_H

#include "core.h"

typedef enum pool_backend {
    POOL_LOCAL, /* children of this process, one GPU job per GPU at a time */
    POOL_SLURM, /* one Slurm batch job per attempt, through sbatch */
} pool_backend;

typedef struct pool_options {
    pool_backend backend;
    int max_attempts;         /* attempts per job, at least 1 (init: 3) */
    int retry_timeouts;       /* a job that ran past its limit is retried too (init: 1) */
    double default_timeout_s; /* for jobs with timeout_s 0; 0: none */
    double deadline_s;        /* the whole run; 0: none.  At the deadline
                                 unfinished jobs are stopped ("cancelled")
                                 and the unstarted ones reported "not_run" */
    double kill_grace_s;      /* SIGTERM, then SIGKILL this much later (init: 2) */

    /* local */
    const char *gpus;   /* CUDA_VISIBLE_DEVICES entries, comma-separated,
                           used as given; "" no GPU; NULL: from the
                           environment, else nvidia-smi */
    int cpu_jobs;       /* needs_gpu=0 jobs at once; 0: online CPUs */
    const char *keep_gpus_exe; /* while GPU jobs run, `EXE --cl1-keep-gpu` on each
                                  GPU holds a CUDA context open (a job's CUDA
                                  start then takes about half as long,
                                  gpu_keep.c); NULL: none */

    /* slurm */
    const char *slurm_partition;          /* NULL: the cluster's default */
    const char *slurm_gres;               /* for needs_gpu jobs (init: "gpu:1"; "" none) */
    int slurm_cpus_per_task;              /* 0: Slurm's default */
    const char *const *slurm_sbatch_args; /* NULL-terminated, passed to every sbatch; or NULL */
    const char *slurm_bin_dir;            /* where sbatch... live; NULL: $CL1CC_SLURM_BIN_DIR, else PATH */
    const char *slurm_job_prefix;         /* job names PREFIX-LABEL (init: "cl1cc") */
    double poll_s;                        /* between squeue polls (init: 5) */
    double slurm_stuck_s;                 /* a job pending this long while its partition has
                                             no usable node is cancelled, "node_fail" (init: 300) */
    double slurm_cmd_timeout_s;           /* limit for one sbatch/squeue/... call (init: 60) */
    int slurm_max_queued;                 /* jobs in the queue at once; 0: no cap */
} pool_options;

/* The body of `cl1cc --cl1-keep-gpu` (gpu_keep.c): holds a CUDA context
 * on the first visible GPU until killed or its parent ends; 0 (at once
 * when there is no CUDA driver or device). */
int pool_gpu_keep_main(void);

/* Fills the defaults noted above; every other field is 0 or NULL. */
void pool_options_init(pool_options *o);

typedef struct pool_job {
    /* what to run, set by the caller */
    const char *const *argv; /* argc words; argv[0] a path or a name looked up in PATH */
    size_t argc;
    const char *label;       /* for tables and Slurm job names; NULL: "job-INDEX" */
    int needs_gpu;           /* needs a GPU of its own for its whole run */
    double timeout_s;        /* wall clock per attempt; 0: o->default_timeout_s */
    const char *cwd;         /* NULL: the caller's */
    const char *stdout_path; /* NULL: /dev/null; relative to the caller's cwd; */
    const char *stderr_path; /* created or truncated at every attempt */

    /* results, set by pool_run */
    char status[16];      /* "done", "failed", "timeout", "cancelled", "node_fail", "not_run" */
    int exit_code;        /* the last attempt's: its exit code, 128+signal when killed,
                             124 timeout, 127 could not start, -1 never ran */
    int attempts;         /* attempts started (Slurm: sbatch calls) */
    double wall_s;        /* the last attempt's run time */
    char where[64];       /* where the last attempt ran: "gpu 1", "cpu", "host", "node n1" */
    char backend_id[32];  /* the last attempt's pid, or Slurm job id */
    char detail[256];     /* one line: why it ended so, and earlier attempts */
} pool_job;

typedef enum pool_event {
    POOL_EV_SUBMITTED, /* Slurm: an attempt is in the queue (backend_id set) */
    POOL_EV_STARTED,   /* an attempt runs (where, backend_id set) */
    POOL_EV_RETRY,     /* an attempt ended and the job will run again (detail says why) */
    POOL_EV_FINISHED,  /* the job's final status is set */
} pool_event;

/* Called from pool_run's own thread between its waits; it may look at the
 * job, not change it, and should return quickly. */
typedef void (*pool_progress_fn)(void *cb_data, pool_event ev, size_t index, const pool_job *job);

/* Runs every job to a final status.  Returns 0 when the pool ran (whatever
 * the jobs' statuses), -1 with err set when it could not (bad options, no
 * sbatch) or was interrupted: then unfinished jobs are "cancelled" or
 * "not_run".  SIGINT, SIGTERM and SIGHUP while it runs stop every job
 * (local: their process groups; Slurm: scancel), after which the signal is
 * raised again so that the caller's disposition applies.  Call from one
 * thread at a time. */
int pool_run(const pool_options *o, pool_job *jobs, size_t n, pool_progress_fn cb,
             void *cb_data, strbuf *err);

/* The GPUs the local pool uses: o->gpus, else $CUDA_VISIBLE_DEVICES, else
 * nvidia-smi's indices; words appended to out (in a), *source says which
 * ("options", "CUDA_VISIBLE_DEVICES", "nvidia-smi", "none"). */
void pool_local_gpus(const pool_options *o, arena *a, cstr_vec *out, const char **source);

/* 1 when the job's status is "done" (its command exited 0). */
int pool_job_ok(const pool_job *job);

#endif
