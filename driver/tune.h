/*
 * tune.h: the pieces of `cl1cc tune` (driver/tune_cmd.c runs the loop):
 * its options, the loop's state, the session's steps (setup, targets,
 * rounds, chooser, report), the judge jobs (tune_judge.c), the table it
 * ends with and retraining the chooser from the whole tuning database.
 * The run's results are report.h's tune_run and tune_kernel: one definition
 * that tune fills and writes and `cl1cc ci` reads.
 */
#ifndef CL1CC_TUNE_H
#define CL1CC_TUNE_H

#include <stdio.h>

#include "builtin.h"
#include "core.h"
#include "harness.h"
#include "llm.h"
#include "pool.h"
#include "proc.h"
#include "report.h"
#include "tunedb.h"
#include "wrapper.h"

typedef enum tune_order { TUNE_ORDER_LEARNED, TUNE_ORDER_RANDOM, TUNE_ORDER_CATALOGUE } tune_order;

typedef struct tune_options {
    const char *run_cmd, *build_cmd, *captures, *json, *chooser, *work;
    const char *build_dir; /* -p: flags from its compile_commands.json */
    int use_builtin;       /* the built-in policy proposes */
    pol_llm_config llm;    /* the LLM policy when llm.url is set */
    int llm_per_round;
    pool_options pool;     /* where the judges run */
    int limit;             /* launches captured per kernel */
    double budget_seconds; /* no evaluation starts after this */
    int kernel_evals;      /* variants per kernel at most */
    int per_round;         /* proposals per kernel per round */
    int judges_per_gpu;    /* local judges at once on each GPU (gpu_lock.c) */
    tune_order order;
    unsigned long long seed;
    int learn, fast_math, retrain, help;
    hn_judge_settings judge; /* every `cl1cc judge` child's */
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

/* the table for people */
void tune_report_print(const tune_run *r, FILE *out);

/* `cl1cc tune --retrain`: the chooser learned afresh from every kernel in
 * the tuning database; the exit code */
int tune_retrain(const tune_options *o);

/* ---- the private build (tune_tree.c; capture_cmd.c uses it) ---------------- */

/* A copy of the user's tree that `--build` and `--run` run in, so the
 * user's tree is left as it was. */
typedef struct tune_tree_copy {
    const char *root, *copy; /* absolute: the user's folder, its copy */
    long long files, bytes;  /* what was copied */
} tune_tree_copy;

/* the most a copy may take */
#define TUNE_TREE_COPY_MAX_BYTES (8LL << 30)

/* copies the folder root (its files' modes and times kept) into a new
 * folder under the cache, removed at exit, leaving out .git and the
 * folders in skip (absolute, canonical; NULL-ended); 0, or -1 with err */
int tune_tree_copy_make(const char *root, const char *const *skip, long long max_bytes,
                        tune_tree_copy *t, arena *a, strbuf *err);
/* a canonical absolute path as it is in the copy, or NULL outside root */
const char *tune_tree_copy_path(const tune_tree_copy *t, const char *path, arena *a);

/* ---- the loop's state (tune_cmd.c runs it, tune_judge.c judges) ------------ */

/* One kernel being tuned. */
typedef struct tune_target {
    tune_kernel row; /* its results, as the report shows them (report.h) */
    tu_model *model;
    size_t index;
    const kernel *k;
    const char *captures;
    const char *original;
    const char *context;
    const char *launches;
    pol_facts facts;
    double captured_ms; /* the longest captured launch's wall time (0: unknown) */
    double timed_ms;    /* the first captured launch's (the one the judge times) */
    size_t captured_bytes; /* the largest captured launch's allocations, in all */
    int n_captured;     /* launches captured */
    /* without a GPU: the variants the judges built, and those that did not compile */
    long variants_built, variants_unbuilt;
    double features[POL_NFEATURES];
    VEC(pol_sample) history;
    int done;
    char detail[512];   /* row.detail once the run ends */
    char far_reason[200]; /* row.far_reason once the run ends (tune_far_reason) */
    /* the best variant that beat the original: 1 and NaN while none has */
    double best_speedup, best_ms;
    int rounds, build_errors;
    char key[65];
    char key_arch[16]; /* the arch key was computed for */
    int recorded;      /* its kernels row is in the database */
} tune_target;

/* What the judge jobs share. */
typedef struct tune_loop {
    const char *self, *db_path, *arch, *gpu_name;
    const char *const *nvcc_flags;
    size_t n_nvcc_flags;
    const nvcc_cmdline *cl;
    const char *work;
    int ran_on_gpu;
    const hn_judge_settings *judge;
    double started;
    double tuning_started;  /* the capture's end: first verdicts count from it */
    double capture_seconds; /* the capture's build and run */
    double capture_phases[HN_CAPTURE_PHASES]; /* its build, run, compression; 0 unknown */
    int recording; /* a judgement ran on a GPU: results go to the database */
    tunedb *db;
} tune_loop;

/* A proposal and the policy that made it, as the database records it
 * ("builtin", "llm:<model>"). */
typedef struct tune_proposal {
    pol_proposal p;
    const char *policy;
} tune_proposal;

/* the policy names the database records: the built-in policy's, and the
 * LLM's with its model ("llm:<model>", as db/tunedb.h says) */
#define TUNE_POLICY_BUILTIN "builtin"
const char *tune_llm_policy(const pol_llm_config *llm, arena *a);

/* One kernel's judgement in a round: a `cl1cc judge` child the pool runs. */
typedef struct round_job {
    tune_target *tk;
    tune_proposal *props;
    size_t n;
    const char *dir, *json_path, *out_path, *err_path;
    cstr_vec argv;
} round_job;

/* Whether `tune FILE` tunes kernel k of FILE's model m (tune_headers.c): a
 * definition of the main file, or of a project header the file includes
 * (not made by a macro) that no target of targets (of another file given
 * to the same run) already is. */
int tune_kernel_of_file(const tu_model *m, const kernel *k, const tune_target *targets,
                        size_t n_targets);

/* The roofline and the budget (tune_targets.c): the best time so far (the
 * original's when no variant beat it) as a percentage of tk's limit (NaN:
 * unknown); and how many proposals tk gets in its next round: per_round
 * scaled by its headroom, 1 - that percentage (docs/TUNING.md) */
double tune_best_pct_of_limit(const tune_target *tk);
int tune_round_share(const tune_target *tk, int per_round);
/* Why tk's best stays under TUNE_FAR_PCT of its limit, as far as tune can
 * tell from what it measured and captured, into out ("" when it is not
 * that far, or its limit is unknown) */
#define TUNE_FAR_PCT 10.0
void tune_far_reason(const tune_target *tk, char *out, size_t len);

/* tk's database key for loop->arch, and its kernels row once recording */
void tune_key_kernel(tune_loop *loop, tune_target *tk);
/* writes rj's variants and fills pj with the judge's command line; 0, or
 * -1 (tk->detail says why) */
int tune_prepare_job(tune_loop *loop, tune_target *tk, round_job *rj, pool_job *pj, arena *a);
/* reads the judgement into rj's kernel (history, best, database); 0, or -1
 * when the judge itself failed */
int tune_finish_job(tune_loop *loop, round_job *rj, const pool_job *pj, arena *a);
/* a proposal that failed before the judge, recorded as "bad_reply" */
void tune_record_failed_proposal(tune_loop *loop, tune_target *tk, const pol_proposal *p);

/* ---- the session: tune_cmd.c runs its steps in order ------------------------ */

typedef VEC(tune_target) tune_target_vec;
typedef VEC(tu_model *) tune_model_vec;

typedef struct tune_session {
    tune_options o;
    tune_loop loop;
    nvcc_cmdline cl;
    arena a;
    strbuf err;
    const char *db_dir, *captures, *chooser_path;
    tune_target_vec targets;
    tune_model_vec models;
    pol_chooser *chooser;
    double tuning_started; /* the budget counts from here, after the capture */
    tune_target **round_targets; /* the pool's jobs' kernels, this round */
} tune_session;

/* --judges-per-gpu: the pool's GPU list with each GPU N times (tune_setup.c) */
void tune_share_gpus(tune_session *s);

/* seconds on the monotonic clock */
double tune_now(void);

/* before the rounds (tune_setup.c): where cl1cc, the database, the
 * captures and the work folder are; the capture; the GPU here (before the
 * targets) and the kernels' keys (after); 0, or -1 after saying why */
int tune_find_places(tune_session *s);
int tune_capture(tune_session *s);
void tune_detect_gpu(tune_session *s);
void tune_key_targets(tune_session *s);
int tune_make_work_dir(tune_session *s);
/* why no launch of tk's kernel was captured (tune_why.c): the phrase for
 * the table and the JSON's not_captured; needs the GPU detected */
#define TUNE_WHY_NOT_BUILT "not built through cl1cc"
#define TUNE_WHY_NEVER_LAUNCHED "never launched"
const char *tune_not_captured_reason(const tune_session *s, const tune_target *tk, arena *a);
/* a captured launch shorter than this is launch-bound: its timing says little */
#define TUNE_LAUNCH_BOUND_MS 0.010
/* what to tune (tune_targets.c): every wanted kernel of every file; 0, or
 * -1 after the parser's messages */
int tune_find_targets(tune_session *s);
/* the chooser (tune_chooser.c): loaded before the rounds, taught after */
void tune_load_chooser(tune_session *s);
void tune_learn_all(tune_session *s);
/* one round (tune_round.c): every active kernel proposes, the pool runs
 * the judges, the results are recorded.  1 when something was judged, 0
 * when nothing is left to do, -1 when the pool failed. */
int tune_round(tune_session *s, int round);
/* the table and --json (tune_report.c); the exit code */
int tune_report(tune_session *s);
/* tune's exit status when no launch of any kernel was captured (0 done,
 * 1 error, 2 usage) */
#define TUNE_EXIT_NOTHING_CAPTURED 3

#endif
