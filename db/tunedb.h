/*
 * tunedb.h: the tuning database: kernels seen, the variants the harness
 * measured for them (verified or not) and every evaluation it made.  One
 * SQLite file shared by many cl1cc processes at once (WAL, busy retries).
 */
#ifndef CL1CC_TUNEDB_H
#define CL1CC_TUNEDB_H

#include "core.h"

/* The schema version this cl1cc writes and reads (PRAGMA user_version). */
#define TUNEDB_SCHEMA_VERSION 2
/* PRAGMA application_id of a cl1cc tuning database: "cl1c". */
#define TUNEDB_APPLICATION_ID 0x636c3163
/* Version of the kernel-key serialization: bump it when anything that
 * decides generated code joins the key, and every old entry stops
 * matching (it is never applied to code it was not measured on). */
#define TUNEDB_KEY_FORMAT 1

typedef struct tunedb tunedb;

/* $CL1CC_DB if set, else tuning.db in the cache directory
 * ($CL1CC_CACHE_DIR, else $XDG_CACHE_HOME/cl1cc, else ~/.cache/cl1cc: the
 * one rule of core/config.h).  NULL when none of these is known.  The
 * string lives in a. */
const char *tunedb_default_path(arena *a);

typedef enum { TUNEDB_READONLY, TUNEDB_READWRITE } tunedb_mode;

/* Opens the database at path.  Returns 0 and *out; or 1 and *out = NULL for
 * READONLY when there is no database yet (the file is missing or empty, or
 * path is NULL): not an error, nothing is written to err; or -1 with a
 * message naming the file in err (not an SQLite file, truncated or corrupt,
 * another program's database, written by a newer cl1cc, not writable...).
 * READWRITE creates the folders, the file and the schema.  Every connection
 * waits up to 5 s for another process's lock: CL1CC_DB_BUSY_MS sets how
 * long (a malformed value is warned about and the 5 s kept). */
int tunedb_open(const char *path, tunedb_mode mode, tunedb **out, strbuf *err);
/* NULL is fine. */
void tunedb_close(tunedb *db);
/* PRAGMA integrity_check: 0 when the file is sound, else -1 and the first
 * problems in err.  Reads the whole file: for tests and reports, not for
 * every compile. */
int tunedb_check(tunedb *db, strbuf *err);

/* ---- keys (pure: no database involved) ----------------------------------- */

/* Everything that decides the code generated for one kernel.  A NULL string
 * counts as "".  Bytes are taken exactly: whitespace is not normalized, and
 * lists are hashed in the order given (the caller normalizes the flags). */
typedef struct tunedb_key_input {
    const char *kernel_source;        /* the kernel's definition, exact bytes */
    const char *const *dep_sources;   /* every device function, type, macro,
                                         global it depends on, transitively,
                                         in a stable order */
    size_t n_deps;
    const char *arch;                 /* "sm_90" */
    const char *const *codegen_flags; /* normalized flags that change code */
    size_t n_flags;
    const char *launch_signature;     /* template arguments, or "" */
} tunedb_key_input;

/* SHA-256 (64 lowercase hex digits) over a length-prefixed serialization of
 * the fields, after a tag holding TUNEDB_KEY_FORMAT. */
void tunedb_kernel_key(const tunedb_key_input *in, char out[65]);
/* The identity of a variant: SHA-256 over its source and launch edits
 * (NULL and "" alike), length-prefixed.  The db stores it with each
 * variant; the harness uses the same hash for its evaluations. */
void tunedb_variant_hash(const char *source, const char *launch_edits, char out[65]);
/* 1 when s is 64 lowercase hex digits. */
int tunedb_is_key(const char *s);

/* ---- kernels --------------------------------------------------------------- */

/* Inserts the kernel or, when its key is known, updates name, file, source
 * and features and its last_seen time.  features_json: NULL or valid JSON.
 * 0 or -1. */
int tunedb_record_kernel(tunedb *db, const char *key, const char *kernel_name,
                         const char *file, const char *original_source,
                         const char *features_json, strbuf *err);

/* ---- variants -------------------------------------------------------------- */

typedef struct tunedb_variant {
    long long id;               /* filled by the db on insert */
    const char *kernel_key;     /* 64 hex digits (tunedb_kernel_key) */
    const char *kernel_name;
    const char *arch;           /* "sm_90" */
    const char *source;         /* the replacement kernel definition */
    const char *launch_edits;   /* JSON of launch-site edits, or NULL */
    const char *hash;           /* tunedb_variant_hash, filled by the db */
    const char *policy;         /* "builtin", "llm:<model>" ... */
    const char *transforms;     /* "restrict,unroll4"; NULL is "" */
    int verified;               /* 1 only when the harness proved it equal */
    /* NaN means not measured (stored as NULL); an infinity is refused. */
    double baseline_ms, variant_ms, spread_ms, speedup;
    const char *gpu_name;       /* "NVIDIA H200", or NULL */
    const char *created_at;     /* ISO-8601 UTC with milliseconds, by the db */
    /* a template kernel's variant: the instantiations it was verified on,
     * one a line ("k<256, float>\nk<128, float>"), as the captures name
     * them; NULL for a kernel that is no template.  The wrapper and
     * `cl1cc rewrite` apply it to launches of these only. */
    const char *instances;
} tunedb_variant;

typedef struct tunedb_variant_list {
    tunedb_variant *items;
    size_t len;
} tunedb_variant_list;

/* Inserts v (id, hash and created_at are ignored) in one transaction; a
 * kernel nobody recorded gets a bare kernels row (key and name) in the same
 * one.  arch and source are required; launch_edits must be valid JSON.
 * *id_out (may be NULL) gets the new id.  0 or -1. */
int tunedb_record_variant(tunedb *db, const tunedb_variant *v, long long *id_out,
                          strbuf *err);
/* The variant to apply: verified, speedup > 1, for this key and arch; the
 * highest speedup, and of equal ones the newest.  1 found (*out filled,
 * strings in a), 0 none, -1 error. */
int tunedb_best_variant(tunedb *db, const char *key, const char *arch, arena *a,
                        tunedb_variant *out, strbuf *err);
/* Every variant of key (and of arch, unless arch is NULL), oldest first,
 * verified or not.  The array and its strings live in a.  0 or -1. */
int tunedb_list_variants(tunedb *db, const char *key, const char *arch, arena *a,
                         tunedb_variant_list *out, strbuf *err);

/* The (qualified) names of kernels that have a variant to apply on arch:
 * the wrapper's cheap test of whether a TU needs parsing at all.  In a.
 * 0 or -1. */
typedef struct tunedb_name_list {
    const char **items;
    size_t len;
} tunedb_name_list;
int tunedb_applicable_kernel_names(tunedb *db, const char *arch, arena *a,
                                   tunedb_name_list *out, strbuf *err);

/* Every kernel recorded with features (the tuner's chooser learns from
 * them), ordered by key; in a.  0 or -1. */
typedef struct tunedb_kernel_row {
    const char *key, *name, *features_json;
} tunedb_kernel_row;
typedef struct tunedb_kernel_list {
    tunedb_kernel_row *items;
    size_t len;
} tunedb_kernel_list;
int tunedb_list_kernels_with_features(tunedb *db, arena *a, tunedb_kernel_list *out,
                                      strbuf *err);

/* ---- evaluations: every measurement, failed ones too ---------------------- */

typedef struct tunedb_evaluation {
    long long id;
    const char *kernel_key;
    const char *variant_hash; /* tunedb_variant_hash of what was evaluated */
    const char *verdict;      /* "pass", "wrong", "build_error", "crash",
                                 "timeout", ... */
    double ms;                /* NaN when there is no time */
    const char *detail;       /* free text, or NULL */
    const char *created_at;
} tunedb_evaluation;

typedef struct tunedb_evaluation_list {
    tunedb_evaluation *items;
    size_t len;
} tunedb_evaluation_list;

/* ms: NaN when there is none.  As for variants, a kernel nobody recorded
 * gets a bare row.  0 or -1. */
int tunedb_record_evaluation(tunedb *db, const char *key, const char *variant_hash,
                             const char *verdict, double ms, const char *detail,
                             strbuf *err);
/* Every evaluation of key, oldest first; in a.  0 or -1. */
int tunedb_list_evaluations(tunedb *db, const char *key, arena *a,
                            tunedb_evaluation_list *out, strbuf *err);

/* ---- administration (tunedb_admin.c): `cl1cc db` ------------------------ */

typedef struct tunedb_stats {
    long long kernels, variants, verified, applicable, evaluations;
    /* "sm_90 3" lines: applicable variants per arch, in a */
    const char *applicable_by_arch;
} tunedb_stats;
int tunedb_get_stats(tunedb *db, arena *a, tunedb_stats *out, strbuf *err);

/* Every variant (only the applicable ones: verified, speedup > 1, when
 * applicable_only), by id; in a.  0 or -1. */
int tunedb_all_variants(tunedb *db, int applicable_only, arena *a, tunedb_variant_list *out,
                        strbuf *err);
/* The variant of this id: 1 found, 0 none, -1 error.  In a. */
int tunedb_variant_by_id(tunedb *db, long long id, arena *a, tunedb_variant *out, strbuf *err);
/* The kernel's recorded file, name and times (NULL when unknown); in a. */
typedef struct tunedb_kernel_info {
    const char *key, *name, *file, *created_at, *last_seen;
} tunedb_kernel_info;
int tunedb_kernel_by_key(tunedb *db, const char *key, arena *a, tunedb_kernel_info *out,
                         strbuf *err);

/* Removes the variant of this id (1), or reports there is none (0); -1
 * error.  Its evaluations stay (the record of what was measured). */
int tunedb_remove_variant(tunedb *db, long long id, strbuf *err);
/* Removes every kernel whose key starts with key_or_name (8 hex digits at
 * least) or whose (qualified) name it is, with their variants and
 * evaluations; *removed gets the number of kernels.  0 or -1. */
int tunedb_remove_kernels(tunedb *db, const char *key_or_name, long long *removed, strbuf *err);

/* The whole database as readable JSON (docs/DATABASE.md, "Export"):
 * kernels by key with their variants and evaluations in a stable order, no
 * row ids, so that an export is committable and diffs well.  Appended to
 * out.  0 or -1. */
int tunedb_export_json(tunedb *db, strbuf *out, strbuf *err);

typedef struct tunedb_import_counts {
    long long kernels, variants, evaluations; /* rows added */
    long long variants_present;               /* already there: skipped */
} tunedb_import_counts;
/* Merges an export into db, in one transaction: kernels are upserted,
 * variants and evaluations not present yet (same kernel, arch, hash, time,
 * GPU; same variant, verdict, time) are added.  replace: each kernel of
 * the export replaces the database's whole (its variants and evaluations),
 * later imports winning.  0, or -1 (nothing changed) with a message. */
int tunedb_import_json(tunedb *db, const char *json, int replace, tunedb_import_counts *counts,
                       strbuf *err);

/* A fingerprint of what can apply: SHA-256 over every applicable variant
 * (id, key, arch, hash, speedup), in 64 hex digits.  0 or -1. */
int tunedb_stamp(tunedb *db, char out[65], strbuf *err);

/* ---- the log of applications (applied_log.c) ----------------------------- */

/* Appends one line (time, arch, speedup, id, hash, kernel, file) to the log
 * beside db (its path + "-applied.log"), cut to its newer half past 1 MiB:
 * the nvcc wrapper calls it when it splices a variant in.  Failures are
 * ignored (it is a record, not the build). */
void tunedb_log_applied(tunedb *db, const tunedb_variant *v, const char *file);
/* The log's path for the database at db_path; in a. */
const char *tunedb_applied_log_path(const char *db_path, arena *a);

#endif
