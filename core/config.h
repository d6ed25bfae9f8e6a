/*
 * config.h: every CL1CC_* environment variable, read in one place
 * (core/config.c).  Callers ask these accessors, never getenv.  The table
 * (also in README.md, "Environment"):
 *
 *   variable                  read by        meaning
 *   CL1CC_DISABLE=1           wrapper        pure pass-through to nvcc
 *   CL1CC_VERBOSE=1           all            say what cl1cc does
 *   CL1CC_NVCC=PATH           wrapper        the real nvcc (default: the first nvcc on
 *                                            PATH that is not cl1cc)
 *   CL1CC_CACHE_DIR=DIR       db, frontend   the cache (default $XDG_CACHE_HOME/cl1cc
 *                                            for an absolute XDG_CACHE_HOME, else
 *                                            ~/.cache/cl1cc)
 *   CL1CC_DB=PATH             db             the tuning database (default
 *                                            CACHE/tuning.db)
 *   CL1CC_DB_BUSY_MS=N        db             how long to wait for another process's
 *                                            lock (default 5000)
 *   CL1CC_NO_PCH=1            frontend       no precompiled CUDA headers (CACHE/pch)
 *   CL1CC_STUB_DIR=DIR        frontend       clang's stand-ins for headers CUDA removed
 *                                            (default <bin>/../share/cl1cc/clang-stubs)
 *   CL1CC_CLANG_RESOURCE_DIR  frontend       libclang's resource directory
 *   CL1CC_MAX_SOURCE_MB=N     frontend       the largest file parsed (default 64)
 *   CL1CC_SLURM_BIN_DIR=DIR   pool           where sbatch and squeue are (default PATH)
 *   CL1CC_CAPTURE_FILES, _DIR wrapper        set by `cl1cc capture` for the build it
 *                                            runs: the files to instrument, where
 *                                            captures go
 *   CL1CC_CAPTURE_LIMIT=N     the program    set by `cl1cc capture`: launches captured
 *                                            per kernel (read by the instrumented
 *                                            program, harness/runtime/cl1cc_capture.cuh)
 *   CL1CC_LLM_API_KEY         policy         the LLM's API key (the default of
 *                                            --cl1-llm-key-env: another name may be
 *                                            given, so policy/ reads it by name)
 *   CL1CC_CI_TUNER=PATH       ci             the tuner `cl1cc ci` runs (tests)
 *   CL1CC_TEST_FAULT=WHAT     wrapper        tests: make a step fail ("tempfile")
 */
#ifndef CL1CC_CONFIG_H
#define CL1CC_CONFIG_H

#include <stddef.h>

#include "core.h"

/* on: set, not empty and not "0" */
int config_disabled(void);
int config_verbose(void);
int config_no_pch(void);

/* the variable's value, or NULL when unset or empty */
const char *config_nvcc(void);
const char *config_db_path_override(void);
const char *config_stub_dir(void);
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
/* $CL1CC_MAX_SOURCE_MB in bytes, or 0 when unset or not a positive number */
size_t config_max_source_bytes(void);

#endif
