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

typedef struct capture_cli {
    const char *run, *build, *out, *limit;
    strbuf files; /* absolute paths, ':' between */
    size_t nfiles;
} capture_cli;

/* 0, or 2 after the usage or a message */
static int parse_args(int argc, char **argv, capture_cli *c)
{
    c->limit = "3";
    for (int i = 0; i < argc; i++) {
        int more = i + 1 < argc;
        if (strcmp(argv[i], "--run") == 0 && more)
            c->run = argv[++i];
        else if (strcmp(argv[i], "--build") == 0 && more)
            c->build = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && more)
            c->out = argv[++i];
        else if (strcmp(argv[i], "--limit") == 0 && more)
            c->limit = argv[++i];
        else if (argv[i][0] == '-') {
            driver_usage("capture", stderr);
            return 2;
        } else {
            char resolved[PATH_MAX];
            if (!realpath(argv[i], resolved)) {
                log_error("capture: %s: %s", argv[i], strerror(errno));
                return 2;
            }
            sb_printf(&c->files, "%s%s", c->nfiles++ ? ":" : "", resolved);
        }
    }
    if (!c->run || !c->nfiles) {
        driver_usage("capture", stderr);
        return 2;
    }
    return 0;
}

/* --out, else the captures folder beside the tuning database, made, as
 * an absolute path in out_abs; 0, or 2 after a message */
static int captures_dir(const char *out, char out_abs[PATH_MAX], arena *a)
{
    if (!out) {
        const char *db = tunedb_default_path(a);
        char *dir = arena_strdup(a, db);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        out = arena_printf(a, "%s/captures", dir);
    }
    if (dir_create_all(out, 0755) != 0 || !realpath(out, out_abs)) {
        log_error("capture: %s: %s", out, strerror(errno));
        return 2;
    }
    return 0;
}

/* a temporary folder whose nvcc is this cl1cc, for PATH during the build;
 * 0, or 1 after a message */
static int make_shim(strbuf *shim, arena *a)
{
    if (tempfiles_make_dir("cl1cc-shim", shim) != 0) {
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
    const char *link = arena_printf(a, "%s/nvcc", sb_str(shim));
    if (symlink(self, link) != 0) {
        log_error("capture: %s: %s", link, strerror(errno));
        return 1;
    }
    return 0;
}

/* --build, then --run, with the capture's environment; the exit code */
static int build_and_run(const capture_cli *c, const char *out_abs, const char *shim,
                         arena *a, strbuf *err)
{
    strbuf real;
    sb_init(&real);
    if (driver_find_nvcc(&real, err) != 0) {
        log_error("capture: %s", sb_str(err));
        sb_free(&real);
        return 1;
    }
    const char *path = getenv("PATH");
    const char *env[] = {
        arena_printf(a, "PATH=%s:%s", shim, path ? path : "/usr/bin:/bin"),
        arena_printf(a, "CL1CC_NVCC=%s", sb_str(&real)),
        arena_printf(a, "CL1CC_CAPTURE_FILES=%s", sb_str(&c->files)),
        arena_printf(a, "CL1CC_CAPTURE_DIR=%s", out_abs),
        arena_printf(a, "CL1CC_CAPTURE_LIMIT=%s", c->limit),
        NULL};
    sb_free(&real);
    int rc = 0;
    if (c->build && run_shell(c->build, env, err) != 0)
        rc = 1;
    if (rc == 0 && run_shell(c->run, env, err) != 0)
        rc = 1;
    if (rc == 0 && hn_captures_compress(out_abs, err) != 0)
        log_warn("capture: %s", sb_str(err)); /* raw files still serve */
    if (rc)
        log_error("capture: %s", sb_str(err));
    else
        printf("captures under %s (compressed)\n", out_abs);
    return rc;
}

int cmd_capture(int argc, char **argv)
{
    capture_cli c;
    memset(&c, 0, sizeof c);
    sb_init(&c.files);
    arena a;
    arena_init(&a);
    strbuf shim, err;
    sb_init(&shim);
    sb_init(&err);
    char out_abs[PATH_MAX];
    int rc = parse_args(argc, argv, &c);
    if (rc == 0)
        rc = captures_dir(c.out, out_abs, &a);
    if (rc == 0)
        rc = make_shim(&shim, &a);
    if (rc == 0) {
        rc = build_and_run(&c, out_abs, sb_str(&shim), &a, &err);
        tempfiles_cleanup();
    }
    sb_free(&shim);
    sb_free(&c.files);
    sb_free(&err);
    arena_free(&a);
    return rc;
}
