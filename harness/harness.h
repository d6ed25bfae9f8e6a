/*
 * harness.h: the judge.  Captures real launches of the user's program,
 * generates a standalone replay driver per kernel (original and variants
 * side by side), builds it with nvcc, runs it in an isolated child process,
 * and decides from the buffers the child dumps whether each variant is
 * equal to the original, and how fast it is.
 */
#ifndef CL1CC_HARNESS_H
#define CL1CC_HARNESS_H

#include "core.h"
#include "text_edit.h"

/* ---- comparing output buffers (compare.c) ------------------------------- */

typedef enum hn_dtype {
    HN_BYTES, /* unknown element type: exact */
    HN_I8, HN_U8, HN_I16, HN_U16, HN_I32, HN_U32, HN_I64, HN_U64,
    HN_F16, HN_BF16, HN_F32, HN_F64
} hn_dtype;

typedef struct hn_tolerance {
    double rtol, atol; /* |got - want| <= atol + rtol * |want|; used for
                        * float dtypes only, NaN or negative counts as 0 */
} hn_tolerance;

/* Default tolerance for a dtype: exact for integers and bytes; float32
 * rtol 1e-5, atol 1e-6; float64 rtol 1e-12, atol 1e-14; fp16/bf16 rtol and
 * atol 1e-2. */
hn_tolerance hn_default_tolerance(hn_dtype t);
/* "bytes", "i8" ... "u64", "f16", "bf16", "f32", "f64"; "unknown" for a
 * value outside the enum. */
const char *hn_dtype_name(hn_dtype t);
/* Takes the names above and the C/CUDA spellings (int32_t, float, double,
 * half, __half, __nv_bfloat16, ...).  0 ok, -1 unknown. */
int hn_dtype_parse(const char *name, hn_dtype *out);
size_t hn_dtype_size(hn_dtype t); /* 0 for a value outside the enum */

typedef struct hn_compare_result {
    size_t elements;        /* of the longer buffer, a partial one included */
    size_t mismatches;      /* beyond tolerance (NaN rules included) */
    size_t first_mismatch;  /* element index, valid if mismatches > 0 */
    /* over every element pair, passing ones too; +inf when a mismatch has
     * no finite distance (NaN, inf, missing or partial element); the
     * relative error is +inf where want is 0 and got is not */
    double max_abs_error, max_rel_error;
    size_t nan_in_want;     /* NaN in the reference: never a pass unless got is NaN at the same place */
    int size_mismatch;      /* buffers of different byte lengths */
} hn_compare_result;

/* Compares got against want element by element.  Integers and bytes are
 * exact whatever tol says.  Floats: NaN positions must be equal (a NaN in
 * got where want has a number fails, and vice versa; NaN against NaN
 * passes and is counted in nan_in_want); +inf and -inf must match exactly;
 * -0.0 equals 0.0.  A trailing partial element is compared as bytes, and
 * every element past the end of the shorter buffer is a mismatch, so
 * size_mismatch implies mismatches > 0.  A dtype outside the enum compares
 * as bytes.  The buffers need no alignment. */
void hn_compare(hn_dtype t, hn_tolerance tol, const void *want, size_t want_len,
                const void *got, size_t got_len, hn_compare_result *res);
/* hn_compare, with rtol scaling a larger magnitude where scale (the
 * original's outputs on the absolute values of the same inputs, scale_len
 * == want_len, else ignored) shows the element's computation went through
 * larger values than its result, as a sum with cancellation does:
 * magnitude = max(|want|, min(|scale|, 1000 * largest finite |want| of
 * the buffer)).  A non-finite scale element widens nothing.  Reordered float
 * sums are as accurate as the original there, yet differ from it by up to
 * rtol * the sum of |terms|, not rtol * |result|. */
void hn_compare_scaled(hn_dtype t, hn_tolerance tol, const void *want, size_t want_len,
                       const void *got, size_t got_len, const void *scale, size_t scale_len,
                       hn_compare_result *res);

/* ---- timing statistics (stats.c) ---------------------------------------- */

typedef struct hn_timing {
    size_t runs;
    double median_ms, min_ms, max_ms;
    double p25_ms, p75_ms; /* the spread: a difference inside it is noise */
} hn_timing;

/* Summarises samples (sorted in place).  Quartiles interpolate linearly
 * between closest ranks (type 7, as R and NumPy).  NaN samples (failed
 * measurements) are left out and not counted in runs; n == 0 gives all
 * zeros. */
void hn_timing_summarise(double *samples_ms, size_t n, hn_timing *out);
/* Speedup of b over a (a.median / b.median) and whether it is beyond the
 * noise: 1 when b's p75 is below a's p25, -1 when b's p25 is above a's
 * p75 (slower), 0 inside the spread.  Never significant when either side
 * has fewer than 2 runs; returns 0 (not significant) when either has no
 * runs or a median that is not positive.  significant may be NULL. */
double hn_speedup(const hn_timing *a, const hn_timing *b, int *significant);

/* ---- capture: instrumented launch sites (instrument.c) ------------------- */

#include "model.h"

/* 1 when the harness can capture and replay launches of k; else 0 with a
 * reason */
int hn_kernel_capturable(const kernel *k, const char **why);

/* The __constant__ and __device__ variables k uses besides its arguments
 * (not extern, at namespace scope): state its captures save and its replay
 * drivers restore.  Up to max of them into out; returns how many. */
enum { HN_MAX_STATE_VARS = 16 };
size_t hn_state_vars(const tu_model *m, const kernel *k, const dependency **out, size_t max);
/* d's name as code at namespace scope reaches it ("ns::coef"; an anonymous
 * namespace's part left out) */
const char *hn_state_var_expr(const dependency *d, arena *a);
/* 1 when d is declared where a launch at `at` sees it: earlier in the same
 * file, or in another (a header included before the launch) */
int hn_state_var_visible_at(const dependency *d, const src_range *at);
/* The edits routing every capturable launch written in file (m's main
 * file, or a header it includes) through cl1cc_capture::launch (captures
 * go to $CL1CC_CAPTURE_DIR/tag/kN/SEQ for kernel N of m), appended to
 * edits (offsets in file's text, strings in a); one line per launch there
 * left alone to report.  Returns how many launches were instrumented. */
int hn_instrument_edits(const tu_model *m, const char *file, const char *tag, arena *a,
                        text_edit_vec *edits, strbuf *report);
/* One not_captured line to report for each launch written in neither the
 * main file nor one of done (the headers instrumented in place). */
void hn_report_other_files(const tu_model *m, const char *const *done, size_t n_done,
                           strbuf *report);
/* Writes to out the main file of m with its launches instrumented
 * (hn_instrument_edits) and extra edits (a header's instrumented text in
 * place of its #include), after an #include of runtime_header (the path
 * of cl1cc_capture.cuh).  Returns how many of the main file's launches
 * were instrumented, -1 on error. */
int hn_instrument(const tu_model *m, const char *runtime_header, const char *tag,
                  const text_edit *extra, size_t n_extra, strbuf *out, strbuf *report,
                  strbuf *err);

/* The capture folder name of a source file: its base name and a short hash
 * of its absolute path ("2mm.cu-1a2b3c4d"). */
const char *hn_capture_tag(const char *path, arena *a);

/* ---- captured launches (capture_io.c) ---------------------------------- */

enum { HN_MAX_ARGS = 64 };

/* What the judge needs of one captured launch: which arguments point into
 * which allocation, and the allocations' sizes.  The driver reads the rest
 * (configuration, argument bytes) from the same meta file itself. */
typedef struct hn_capture {
    char dir[4096];
    int nallocs;
    size_t alloc_size[HN_MAX_ARGS];
    int nargs;
    int arg_alloc[HN_MAX_ARGS]; /* -1 for a value; equal for two pointers
                                   into one allocation */
    unsigned block[3];          /* the launch's block dimensions */
    unsigned grid[3];           /* and its grid's */
    double launch_ms;           /* the launch's wall time when captured, to
                                   its synchronize (0: not recorded) */
    char instance[1024];        /* a template kernel's instantiation as the
                                   host compiler named it ("k<256, float>");
                                   "" for a kernel that is no template */
} hn_capture;

int hn_capture_read(const char *dir, hn_capture *c, strbuf *err);
/* The instantiations a template kernel's captures name, each once, in the
 * captures' order, appended to out (strings in a).  Returns how many
 * captures named none or could not be read (err says why of the first). */
size_t hn_capture_instances(const char *const *captures, size_t n, arena *a, cstr_vec *out,
                            strbuf *err);
/* 1 when captures a and b are the same launch (meta alike but for its
 * launch_ms) on the same inputs (every allocN.in alike): a loop that resets
 * its inputs before each launch.  0 otherwise, or when a file cannot be
 * read. */
int hn_captures_same_inputs(const hn_capture *a, const hn_capture *b);
/* Compresses every allocN.in/.out of at most HN_COMPRESS_MAX_BYTES under
 * root to .gz, fast (the judge reads either form); larger ones stay raw.
 * 0, or -1 when some file could not be (left raw). */
#define HN_COMPRESS_MAX_BYTES ((size_t)16 << 20)
int hn_captures_compress(const char *root, strbuf *err);
/* A capture's phases, in seconds (root/capture-seconds): the instrumented
 * build, the program's run, the compression.  write: 0 or -1; read: 0
 * with all three, or -1 (no such file, or not three numbers). */
enum { HN_CAPTURE_BUILD, HN_CAPTURE_RUN, HN_CAPTURE_COMPRESS, HN_CAPTURE_PHASES };
int hn_capture_phases_write(const char *root, const double seconds[HN_CAPTURE_PHASES]);
int hn_capture_phases_read(const char *root, double seconds[HN_CAPTURE_PHASES]);
/* dir/allocN.suffix (or .suffix.gz), exactly size bytes, into a heap
 * buffer.  Outputs a run left as its inputs were are often a hard link to
 * the inputs' file (the capture and the replay driver write them so). */
int hn_alloc_read(const char *dir, int alloc, const char *suffix, size_t size,
                  unsigned char **out, strbuf *err);
/* Judges sharing a GPU (gpu_lock.c): a run that checks takes the GPU's
 * lock shared, one that times or measures the GPU exclusive.  Returns the
 * lock's descriptor for hn_gpu_unlock, or -1 (no lock could be had: the
 * run goes on unlocked).  hn_gpu_lock_checks_exclusive(1): checks take it
 * exclusive too (a working set too large to share the GPU's memory). */
typedef enum hn_gpu_use { HN_GPU_CHECK, HN_GPU_TIME } hn_gpu_use;
int hn_gpu_lock(hn_gpu_use use);
void hn_gpu_unlock(int fd);
void hn_gpu_lock_checks_exclusive(int on);
/* this process's seconds so far waiting for the lock, and holding it
 * (from lock to unlock: the runs on the GPU), how many times it held it
 * (runs) and its longest hold since the last hn_gpu_lock_mark() */
typedef struct hn_gpu_lock_stats {
    double waited, held, slowest;
    long runs;
} hn_gpu_lock_stats;
void hn_gpu_lock_totals(hn_gpu_lock_stats *out);
void hn_gpu_lock_mark(void);
/* 1 when dir_a/allocN.suffix_a and dir_b/allocN.suffix_b are one file
 * (hard links to the same inputs: equal without reading them) */
int hn_alloc_same_file(const char *dir_a, const char *suffix_a, const char *dir_b,
                       const char *suffix_b, int alloc);
/* to_dir/allocN.to_suffix made a hard link to from_dir/allocN.from_suffix
 * (a raw file); 0, or -1 (errno) */
int hn_alloc_link(const char *from_dir, const char *from_suffix, const char *to_dir,
                  const char *to_suffix, int alloc);
int hn_alloc_write(const char *dir, int alloc, const char *suffix, const void *data,
                   size_t size, strbuf *err);
/* Fresh inputs of the same shape: floating-point elements scaled and
 * shifted by a reproducible random amount; integers left alone (they are
 * often sizes and indices). */
void hn_perturb(hn_dtype t, unsigned char *data, size_t size, uint64_t seed);
/* 1 when hn_perturb changes elements of dtype t (f32, f64) */
int hn_perturb_changes(hn_dtype t);
/* Fills a buffer so an element the kernel does not write cannot match,
 * with poison `pattern` (taken modulo HN_POISONS): 0 a large finite
 * positive value (0x7b..), 1 NaN (0xff..), 2 a large finite negative one
 * (0xfb..), as every float dtype; integers large positive, -1, large
 * negative.  A read of the old contents through fmax, fmin or arithmetic
 * changes the result under at least one of them. */
#define HN_POISONS 3
void hn_poison(unsigned char *data, size_t size, int pattern);
/* The pure-output rule: 1 when an allocation the original changed
 * (`changed`) reproduces the reference outputs under every poison
 * (reproduces(ctx, p) for p = 0 .. HN_POISONS-1, 1 when the original run
 * with the allocation filled by hn_poison pattern p gave the reference's
 * outputs); stops at the first that does not.  0 otherwise. */
int hn_pure_output(int changed, int (*reproduces)(void *ctx, int pattern), void *ctx);
/* The same rule, the runs the judge makes: the first poison alone (an
 * allocation the kernel reads, the common case, is told by one run), then
 * the others together (reproduces_rest(ctx): 1 when all of them, run in
 * one process, gave the reference's outputs; 0 decides nothing), and only
 * when that fails each of them alone, stopping at the first that does not
 * reproduce. */
int hn_pure_output_batched(int changed, int (*reproduces)(void *ctx, int pattern),
                           int (*reproduces_rest)(void *ctx), void *ctx);
/* Clears the sign of every float element (f16, bf16, f32, f64; NaN stays
 * NaN); other dtypes are left alone. */
void hn_absolute(hn_dtype t, unsigned char *data, size_t size);
/* 1 when hn_absolute can change elements of dtype t (the float ones) */
int hn_absolute_changes(hn_dtype t);

/* ---- the roofline (roofline.c, roofline_flops.c) ------------------------- */

/* What the GPU can do at most, found once per judgement by the replay
 * driver (`DRIVER @device FILE`, runtime/cl1cc_replay.cuh). */
typedef struct hn_device_peaks {
    double copy_bytes_per_s; /* a device-to-device copy: bytes read plus
                                written a second (0: unknown) */
    double fp32_flops_per_s; /* 2 (an FMA) x FP32 lanes per SM x SMs x
                                clock (0: unknown) */
    double launch_ms;        /* a launch's fixed cost, added to the limit */
} hn_device_peaks;

/* the fixed cost of a launch the limit includes (2.5 us) */
#define HN_LAUNCH_OVERHEAD_MS 0.0025
/* FP32 lanes per SM of compute capability major.minor (128 on sm_90);
 * 0 for one this table does not know */
int hn_fp32_lanes_per_sm(int major, int minor);
/* The peaks from the file `DRIVER @device FILE` writes (copy_bytes_per_s,
 * sms, clock_khz, cc lines); 0, or -1 with err */
int hn_device_peaks_read(const char *path, hn_device_peaks *p, strbuf *err);

/* One captured launch against the GPU's peaks (docs/HARNESS.md,
 * "Roofline"): limit = max(bytes / copy bandwidth, flops / FP32 peak) +
 * a launch.  Unknown numbers are NaN. */
typedef struct hn_roofline {
    double read_bytes;    /* every allocation the kernel reads, whole */
    double written_bytes; /* the elements that differ between in and out */
    double flops;         /* from the body and the captured sizes */
    double limit_ms;
    char bound[32]; /* "memory", "compute", "memory, flops unknown"; "" */
} hn_roofline;

/* Bytes of capture c: an allocation a pointer argument points into is
 * read whole unless pure[a] (written without being read; pure NULL: none
 * is); its written bytes are the whole elements (of its first pointer
 * parameter's dtype) whose bytes differ between allocN.in and .out.
 * Sets read_bytes and written_bytes; 0, or -1 with err. */
int hn_roofline_bytes(const hn_capture *c, const hn_dtype *param_dtypes, size_t n_dtypes,
                      const int *pure, hn_roofline *r, strbuf *err);
/* Floating-point operations of k's launch c (its body's counts, times
 * loop trip counts and the threads its guards let through, evaluated with
 * the captured scalar arguments of c->dir/meta); NaN when some part is
 * unknown. */
double hn_roofline_flops(const tu_model *m, const kernel *k, const hn_capture *c);
/* An upper bound of the bytes k's launch c touches in global memory: each
 * subscript of a pointer parameter, times its element size, the loops
 * around it and the threads that reach it (as the flops); NaN when some
 * subscript's base is no pointer parameter, a count is unknown, or the
 * kernel calls a __device__ function of the TU.  Accesses through `*p`
 * are not seen. */
double hn_roofline_access_bytes(const tu_model *m, const kernel *k, const hn_capture *c,
                                const hn_dtype *param_dtypes, size_t n_dtypes);
/* r's limit_ms and bound from its bytes and flops and the peaks */
void hn_roofline_limit(hn_roofline *r, const hn_device_peaks *p);
/* 100 x limit / measured: how close a time is to the limit; NaN unknown */
double hn_pct_of_limit(double limit_ms, double measured_ms);

/* ---- replay drivers (replay_gen.c) -------------------------------------- */

/* The source of a replay driver for kernel kernel_index of m: the whole TU
 * with each variant (a definition of the same __global__ kernel) renamed
 * cl1cc_variant_N right after the original, main renamed, and
 * replay_header's main over the table {original, variant 0, ...}. */
int hn_replay_source(const tu_model *m, size_t kernel_index, const char *const *variants,
                     size_t n_variants, const char *replay_header, strbuf *out, strbuf *err);
/* The same for a template kernel: a row of the table per instantiation
 * (instances as the captures name them, "ns::k<256, float>"), the row a
 * capture's `instance` names being the one its launch runs; a variant is
 * the template rewritten.  A kernel defined in a header the TU includes
 * gets its variants at the end of the TU, in its namespaces.  instances
 * are ignored for a kernel that is no template. */
int hn_replay_source_instances(const tu_model *m, size_t kernel_index,
                               const char *const *variants, size_t n_variants,
                               const char *const *instances, size_t n_instances,
                               const char *replay_header, strbuf *out, strbuf *err);
/* A variant's text with its kernel's name (the first `name` after
 * __global__) replaced by new_name, in a; NULL if it has none. */
char *hn_rename_kernel(const char *text, const char *name, const char *new_name, arena *a);

/* ---- the judge (judge.c; settings in judge_settings.c, JSON in judge_json.c) */

enum { HN_MAX_VARIANTS = 64 };

/* How hard the judge looks.  They travel as one struct from `cl1cc tune`'s
 * options to the `cl1cc judge` command line (hn_judge_settings_argv writes
 * it, hn_judge_settings_option reads it) and into hn_judge. */
typedef struct hn_judge_settings {
    int seeds;             /* perturbed input sets besides the captured one */
    int rounds;            /* alternating timing rounds */
    int timed_runs;        /* timed launches per round */
    double timeout_s;      /* per run of the driver */
    int sanitize;          /* run the winner under compute-sanitizer */
    int isolate_every_run; /* a process per run, not only on the first input set */
    double rtol;           /* 0: per-dtype default */
    const char *key_env;   /* another variable holding an API key
                              (--cl1-llm-key-env VAR), hidden like
                              CL1CC_LLM_API_KEY; NULL: none */
} hn_judge_settings;

/* the judge's defaults: 2 seeds, 3 rounds, 20 timed runs, 30 s */
void hn_judge_settings_init(hn_judge_settings *s);
/* One option of the settings: --seeds N (a count), --rounds N, --runs N,
 * --timeout S (positive), --sanitize, --isolate, --cl1-llm-key-env VAR (a
 * variable name, borrowed).  value is the argument
 * after name (NULL if none).  Returns 0 when name is none of them, else
 * how many arguments it took (1 or 2), or -1 with err for a bad or missing
 * value. */
int hn_judge_settings_option(hn_judge_settings *s, const char *name, const char *value,
                             strbuf *err);
/* The options that give s to `cl1cc judge`, appended to argv (strings in a). */
void hn_judge_settings_argv(const hn_judge_settings *s, cstr_vec *argv, arena *a);

/* Generated code runs in the judge's children: none of them may see an API
 * key.  hn_judge_hide_keys removes CL1CC_LLM_API_KEY, OPENAI_API_KEY and
 * s->key_env from this process's environment (`cl1cc judge` calls it
 * first, so nvcc, the replay driver and compute-sanitizer inherit none);
 * the driver's runs also drop them, and CL1CC_CAPTURE_DIR, themselves.
 * 0, or -1 when one could not be removed. */
int hn_judge_hide_keys(const hn_judge_settings *s);

/* What to judge: one kernel of a TU, its captured launches and variants. */
typedef struct hn_judge_request {
    const char *file;   /* the user's TU */
    const char *kernel; /* qualified or plain name */
    const char *const *captures; /* folders with meta + allocN.in/.out */
    size_t n_captures;
    const char *const *variant_sources; /* definitions of the same kernel */
    const char *const *variant_labels;  /* may be NULL */
    size_t n_variants;
    const char *const *clang_flags;     /* for parsing the TU */
    size_t n_clang_flags;
    const char *const *nvcc_flags;      /* for building the driver */
    size_t n_nvcc_flags;
    hn_dtype param_dtypes[HN_MAX_ARGS]; /* pointee type of each parameter */
    size_t n_param_dtypes;
    const char *nvcc;
    const char *share_dir; /* holds runtime/cl1cc_replay.cuh */
    const char *work_dir;
    /* where judges of one run share the GPU's peaks (DIR/<GPU name>.peaks,
     * measured by the first that needs them); NULL: measured by this one */
    const char *peaks_dir;
    const char *arch;      /* to build for when there is no GPU; else the GPU's */
    hn_judge_settings settings;
} hn_judge_request;

typedef struct hn_variant_verdict {
    const char *label;
    char hash[65];    /* the variant's database hash (set by the caller; "" unknown) */
    verdict_kind verdict;
    char detail[1024];
    hn_timing timing;
    double speedup;
    int significant;  /* see hn_speedup */
    double pct_of_limit; /* hn_pct_of_limit of its median; NaN unknown */
} hn_variant_verdict;

typedef struct hn_judge_result {
    /* what was judged: set by the caller for the JSON (hn_judge leaves them) */
    const char *file, *kernel;
    size_t n_captures;
    char arch[16];
    char gpu_name[128];
    int ran_on_gpu;
    hn_timing original;
    hn_variant_verdict variants[HN_MAX_VARIANTS];
    size_t n_variants;
    /* a template kernel's: the instantiations its captures ran, one a
     * line (each variant passed on all of them, or failed), and the one of
     * the first capture, which is timed; "" for a kernel that is no template */
    char instances[4096];
    char timed_instance[1024];
    /* the timed capture's roofline on this GPU, and the original's median
     * as a percentage of its limit (NaN: unknown) */
    hn_roofline roofline;
    hn_device_peaks peaks;
    double original_pct_of_limit;
    /* where the time went: building the driver, the correctness runs
     * (reference, magnitudes, every input set), the timing rounds */
    double build_seconds, check_seconds, timing_seconds, total_seconds;
    /* of check_seconds, in the runs on the GPU (children: their start,
     * reading inputs, the kernels, writing outputs); the rest is copies,
     * input edits and comparisons here.  lock_wait_seconds: waiting for
     * the GPU's lock, all steps (other judges' timings and checks) */
    double check_run_seconds, lock_wait_seconds;
    /* of check_run_seconds: how many runs (each a child on the GPU), and
     * the longest of them (where a slow check goes: docs/HARNESS.md) */
    size_t check_runs;
    double slowest_check_run_seconds;
    /* captures not checked: the same launch on the same inputs as one
     * checked before (hn_captures_same_inputs) */
    size_t captures_repeated;
} hn_judge_result;

/* "sm_90" and the GPU's name from nvidia-smi; 0 when there is no GPU */
int hn_gpu_detect(char *arch, size_t arch_len, char *name, size_t name_len);
/* 0 when the judgement ran (each variant has its verdict), -1 when it
 * could not (the TU, the driver or the original kernel failed: err says) */
int hn_judge(const hn_judge_request *rq, hn_judge_result *res, strbuf *err);

/* The judgement as JSON (docs/HARNESS.md): what `cl1cc judge --json`
 * writes and `cl1cc tune` reads back, spelled here only.  The reader
 * leaves numbers the text lacks NaN, a verdict it lacks or does not know
 * VERDICT_UNKNOWN, and keeps strings in a; 0, or -1 with err. */
int hn_judge_json_write(const hn_judge_result *r, const char *path, strbuf *err);
int hn_judge_json_read(const char *text, hn_judge_result *r, arena *a, strbuf *err);

#endif
