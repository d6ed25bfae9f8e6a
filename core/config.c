/*
 * config.c: see config.h.  The only getenv of a CL1CC_* variable in the C
 * code; values are read at each call, so a test that sets one sees it.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const config_variable config_variables[] = {
    {"CL1CC_DISABLE=1", "wrapper", "pure pass-through to nvcc"},
    {"CL1CC_VERBOSE=1", "all", "say what cl1cc does"},
    {"CL1CC_NVCC=PATH", "wrapper", "the real nvcc (default: the first nvcc on PATH that is not cl1cc)"},
    {"CL1CC_CACHE_DIR=DIR", "db, frontend",
     "the cache (default $XDG_CACHE_HOME/cl1cc for an absolute XDG_CACHE_HOME, else ~/.cache/cl1cc)"},
    {"CL1CC_DB=PATH", "db", "the tuning database (default CACHE/tuning.db)"},
    {"CL1CC_DB_BUSY_MS=N", "db", "how long to wait for another process's lock (default 5000)"},
    {"CL1CC_NO_PCH=1", "frontend", "no precompiled CUDA headers (CACHE/pch)"},
    {"CL1CC_PCH_CACHE_MB=N", "frontend", "cap of CACHE/pch, least recently used out (default 256)"},
    {"CL1CC_FRONTEND=PATH", "frontend", "the program holding libclang (default BIN/../libexec/cl1cc/cl1cc-frontend)"},
    {"CL1CC_STUB_DIR=DIR", "frontend",
     "clang's stand-ins for headers CUDA removed (default BIN/../share/cl1cc/clang-stubs)"},
    {"CL1CC_CLANG_RESOURCE_DIR=DIR", "frontend", "libclang's resource directory"},
    {"CL1CC_MAX_SOURCE_MB=N", "frontend", "the largest file parsed, in MiB (default 64)"},
    {"CL1CC_SLURM_BIN_DIR=DIR", "pool", "where sbatch and squeue are (default: PATH)"},
    {"CL1CC_NO_GPU_KEEPER=1", "tune",
     "no process holding a CUDA context on each GPU while the judges run (each run's CUDA start: 0.17 s with one, 0.32 s without)"},
    {"CL1CC_LLM_API_KEY=KEY", "policy",
     "the LLM's API key (--cl1-llm-key-env names another variable)"},
    {"CL1CC_CAPTURE_FILES=LIST", "wrapper", "set by cl1cc capture: the files to instrument"},
    {"CL1CC_CAPTURE_DIR=DIR", "wrapper, program", "set by cl1cc capture: where captures go"},
    {"CL1CC_CAPTURE_LIMIT=N", "program",
     "set by cl1cc capture: launches captured per kernel (read by the instrumented program)"},
    {"CL1CC_CAPTURE_HOST_COMPARE=1", "program",
     "the capture tells unchanged and repeated large allocations apart on the host (copied back), not by a fingerprint on the GPU"},
    {"CL1CC_CAPTURE_ALONE=1", "capture, tune",
     "the capture's run of the program takes the GPU's lock exclusive (benchmarks of several programs on one GPU: its time as if alone)"},
    {"CL1CC_CI_TUNER=PATH", "ci", "tests: the tuner cl1cc ci runs (default: cl1cc itself)"},
    {"CL1CC_TEST_FAULT=WHAT", "wrapper", "tests: make a step fail (\"tempfile\", \"parser-crash\", \"parser-crash-pch\")"},
};
const size_t config_n_variables = sizeof config_variables / sizeof config_variables[0];

static const char *value(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static int on(const char *name)
{
    const char *v = value(name);
    return v && strcmp(v, "0") != 0;
}

int config_disabled(void) { return on("CL1CC_DISABLE"); }
int config_verbose(void) { return on("CL1CC_VERBOSE"); }
int config_no_pch(void) { return on("CL1CC_NO_PCH"); }
int config_no_gpu_keeper(void) { return on("CL1CC_NO_GPU_KEEPER"); }
int config_capture_alone(void) { return on("CL1CC_CAPTURE_ALONE"); }
const char *config_frontend(void) { return value("CL1CC_FRONTEND"); }

const char *config_nvcc(void) { return value("CL1CC_NVCC"); }
const char *config_db_path_override(void) { return value("CL1CC_DB"); }
const char *config_stub_dir(void) { return value("CL1CC_STUB_DIR"); }
const char *config_clang_resource_dir(void) { return value("CL1CC_CLANG_RESOURCE_DIR"); }
const char *config_slurm_bin_dir(void) { return value("CL1CC_SLURM_BIN_DIR"); }
const char *config_capture_files(void) { return value("CL1CC_CAPTURE_FILES"); }
const char *config_capture_dir(void) { return value("CL1CC_CAPTURE_DIR"); }
const char *config_ci_tuner(void) { return value("CL1CC_CI_TUNER"); }
const char *config_test_fault(void) { return value("CL1CC_TEST_FAULT"); }

const char *config_cache_dir(arena *a)
{
    const char *dir = value("CL1CC_CACHE_DIR");
    if (dir)
        return arena_strdup(a, dir);
    /* the XDG spec says to ignore a relative $XDG_CACHE_HOME */
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/')
        return arena_printf(a, "%s/cl1cc", xdg);
    const char *home = getenv("HOME");
    if (!home || !*home) {
        const struct passwd *pw = getpwuid(getuid());
        home = pw ? pw->pw_dir : NULL;
    }
    if (home && *home)
        return arena_printf(a, "%s/.cache/cl1cc", home);
    return NULL;
}

const char *config_db_path(arena *a)
{
    const char *db = config_db_path_override();
    if (db)
        return arena_strdup(a, db);
    const char *cache = config_cache_dir(a);
    return cache ? arena_printf(a, "%s/tuning.db", cache) : NULL;
}

int config_db_busy_ms(int fallback)
{
    const char *env = value("CL1CC_DB_BUSY_MS");
    if (!env)
        return fallback;
    char *end;
    errno = 0;
    long v = strtol(env, &end, 10);
    if (errno || *end || v < 0 || v > INT_MAX) {
        log_warn("CL1CC_DB_BUSY_MS=%s is not a number of milliseconds: using %d", env, fallback);
        return fallback;
    }
    return (int)v;
}

size_t config_max_source_bytes(void)
{
    const char *env = value("CL1CC_MAX_SOURCE_MB");
    long mb = env ? atol(env) : 0;
    return mb > 0 ? (size_t)mb << 20 : 0;
}

long long config_pch_cache_mb(long long fallback)
{
    const char *env = value("CL1CC_PCH_CACHE_MB");
    if (!env)
        return fallback;
    char *end = NULL;
    long long mb = strtoll(env, &end, 10);
    return end && *end == '\0' && mb >= 0 ? mb : fallback;
}
