/*
 * proc.h: running a child program with a time limit, resource limits and
 * captured output; the one place cl1cc forks (nvcc, judged variants, tools).
 */
#ifndef CL1CC_PROC_H
#define CL1CC_PROC_H

#include <signal.h>

#include "core.h"

typedef struct proc_limits {
    double wall_seconds;       /* 0: none. At the limit SIGTERM the child's process group (or the child), SIGKILL after grace_seconds (default 1) */
    double grace_seconds;
    long cpu_seconds;          /* RLIMIT_CPU; 0 none */
    long long file_size_bytes; /* RLIMIT_FSIZE; 0 none */
    long open_files;           /* RLIMIT_NOFILE; 0 none */
    int no_core;               /* RLIMIT_CORE=0 */
    /* never RLIMIT_AS: the CUDA driver reserves huge address space */
} proc_limits;

typedef struct proc_options {
    const char *cwd;                 /* NULL inherit */
    const char *const *env_set;      /* NULL-terminated "NAME=VALUE" added or overriding, or NULL */
    const char *const *env_unset;    /* NULL-terminated names removed (API keys), or NULL */
    int capture_stdout, capture_stderr; /* 0 inherit, 1 capture */
    size_t capture_cap;              /* per stream; 0 means 16 MiB; beyond it read and drop, set *_truncated */
    const char *stdin_path;          /* NULL inherit, e.g. "/dev/null" */
    const char *stdout_path;         /* a stream not captured goes to this file (created 0644 or */
    const char *stderr_path;         /* truncated, opened before cwd applies); NULL inherit */
    int new_process_group;           /* setpgid(0,0) in child; signal the whole group at timeout, SIGKILL what is left when the child ends */
    proc_limits limits;
} proc_options;

typedef struct proc_result {
    int exited; int exit_code; int signaled; int signal; int timed_out;
    int spawn_failed; int spawn_errno;
    double wall_seconds;
    strbuf out, err; int out_truncated, err_truncated;
} proc_result;

/* argv: NULL-terminated; argv[0] a path, or a name looked up in cl1cc's own
 * PATH (not one set through env_set).  opt may be NULL (all defaults).
 * Returns 0 if the child ran (whatever its status), -1 if it could not start
 * (spawn_failed and spawn_errno set; EINVAL for an env_set entry without a
 * name).  res is always initialised, so proc_result_free is always safe.
 *
 * Signals while it waits: for a child in the caller's process group,
 * SIGINT/SIGQUIT are ignored, as by system(3) (the terminal sent them to the
 * child too).  SIGTERM/SIGHUP, and SIGINT/SIGQUIT for a child in its own
 * group, are passed on to the child (its group), which is then stopped as at
 * a timeout and reaped; the signal is raised again in the caller afterwards,
 * whose disposition decides (tempfiles' handler, the default death).  Call
 * from one thread at a time: it changes signal dispositions while it waits. */
int proc_run(const char *const argv[], const proc_options *opt, proc_result *res);
/* The status a shell would report: the exit code, 128+signal, 127 when the
 * program could not be started, 124 on timeout. */
int proc_shell_status(const proc_result *res);
void proc_result_free(proc_result *res);

/* ---- children that run while the caller does other work -----------------
 * proc_spawn starts argv as proc_run does (same options: environment, cwd,
 * files, resource limits, process group) and returns at once; no capture
 * (capture_* must be 0) and no wall clock (limits.wall_seconds is ignored:
 * the caller keeps time and calls proc_child_signal).  The caller reaps
 * every child it started with proc_child_poll, and handles signals itself
 * (the dispositions are not changed). */
typedef struct proc_child {
    long pid;    /* > 0 from a successful spawn until reaped */
    int group;   /* the child leads its own process group */
    int pidfd;   /* readable once the child exited; -1 where unavailable */
    double start; /* monotonic seconds, as proc_now_seconds */
} proc_child;

/* 0 once the program runs (exec done); -1 when it could not start, with
 * *spawn_errno set and nothing left to reap (EINVAL for capture requested
 * or a malformed env_set entry). */
int proc_spawn(const char *const argv[], const proc_options *opt, proc_child *child,
               int *spawn_errno);
/* Without blocking: 1 when the child has ended, with res filled (exited,
 * exit_code, signaled, signal, wall_seconds; the group's leftovers are
 * SIGKILLed first) and the child reaped (pid 0); 0 while it runs; -1 on a
 * wait error (res says spawn_failed, the child is forgotten). */
int proc_child_poll(proc_child *child, proc_result *res);
/* Signals the child's process group (or the child alone). */
void proc_child_signal(const proc_child *child, int sig);
/* Sleeps until one of the children may have ended, a signal not blocked in
 * wait_mask arrives (NULL: the current mask), or timeout_s passes (< 0: no
 * limit).  Children with pid 0 (or NULL entries) are skipped.  Returns 0, or
 * -1 with errno EINTR when a signal interrupted it. */
int proc_wait_children(proc_child *const *children, size_t n, double timeout_s,
                       const sigset_t *wait_mask);
/* CLOCK_MONOTONIC in seconds */
double proc_now_seconds(void);

#endif
