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
