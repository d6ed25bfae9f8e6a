/*
 * report.h: a tuning run's results, the one definition that `cl1cc tune`
 * fills and writes as JSON (`cl1cc tune --json`, tune_json.c: writer and
 * reader), and what `cl1cc ci` tells people about it: the Markdown, HTML
 * (inline SVG charts, no external assets) and JSON summary made from it
 * and from the patch of verified winners.  Pure: structs in, text out.
 */
#ifndef CL1CC_REPORT_H
#define CL1CC_REPORT_H

#include "core.h"

typedef VEC(double) report_double_vec;

/* a judge's phases (tune_kernel.judge_seconds) */
enum { REPORT_JUDGE_PHASES = 5 };

/* One kernel of a tuning run.  Numbers the JSON does not give are NaN
 * (counts: -1); strings it does not give are NULL. */
typedef struct tune_kernel {
    const char *file, *kernel, *key;
    const char *status; /* "improved", "no_gain", "not_captured", "error",
                           "skipped_no_gpu", or whatever a later tuner says */
    double baseline_ms, best_ms, speedup, spread_ms, tune_seconds;
    const char *best_label, *detail;
    long variants_tried, variants_passed;
    /* the roofline of its timed launch (docs/HARNESS.md, "Roofline"): the
     * limit, what it was made of, and the original's and the best
     * variant's (the original's when none beat it) percentage of it */
    double limit_ms, bytes, flops, original_pct_of_limit, best_pct_of_limit;
    /* the judges' build, checks and timing, summed; of the checks, the
     * runs on the GPU; the waits for the GPU's lock (hn_judge_result) */
    double judge_seconds[REPORT_JUDGE_PHASES];
    /* the checks: captures checked (the last judgement's), runs on the GPU
     * (all judgements) and the longest of them (-1, NaN: not given) */
    long captures_checked, check_runs;
    double slowest_check_run_seconds;
    /* when each better variant came: seconds of tuning, its speedup */
    report_double_vec progress_t, progress_best;
    /* why no launch of it was captured (status "not_captured"), or NULL */
    const char *not_captured;
    /* seconds from the capture's end to its first judgement back; 0: none */
    double first_verdict_seconds;
    /* its best under 10% of its limit: why, as far as tune can tell
     * (docs/TUNING.md, "Far from the limit"); NULL otherwise */
    const char *far_reason;
} tune_kernel;

typedef struct tune_run {
    const char *cl1cc_version, *arch, *gpu_name;
    int ran_on_gpu; /* 1, 0, or -1 when not said */
    double budget_seconds, wall_seconds;
    double capture_seconds; /* the capture's build and run; 0: none here */
    /* of it, the instrumented build and the program's run (0: not known) */
    double capture_build_seconds, capture_run_seconds;
    long budget_evaluations;
    VEC(tune_kernel) kernels;
} tune_run;

/* Reads the tuner's JSON.  Unknown fields are ignored and optional ones may
 * be missing; what is required is an object with a "kernels" array whose
 * entries are objects.  Strings live in a.  0, or -1 with a message. */
int report_parse_tune(const char *json, arena *a, tune_run *out, strbuf *err);
/* Writes run as that JSON (pretty-printed) to path; NULL strings are
 * written as "" (gpu_name as null), NaN numbers as null.  0, or -1. */
int report_write_tune(const tune_run *run, const char *path, strbuf *err);
/* frees the kernels (and their progress), not the strings */
void tune_run_free(tune_run *run);

/* A kernel the patch rewrites. */
typedef struct report_patched {
    const char *file, *kernel, *arch;
    double speedup;
} report_patched;

typedef struct report_input {
    const tune_run *run;
    const char *display_root; /* files under it are shown relative to it */
    const char *base_ref;     /* what was compared, or NULL */
    const char *patch_name;   /* "cl1cc.patch", or NULL when there is none */
    const char *patch_text;   /* may be NULL */
    const report_patched *patched;
    size_t n_patched, n_patched_files;
    const char *const *notes; /* one line each: what went wrong or was left out */
    size_t n_notes;
    int exit_code; /* the ci command's: 0 nothing to do, 3 improvements, 1 error */
} report_input;

/* GitHub-flavoured Markdown (for $GITHUB_STEP_SUMMARY). */
void report_markdown(const report_input *in, strbuf *out);
/* One self-contained HTML page: inline CSS and SVG, no script. */
void report_html(const report_input *in, strbuf *out);
/* The summary as JSON text (pretty-printed, with a final newline). */
void report_summary_json(const report_input *in, strbuf *out);

/* Counts of kernels by status; the highest and the geometric mean of the
 * speedups of "improved" kernels (NaN when there are none). */
typedef struct report_totals {
    size_t kernels, improved, no_gain, not_captured, errors, skipped, other;
    double best_speedup, geomean_speedup;
} report_totals;
void report_count(const tune_run *run, report_totals *out);
/* A file as the reports show it: relative to root when under it. */
const char *report_display_path(const char *path, const char *root);

#endif
