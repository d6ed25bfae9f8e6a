/*
 * capture_cmd.c: `cl1cc capture --run CMD [--build CMD] [--out DIR]
 * [--limit N] FILES...`: builds the user's program with the launch sites of
 * FILES instrumented (cl1cc stands in for nvcc on PATH for the build), runs
 * it, and leaves for each kernel the first N launches, with their inputs and
 * outputs, under DIR/<file-tag>/k<kernel>/<n>.  With --build, both commands
 * run in a private copy of the current folder (tune_tree.c), FILES newer
 * there than anything built, so the user's tree is left as it was and an
 * up-to-date build still compiles FILES through cl1cc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "core.h"
#include "driver.h"
#include "harness.h"
#include "proc.h"
#include "splice_tu.h"
#include "tempfiles.h"
#include "tune.h"
#include "tunedb.h"

static int run_shell(const char *cmd, const char *cwd, const char *const *env, strbuf *err)
{
    const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    proc_options po;
    memset(&po, 0, sizeof po);
    po.cwd = cwd;
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
    cstr_vec files; /* absolute, canonical */
} capture_cli;

/* 0, or 2 after the usage or a message */
static int parse_args(int argc, char **argv, capture_cli *c, arena *a)
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
            vec_push(&c->files, arena_strdup(a, resolved));
        }
    }
    if (!c->run || !c->files.len) {
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

/* The build's private tree: a copy of the current folder (the captures and
 * the cache left out when they are inside it); 0, or -1 after a message */
static int private_tree(const char *out_abs, tune_tree_copy *t, arena *a, strbuf *err)
{
    char cache[PATH_MAX];
    const char *cache_dir = config_cache_dir(a);
    const char *skip[] = {out_abs, cache_dir && realpath(cache_dir, cache) ? cache : NULL, NULL};
    if (tune_tree_copy_make(".", skip, TUNE_TREE_COPY_MAX_BYTES, t, a, err) != 0) {
        log_error("capture: cannot copy this folder to build in: %s (--build runs in a copy of "
                  "the folder it is started in: start it in the project's folder)",
                  sb_str(err));
        return -1;
    }
    printf("capture: building in a copy of %s (%lld files, %.1f MB) under %s: "
           "%s itself is left as it is\n",
           t->root, t->files, (double)t->bytes / 1048576.0, t->copy, t->root);
    fflush(stdout);
    return 0;
}

/* The files to instrument, ':' between: each file, and its copy in the
 * private tree (made newer than anything built there, so that an up-to-date
 * build compiles it again); copies[i] is file i's copy, or NULL */
static const char *capture_list(const capture_cli *c, const tune_tree_copy *t, const char **copies,
                                arena *a)
{
    strbuf list;
    sb_init(&list);
    for (size_t i = 0; i < c->files.len; i++) {
        const char *copy = t ? tune_tree_copy_path(t, c->files.items[i], a) : NULL;
        if (copy && utimensat(AT_FDCWD, copy, NULL, 0) != 0) {
            log_warn("capture: %s: %s", copy, strerror(errno));
            copy = NULL;
        }
        copies[i] = copy;
        sb_printf(&list, "%s%s", i ? ":" : "", c->files.items[i]);
        if (copy)
            sb_printf(&list, ":%s", copy);
    }
    const char *out = arena_strdup(a, sb_str(&list));
    sb_free(&list);
    return out;
}

/* With --build, the captures of FILES are this run's alone: DIR/<tag> of
 * each file emptied before the build */
static void forget_old_captures(const capture_cli *c, const char *out_abs, arena *a)
{
    for (size_t i = 0; i < c->files.len; i++)
        tempfiles_remove_now(
            arena_printf(a, "%s/%s", out_abs, hn_capture_tag(c->files.items[i], a)));
}

/* The captures made under a copy's tag go under the user's file's tag (the
 * tag names the path compiled); a file the build did not compile through
 * cl1cc is said so, one line */
static void adopt_captures(const capture_cli *c, const char *const *copies, const char *out_abs,
                           arena *a)
{
    for (size_t i = 0; i < c->files.len; i++) {
        const char *file = c->files.items[i];
        const char *mine = arena_printf(a, "%s/%s", out_abs, hn_capture_tag(file, a));
        if (copies[i]) {
            const char *theirs = arena_printf(a, "%s/%s", out_abs, hn_capture_tag(copies[i], a));
            if (access(theirs, F_OK) == 0 && rename(theirs, mine) != 0) {
                log_warn("capture: %s: %s (%s compiled twice?)", mine, strerror(errno), file);
                tempfiles_remove_now(theirs);
            }
        }
        if (access(arena_printf(a, "%s/" SPLICE_INSTRUMENT_REPORT, mine), F_OK) != 0)
            log_warn("capture: %s: not built through cl1cc: --build did not compile it with "
                     "the nvcc on PATH (a compiler named by its full path, CMAKE_CUDA_COMPILER, "
                     "or a build folder made elsewhere?): none of its launches is captured",
                     file);
    }
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
    tune_tree_copy tree;
    if (c->build && private_tree(out_abs, &tree, a, err) != 0) {
        sb_free(&real);
        return 1;
    }
    const char **copies = arena_alloc(a, (c->files.len + 1) * sizeof *copies);
    const char *files = capture_list(c, c->build ? &tree : NULL, copies, a);
    if (c->build)
        forget_old_captures(c, out_abs, a);
    const char *cwd = c->build ? tree.copy : NULL;
    const char *path = getenv("PATH");
    const char *env[] = {
        arena_printf(a, "PATH=%s:%s", shim, path ? path : "/usr/bin:/bin"),
        arena_printf(a, "CL1CC_NVCC=%s", sb_str(&real)),
        arena_printf(a, "CL1CC_CAPTURE_FILES=%s", files),
        arena_printf(a, "CL1CC_CAPTURE_DIR=%s", out_abs),
        arena_printf(a, "CL1CC_CAPTURE_LIMIT=%s", c->limit),
        NULL};
    sb_free(&real);
    int rc = 0;
    double t0 = proc_now_seconds(), t1 = t0, t2 = t0;
    if (c->build && run_shell(c->build, cwd, env, err) != 0)
        rc = 1;
    double built = proc_now_seconds();
    if (rc == 0) {
        /* the program uses the GPU as a judge's check does: it shares the
         * GPU with other judges' checks, never runs through a timing;
         * CL1CC_CAPTURE_ALONE: alone, so that its time is its own (a bench
         * of several programs on one GPU) */
        int lock = hn_gpu_lock(config_capture_alone() ? HN_GPU_TIME : HN_GPU_CHECK);
        t1 = proc_now_seconds();
        if (run_shell(c->run, cwd, env, err) != 0)
            rc = 1;
        t2 = proc_now_seconds();
        hn_gpu_unlock(lock);
    }
    if (c->build)
        adopt_captures(c, copies, out_abs, a);
    if (rc == 0 && hn_captures_compress(out_abs, err) != 0)
        log_warn("capture: %s", sb_str(err)); /* raw files still serve */
    double phases[HN_CAPTURE_PHASES] = {built - t0, t2 - t1, proc_now_seconds() - t2};
    if (rc == 0 && hn_capture_phases_write(out_abs, phases) != 0)
        log_warn("capture: %s: %s", out_abs, strerror(errno)); /* only a report */
    if (rc)
        log_error("capture: %s", sb_str(err));
    else
        printf("captures under %s (compressed); build %.1f s, instrumented run %.1f s, "
               "compression %.1f s\n",
               out_abs, phases[HN_CAPTURE_BUILD], phases[HN_CAPTURE_RUN],
               phases[HN_CAPTURE_COMPRESS]);
    return rc;
}

int cmd_capture(int argc, char **argv)
{
    capture_cli c;
    memset(&c, 0, sizeof c);
    arena a;
    arena_init(&a);
    strbuf shim, err;
    sb_init(&shim);
    sb_init(&err);
    char out_abs[PATH_MAX];
    int rc = parse_args(argc, argv, &c, &a);
    if (rc == 0)
        rc = captures_dir(c.out, out_abs, &a);
    if (rc == 0)
        rc = make_shim(&shim, &a);
    if (rc == 0) {
        rc = build_and_run(&c, out_abs, sb_str(&shim), &a, &err);
        tempfiles_cleanup();
    }
    sb_free(&shim);
    vec_free(&c.files);
    sb_free(&err);
    arena_free(&a);
    return rc;
}
