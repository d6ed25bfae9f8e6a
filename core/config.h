/*
 * config.h: every CL1CC_* environment variable, read in one place
 * (core/config.c).  Callers ask these accessors, never getenv.  The one
 * table of the variables, what reads each and what it means, is
 * config_variables (config.c): `cl1cc --cl1-help` prints it, and README.md
 * ("Environment") shows the same.
 */
#ifndef CL1CC_CONFIG_H
#define CL1CC_CONFIG_H

#include <stddef.h>

#include "core.h"

typedef struct config_variable {
    const char *name;    /* "CL1CC_DB=PATH" */
    const char *read_by; /* "db", "wrapper", ... */
    const char *meaning;
} config_variable;

extern const config_variable config_variables[];
extern const size_t config_n_variables;

/* on: set, not empty and not "0" */
int config_disabled(void);
int config_verbose(void);
int config_no_pch(void);
/* CL1CC_NO_GPU_KEEPER: tune's pool holds no CUDA context open on its GPUs */
int config_no_gpu_keeper(void);
/* CL1CC_CAPTURE_ALONE: the capture's run takes the GPU's lock exclusive */
int config_capture_alone(void);

/* the variable's value, or NULL when unset or empty */
const char *config_nvcc(void);
const char *config_db_path_override(void);
const char *config_stub_dir(void);
const char *config_frontend(void);
const char *config_clang_resource_dir(void);
const char *config_slurm_bin_dir(void);
const char *config_capture_files(void);
const char *config_capture_dir(void);
const char *config_ci_tuner(void);
const char *config_test_fault(void);

/* The cache directory: $CL1CC_CACHE_DIR, else $XDG_CACHE_HOME/cl1cc (an
 * absolute XDG_CACHE_HOME only, as the XDG spec says), else
 * ~/.cache/cl1cc with ~ from $HOME or the password database.  NULL when
 * none is known.  The string lives in a. */
const char *config_cache_dir(arena *a);
/* $CL1CC_DB, else config_cache_dir()/tuning.db; NULL when neither */
const char *config_db_path(arena *a);
/* $CL1CC_DB_BUSY_MS, else fallback (with a warning when it is not a number
 * of milliseconds) */
int config_db_busy_ms(int fallback);
/* $CL1CC_PCH_CACHE_MB, else fallback (also when not a number) */
long long config_pch_cache_mb(long long fallback);
/* $CL1CC_MAX_SOURCE_MB in bytes, or 0 when unset or not a positive number */
size_t config_max_source_bytes(void);

#endif
