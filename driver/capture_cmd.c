/*
 * capture_cmd.c: `cl1cc capture --run CMD [--build CMD] [--out DIR]
 * [--limit N] FILES...`: builds the user's program with the launch sites of
 * FILES instrumented (cl1cc stands in for nvcc on PATH for the build), runs
 * it, and leaves for each kernel the first N launches, with their inputs and
 * outputs, under DIR/<file-tag>/k<kernel>/<n>.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "driver.h"
#include "harness.h"
#include "proc.h"
#include "tempfiles.h"
#include "tunedb.h"

static int run_shell(const char *cmd, const char *const *env, strbuf *err)
{
    const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    proc_options po;
    memset(&po, 0, sizeof po);
    po.env_set = env;
    proc_result r;
    int rc = proc_run(argv, &po, &r);
    if (rc != 0 || !r.exited || r.exit_code != 0) {
        sb_printf(err, "`%s` failed (status %d)", cmd, proc_shell_status(&r));
        rc = -1;
    }
    proc_result_free(&r);
    return rc;
}

int cmd_capture(int argc, char **argv)
{
    const char *run = NULL, *build = NULL, *out = NULL, *limit = "3";
    arena a;
    arena_init(&a);
    strbuf files, err;
    sb_init(&files);
    sb_init(&err);
    size_t nfiles = 0;
    for (int i = 0; i < argc; i++) {
        int more = i + 1 < argc;
        if (strcmp(argv[i], "--run") == 0 && more)
            run = argv[++i];
        else if (strcmp(argv[i], "--build") == 0 && more)
            build = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && more)
            out = argv[++i];
        else if (strcmp(argv[i], "--limit") == 0 && more)
            limit = argv[++i];
        else if (argv[i][0] == '-') {
            driver_usage("capture", stderr);
            return 2;
        } else {
            char resolved[PATH_MAX];
            if (!realpath(argv[i], resolved)) {
                log_error("capture: %s: %s", argv[i], strerror(errno));
                return 2;
            }
            sb_printf(&files, "%s%s", nfiles++ ? ":" : "", resolved);
        }
    }
    if (!run || !nfiles) {
        driver_usage("capture", stderr);
        return 2;
    }
    if (!out) {
        const char *db = tunedb_default_path(&a);
        char *dir = arena_strdup(&a, db);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        out = arena_printf(&a, "%s/captures", dir);
    }
    char out_abs[PATH_MAX];
    if (dir_create_all(out, 0755) != 0 || !realpath(out, out_abs)) {
        log_error("capture: %s: %s", out, strerror(errno));
        return 2;
    }
    /* nvcc on PATH is this cl1cc during the build */
    strbuf shim;
    sb_init(&shim);
    if (tempfiles_make_dir("cl1cc-shim", &shim) != 0) {
        log_error("capture: cannot make a temporary folder: %s", strerror(errno));
        return 1;
    }
    tempfiles_install_handlers();
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        log_error("capture: cannot find cl1cc itself");
        return 1;
    }
    self[n] = '\0';
    const char *link = arena_printf(&a, "%s/nvcc", sb_str(&shim));
    if (symlink(self, link) != 0) {
        log_error("capture: %s: %s", link, strerror(errno));
        return 1;
    }
    strbuf real;
    sb_init(&real);
    if (driver_find_nvcc(&real, &err) != 0) {
        log_error("capture: %s", sb_str(&err));
        return 1;
    }
    const char *path = getenv("PATH");
    const char *env[] = {
        arena_printf(&a, "PATH=%s:%s", sb_str(&shim), path ? path : "/usr/bin:/bin"),
        arena_printf(&a, "CL1CC_NVCC=%s", sb_str(&real)),
        arena_printf(&a, "CL1CC_CAPTURE_FILES=%s", sb_str(&files)),
        arena_printf(&a, "CL1CC_CAPTURE_DIR=%s", out_abs),
        arena_printf(&a, "CL1CC_CAPTURE_LIMIT=%s", limit),
        NULL};
    int rc = 0;
    if (build && run_shell(build, env, &err) != 0)
        rc = 1;
    if (rc == 0 && run_shell(run, env, &err) != 0)
        rc = 1;
    if (rc == 0 && hn_captures_compress(out_abs, &err) != 0)
        log_warn("capture: %s", sb_str(&err)); /* raw files still serve */
    if (rc)
        log_error("capture: %s", sb_str(&err));
    else
        printf("captures under %s (compressed)\n", out_abs);
    tempfiles_cleanup();
    sb_free(&shim);
    sb_free(&real);
    sb_free(&files);
    sb_free(&err);
    arena_free(&a);
    return rc;
}
