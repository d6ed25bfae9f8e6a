/*
 * proc.h: running a child program with a time limit, resource limits and
 * captured output; the one place cl1cc forks (nvcc, judged variants, tools).
 */
#ifndef CL1CC_PROC_H
#define CL1CC_PROC_H

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
    const char *const *env_set;      /* NULL-terminated "NAME=VALUE" list, or NULL */
    const char *const *env_unset;    /* NULL-terminated names, or NULL */
    int capture_stdout, capture_stderr; /* 0 inherit, 1 capture */
    size_t capture_cap;              /* per stream; 0 means 16 MiB; beyond it read and drop, set *_truncated */
    const char *stdin_path;          /* NULL inherit, e.g. "/dev/null" */
    int new_process_group;           /* setpgid(0,0) in child; kill the whole group at timeout and at the end */
    proc_limits limits;
} proc_options;

typedef struct proc_result {
    int exited; int exit_code; int signaled; int signal; int timed_out;
    int spawn_failed; int spawn_errno;
    double wall_seconds;
    strbuf out, err; int out_truncated, err_truncated;
} proc_result;

/* argv: NULL-terminated; argv[0] a path or a name looked up in PATH.
 * opt may be NULL (all defaults).  Returns 0 if the child ran (whatever its
 * status), -1 if it could not start (spawn_failed, spawn_errno set).  res is
 * always initialised, so proc_result_free is always safe. */
int proc_run(const char *const argv[], const proc_options *opt, proc_result *res);
/* The status a shell would report: the exit code, 128+signal, 127 when the
 * program could not be started, 124 on timeout. */
int proc_shell_status(const proc_result *res);
void proc_result_free(proc_result *res);

#endif
