/*
 * tune.h: the pieces of `cl1cc tune` (driver/tune_cmd.c runs the loop):
 * its options, its report (table and JSON) and retraining the chooser from
 * the whole tuning database.
 */
#ifndef CL1CC_TUNE_H
#define CL1CC_TUNE_H

#include <stdio.h>

#include "core.h"
#include "llm.h"
#include "pool.h"

typedef enum tune_order { TUNE_ORDER_LEARNED, TUNE_ORDER_RANDOM, TUNE_ORDER_CATALOGUE } tune_order;

typedef struct tune_options {
    const char *run_cmd, *build_cmd, *captures, *json, *chooser, *work;
    int use_builtin;       /* the built-in policy proposes */
    pol_llm_config llm;    /* the LLM policy when llm.url is set */
    int llm_per_round;
    pool_options pool;     /* where the judges run */
    int limit;             /* launches captured per kernel */
    double budget_seconds; /* no evaluation starts after this */
    int kernel_evals;      /* variants per kernel at most */
    int per_round;         /* proposals per kernel per round */
    tune_order order;
    unsigned long long seed;
    int learn, fast_math, retrain, help;
    int judge_runs, judge_rounds, judge_seeds;
    double judge_timeout;
    const char **files;
    size_t n_files;
    const char **kernels;
    size_t n_kernels;
    char **nvcc_flags; /* after "--" */
    size_t n_nvcc_flags;
} tune_options;

/* 0, or -1 after saying what is wrong (the caller prints the usage) */
int tune_parse_options(int argc, char **argv, tune_options *o);
void tune_options_free(tune_options *o);

typedef struct tune_report_row {
    const char *file, *kernel, *key, *status, *detail, *best_label;
    double baseline_ms, best_ms, speedup, spread_ms, seconds;
    double judge_phase_s[3]; /* the judge's build, checks and timing, summed */
    int tried, passed;
    const double *progress_t, *progress_best; /* when each better variant came */
    size_t n_progress;
} tune_report_row;

typedef struct tune_report {
    const char *arch, *gpu_name;
    int ran_on_gpu;
    double budget_seconds, wall_seconds;
    int kernel_evals;
    const tune_report_row *rows;
    size_t n_rows;
} tune_report;

void tune_report_print(const tune_report *r, FILE *out);
/* the JSON docs/TUNING.md describes; 0 or -1 */
int tune_report_write_json(const tune_report *r, const char *path, strbuf *err);

/* `cl1cc tune --retrain`: the chooser learned afresh from every kernel in
 * the tuning database; the exit code */
int tune_retrain(const tune_options *o);


/* ---- the loop's state (tune_cmd.c runs it, tune_judge.c judges) ------------ */

#include "builtin.h"
#include "tunedb.h"
#include "wrapper.h"

/* one kernel's tuning state */

typedef struct tune_kernel {
    const char *file;
    tu_model *model;
    size_t index;
    const kernel *k;
    const char *name;
    const char *captures;
    const char *original;
    const char *context;
    const char *launches;
    pol_facts facts;
    double captured_ms; /* the longest captured launch's wall time (0: unknown) */
    double features[POL_NFEATURES];
    VEC(pol_sample) history;
    int done;
    const char *status;
    char detail[512];
    double baseline_ms, best_ms, best_speedup, spread_ms;
    const char *best_label;
    int tried, passed, rounds, build_errors;
    double seconds;
    double judge_phase_s[3]; /* build, checks, timing: where the judges' time went */
    VEC(double) progress_t;   /* seconds of tuning when a better one was found */
    VEC(double) progress_best;
    char key[65];
    char key_arch[16]; /* the arch key was computed for */
    int recorded;      /* its kernels row is in the database */
} tune_kernel;

typedef struct tune_run {
    const char *self, *db_path, *arch, *gpu_name;
    const char *const *nvcc_flags;
    size_t n_nvcc_flags;
    const nvcc_cmdline *cl;
    const char *work;
    int ran_on_gpu;
    int judge_runs, judge_rounds, judge_seeds;
    double judge_timeout;
    double started;
    int recording; /* a judgement ran on a GPU: results go to the database */
    tunedb *db;
} tune_run;

/* One kernel's judgement in a round: a `cl1cc judge` child the pool runs. */
typedef struct round_job {
    tune_kernel *tk;
    pol_proposal *props;
    size_t n;
    const char *dir, *json_path, *out_path, *err_path;
    cstr_vec argv;
} round_job;

/* tk's database key for run->arch, and its kernels row once recording */
void tune_key_kernel(tune_run *run, tune_kernel *tk);
/* writes rj's variants and fills pj with the judge's command line; 0, or
 * -1 (tk->detail says why) */
int tune_prepare_job(tune_run *run, tune_kernel *tk, round_job *rj, pool_job *pj, arena *a);
/* reads the judgement into rj's kernel (history, best, database); 0, or -1
 * when the judge itself failed */
int tune_finish_job(tune_run *run, round_job *rj, const pool_job *pj, arena *a);
/* a proposal that failed before the judge, recorded as "bad_reply" */
void tune_record_failed_proposal(tune_run *run, tune_kernel *tk, const pol_proposal *p);

#endif
