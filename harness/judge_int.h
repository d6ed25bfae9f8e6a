/*
 * judge_int.h: what the judge's files share inside the harness (not its
 * public face: harness.h is).  judge_exec.c runs generated code in child
 * processes; judge_inputs.c prepares input sets and compares outputs;
 * judge_check.c checks the variants on every capture; judge.c runs the
 * steps of a judgement in order.
 */
#ifndef CL1CC_JUDGE_INT_H
#define CL1CC_JUDGE_INT_H

#include "harness.h"
#include "proc.h"

typedef VEC(double) double_vec;

/* ---- running generated code (judge_exec.c) ------------------------------- */

/* How every child of the judge runs: output captured, no stdin, its own
 * process group (killed whole at the limit), no core files. */
proc_options judge_child_options(double wall_seconds, size_t capture_cap);

typedef struct run_outcome {
    int ok;
    verdict_kind verdict; /* crash, timeout, error when !ok */
    char detail[512];
} run_outcome;

/* The replay driver of sources[0..n) (variant i is kernel i + 1, the
 * original kernel 0) built as work_dir/name; 0, or -1 with the reason in
 * log.  *exe_out is set either way. */
int judge_build_driver(const hn_judge_request *rq, const tu_model *m, size_t kernel_index,
                       const char *const *sources, size_t n, const char *name, const char *arch,
                       const char **exe_out, arena *a, strbuf *log);
/* kernel `index` of the driver once on the inputs in in_dir, its outputs
 * to out_dir (and with timed_runs, its timings) */
run_outcome judge_run_driver(const char *exe, int index, const char *meta, const char *in_dir,
                             const char *out_dir, int timed_runs, double timeout);
/* Kernels idx[0..n) of the driver in one process on one input set (and
 * with timed_runs, timed over rounds), each one's outputs under
 * out_dir/k<idx>.  done[i] says whether kernel idx[i] finished: when one
 * fails the process ends, and those after it are left for the caller to
 * run alone.  Its wall limit: a run's limit per kernel (four per round
 * when timed). */
void judge_run_batch(const hn_judge_request *rq, const char *exe, const int *idx, size_t n,
                     const char *meta, const char *in_dir, const char *out_dir, int timed_runs,
                     int rounds, int *done, arena *a);
/* Kernel index of the driver once on each of n input sets of one capture
 * (ins[i]'s inputs, outs[i] its allocations) in one process, within a
 * run's limit per set; done[i] says whether set i finished (those after a
 * failure did not). */
void judge_run_sets(const hn_judge_request *rq, const char *exe, int index, const char *meta,
                    const char *const *ins, const char *const *outs, size_t n, int *done,
                    arena *a);
/* `exe @device file`: the GPU's figures for the roofline into file */
run_outcome judge_run_device(const char *exe, const char *file, double timeout);
/* the timings a timed run wrote to dir, appended; 0, or -1 */
int judge_read_timings(const char *dir, double_vec *samples);
/* compute-sanitizer's memcheck and racecheck over kernel index on the
 * inputs in `in`; a finding fails v */
void judge_sanitize(const hn_judge_request *rq, const char *exe, int index, const char *meta,
                    const char *in, hn_variant_verdict *v, arena *a);

/* v's verdict, unless it already failed: the first failure stands */
void judge_set_verdict(hn_variant_verdict *v, verdict_kind verdict, const char *detail);

/* ---- input sets and outputs (judge_inputs.c) ------------------------------ */

/* work_dir/<fmt with x, y>, made; NULL when it cannot be */
const char *judge_make_dir(const hn_judge_request *rq, arena *a, const char *fmt, int x, int y);

/* 0 equal, 1 with a description of the first difference, -1 with err.
 * scale_dir, when not NULL, holds the original's outputs on the absolute
 * values of the same inputs (see hn_compare_scaled). */
int judge_compare_dirs(const hn_judge_request *rq, const hn_capture *c, const char *want_dir,
                       const char *want_suffix, const char *got_dir, const char *scale_dir,
                       char *detail, size_t detail_len, strbuf *err);

/* what judge_edit_inputs does to each allocation on its way */
typedef enum input_edit {
    INPUTS_COPY,     /* nothing */
    INPUTS_PERTURB,  /* hn_perturb with seed `arg` */
    INPUTS_POISON,   /* hn_poison with pattern `arg`, pure outputs only */
    INPUTS_ABSOLUTE  /* hn_absolute */
} input_edit;

/* every allocation's inputs from dir `from` to dir `to` (the same dir
 * edits in place), edited on the way; 0, or -1 with err */
int judge_edit_inputs(const hn_judge_request *rq, const hn_capture *c, const char *from,
                      const char *to, input_edit how, uint64_t arg, const int *pure, strbuf *err);
/* 1 when edit `how` changes some allocation of c (with pure[] for
 * INPUTS_POISON): a perturbed set of a capture of integers alone is the
 * captured set again */
int judge_edit_changes_any(const hn_judge_request *rq, const hn_capture *c, input_edit how,
                           const int *pure);
/* A capture as raw files in the work folder (captures are stored
 * compressed; the driver reads raw ones); NULL with err. */
const char *judge_materialize(const hn_judge_request *rq, const char *capture, int index,
                              arena *a, strbuf *err);
/* The original's outputs on the absolute values of the inputs in in_dir,
 * or NULL when it cannot run there (see hn_compare_scaled). */
const char *judge_run_magnitudes(const hn_judge_request *rq, const char *exe,
                                 const hn_capture *c, const char *meta, const char *in_dir,
                                 int ci, int seed, arena *a);
/* pure[a]: allocation a is written by the original without reading its
 * old contents (poisoning it before a variant runs makes an element the
 * variant leaves unwritten fail) */
void judge_find_pure_outputs(const hn_judge_request *rq, const char *exe, const hn_capture *c,
                             const char *meta, const char *ref_out, int *pure, arena *a,
                             strbuf *err);

/* ---- the roofline (judge_roofline.c) ---------------------------------------- */

/* The GPU's peaks into p: from rq->peaks_dir's file for gpu_name when an
 * earlier judge of the run wrote it, else measured by the driver exe
 * (`@device`, a second under the GPU's exclusive lock) and, with a
 * peaks_dir, left there for the next; 0, or -1 with err */
int judge_device_peaks(const hn_judge_request *rq, const char *exe, const char *gpu_name,
                       hn_device_peaks *p, arena *a, strbuf *err);
/* res->roofline and res->peaks for the timed capture (its folder
 * capture_dir, pure[] its pure outputs or NULL) on this GPU, and the
 * original's and each passing variant's percentage of the limit; what
 * cannot be found stays NaN (a note in the verbose log says why) */
void judge_roofline(const hn_judge_request *rq, const tu_model *m, const kernel *k,
                    const char *exe, const char *capture_dir, const int *pure,
                    hn_judge_result *res, arena *a);

/* ---- a judgement's steps (judge.c runs them; judge_check.c checks) ------- */

/* One judgement's state, handed from step to step. */
typedef struct judgement {
    const hn_judge_request *rq;
    const hn_judge_settings *set;
    hn_judge_result *res;
    strbuf *err;
    arena a;
    tu_model m;
    size_t kernel_index;
    const char *arch;  /* built for */
    const char *exe;   /* the replay driver of the variants that built */
    cstr_vec good;     /* their sources: variant g is the driver's kernel g + 1 */
    VEC(size_t) good_index; /* and their indices in the request */
    const char **captures;  /* materialized in the work folder */
    const char *scale0;     /* magnitudes of capture 0's own inputs, or NULL */
    double build_started, timing_started;
    long winner;            /* into good, the fastest passing variant; -1 none */
    int pure0[HN_MAX_ARGS]; /* capture 0's pure outputs (for the roofline) */
    int have_pure0;
} judgement;

typedef enum step_result {
    STEP_NEXT,     /* go on with the next step */
    STEP_FINISHED, /* the judgement is complete: the steps after are skipped */
    STEP_FAILED    /* no judgement: err says why */
} step_result;

static inline hn_variant_verdict *good_verdict(judgement *j, size_t g)
{
    return &j->res->variants[j->good_index.items[g]];
}

/* not yet failed */
static inline int live(const hn_variant_verdict *v)
{
    return v->verdict == VERDICT_PENDING || v->verdict == VERDICT_PASS;
}

/* every capture checked: the original reproduces it, its pure outputs are
 * found, and each live variant runs on its input sets and is compared */
step_result judge_check_captures(judgement *j);

#endif
