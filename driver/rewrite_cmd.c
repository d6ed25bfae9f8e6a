/*
 * rewrite_cmd.c: `cl1cc rewrite (--in-place|--patch|--check) FILES [--arch
 * sm_XX] [-- NVCC-FLAGS]` puts the best verified variant of each kernel
 * into the user's source behind a provenance marker (rewrite_plan.h), and
 * `cl1cc revert FILES` takes it out again, byte for byte.
 */
#include "rewrite_plan.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "compdb.h"
#include "driver.h"
#include "rewrite.h"

static void report_file_error(const char *path, const char *what, int errnum)
{
    fprintf(stderr, "%s: error: %s: %s\n", path, what, strerror(errnum));
}

/* ---- the commands --------------------------------------------------------------- */

/* Files that compile with the same nvcc arguments. */
typedef struct rewrite_group {
    cstr_vec args;
    cstr_vec files;
} rewrite_group;
typedef VEC(rewrite_group) rewrite_group_vec;

static void add_to_group(rewrite_group_vec *groups, cstr_vec *args, const char *file)
{
    for (size_t g = 0; g < groups->len; g++)
        if (cstr_vec_equal(&groups->items[g].args, args)) {
            vec_push(&groups->items[g].files, file);
            vec_free(args);
            return;
        }
    rewrite_group grp = {*args, {0}};
    vec_push(&grp.files, file);
    vec_push(groups, grp);
    memset(args, 0, sizeof *args);
}

typedef struct rewrite_totals {
    size_t applied, files_changed;
} rewrite_totals;

/* One group: its archs, its rewrite; the patch printed.  0, 1, or 2. */
static int rewrite_group_run(const rewrite_group *grp, int mode, const char *arch,
                             rewrite_totals *t)
{
    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    arena a;
    arena_init(&a);
    cstr_vec archs = {0};
    int rc = 2;
    if (nvcc_cmdline_parse((int)grp->args.len, (char **)grp->args.items, &cl, &err) != 0) {
        log_error("rewrite: %s", sb_str(&err));
    } else if (apply_archs(arch, &cl, NULL, &a, &archs, &err) != 0) {
        log_error("rewrite: %s", sb_str(&err));
    } else if (!archs.len) {
        rc = 0; /* the flags target no arch a variant can be verified on */
    } else {
        rewrite_request rq;
        rq.files = grp->files.items;
        rq.n_files = grp->files.len;
        rq.flags = &cl;
        rq.archs = archs.items;
        rq.n_archs = archs.len;
        rq.mode = (rewrite_mode)mode;
        rewrite_result res;
        rc = rewrite_run(&rq, &res);
        if (mode == REWRITE_PATCH) {
            fwrite(sb_str(&res.patch), 1, res.patch.len, stdout);
            if (fflush(stdout) != 0) {
                log_error("rewrite: cannot write the patch: %s", strerror(errno));
                rc = 1;
            }
        }
        t->applied += res.applied.len;
        t->files_changed += res.files_changed;
        rewrite_result_free(&res);
    }
    vec_free(&archs);
    arena_free(&a);
    nvcc_cmdline_free(&cl);
    sb_free(&err);
    return rc;
}

/* The files grouped by their flags: those of -p's compile_commands.json
 * (each file its own) before the explicit ones, or the explicit ones; 0, or
 * 2 after a message. */
static int group_files(const char *build_dir, const cstr_vec *files, char **explicit_args,
                       int n_explicit, arena *a, rewrite_group_vec *groups)
{
    for (size_t f = 0; f < files->len; f++) {
        cstr_vec args = {0};
        strbuf err;
        sb_init(&err);
        if (build_dir && compdb_flags(build_dir, files->items[f], a, &args, &err) != 0) {
            log_error("rewrite: %s", sb_str(&err));
            sb_free(&err);
            vec_free(&args);
            return 2;
        }
        sb_free(&err);
        for (int i = 0; i < n_explicit; i++)
            vec_push(&args, explicit_args[i]);
        add_to_group(groups, &args, files->items[f]);
    }
    return 0;
}

int cmd_rewrite(int argc, char **argv)
{
    int mode = -1, nvcc_from = argc;
    const char *arch = NULL, *build_dir = NULL;
    cstr_vec files = {0};
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            nvcc_from = i + 1;
            break;
        } else if (strcmp(arg, "--in-place") == 0 || strcmp(arg, "-i") == 0) {
            mode = REWRITE_IN_PLACE;
        } else if (strcmp(arg, "--patch") == 0) {
            mode = REWRITE_PATCH;
        } else if (strcmp(arg, "--check") == 0) {
            mode = REWRITE_CHECK;
        } else if (strcmp(arg, "--arch") == 0 && i + 1 < argc) {
            arch = argv[++i];
        } else if (strncmp(arg, "--arch=", 7) == 0) {
            arch = arg + 7;
        } else if (strcmp(arg, "-p") == 0 && i + 1 < argc) {
            build_dir = argv[++i];
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            driver_usage("rewrite", stderr);
            vec_free(&files);
            return 0;
        } else if (arg[0] == '-') {
            log_error("rewrite: unknown option '%s'", arg);
            driver_usage("rewrite", stderr);
            vec_free(&files);
            return 2;
        } else {
            vec_push(&files, arg);
        }
    }
    /* sources among the nvcc arguments are files too (pre-commit appends
     * the file names after the hook's own arguments); the rest are flags */
    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    if (nvcc_cmdline_parse(argc - nvcc_from, argv + nvcc_from, &cl, &err) != 0) {
        log_error("rewrite: %s", sb_str(&err));
        nvcc_cmdline_free(&cl);
        sb_free(&err);
        vec_free(&files);
        return 2;
    }
    sb_free(&err);
    cstr_vec flags = {0};
    for (size_t i = 0; i < cl.argv.len; i++) {
        int source = 0;
        for (size_t k = 0; k < cl.inputs.len && !source; k++)
            source = cl.inputs.items[k].arg_index == i && cl.inputs.items[k].lang == NVCC_LANG_CU;
        if (source)
            vec_push(&files, cl.argv.items[i]);
        else
            vec_push(&flags, cl.argv.items[i]);
    }
    int rc = 2;
    arena a;
    arena_init(&a);
    rewrite_group_vec groups = {0};
    if (mode < 0 || !files.len) {
        if (mode < 0)
            log_error("rewrite: say --in-place, --patch or --check");
        else
            log_error("rewrite: no files");
        driver_usage("rewrite", stderr);
    } else if (group_files(build_dir, &files, (char **)flags.items, (int)flags.len, &a,
                           &groups) == 0) {
        rewrite_totals t = {0, 0};
        rc = 0;
        for (size_t g = 0; g < groups.len; g++) {
            int grc = rewrite_group_run(&groups.items[g], mode, arch, &t);
            if (grc > rc)
                rc = grc;
        }
        if (mode == REWRITE_CHECK && rc == 0 && t.applied) {
            fprintf(stderr, "cl1cc: %zu kernel(s) in %zu file(s) can be rewritten with verified "
                            "faster variants: run cl1cc rewrite --in-place\n",
                    t.applied, t.files_changed);
            rc = 3;
        }
    }
    for (size_t g = 0; g < groups.len; g++) {
        vec_free(&groups.items[g].args);
        vec_free(&groups.items[g].files);
    }
    vec_free(&groups);
    vec_free(&flags);
    nvcc_cmdline_free(&cl);
    arena_free(&a);
    vec_free(&files);
    return rc;
}

int cmd_revert(int argc, char **argv)
{
    int patch = 0, rc = 0;
    cstr_vec files = {0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--patch") == 0) {
            patch = 1;
        } else if (strcmp(argv[i], "--in-place") == 0 || strcmp(argv[i], "-i") == 0) {
            patch = 0;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            driver_usage("revert", stderr);
            vec_free(&files);
            return 0;
        } else if (argv[i][0] == '-' && strcmp(argv[i], "--") != 0) {
            log_error("revert: unknown option '%s'", argv[i]);
            driver_usage("revert", stderr);
            vec_free(&files);
            return 2;
        } else if (strcmp(argv[i], "--") != 0) {
            vec_push(&files, argv[i]);
        }
    }
    if (!files.len) {
        driver_usage("revert", stderr);
        return 2;
    }
    arena a;
    arena_init(&a);
    strbuf diff;
    sb_init(&diff);
    /* the project headers each file includes beside it: `cl1cc rewrite`
     * edits a header kernel in its header (each file once) */
    size_t named = files.len;
    cstr_vec seen = {0};
    for (size_t i = 0; i < files.len; i++) {
        const char *path = files.items[i];
        char real[PATH_MAX];
        char *text;
        size_t len;
        int again = 0;
        if (realpath(path, real))
            for (size_t j = 0; j < seen.len && !again; j++)
                again = strcmp(seen.items[j], real) == 0;
        if (again)
            continue;
        if (!realpath(path, real) || file_read_all(path, 0, &text, &len) != 0) {
            if (i >= named)
                continue; /* an include the compiler would not find here */
            report_file_error(path, "cannot read it", errno);
            rc = 1;
            continue;
        }
        vec_push(&seen, arena_strdup(&a, real));
        if (i < named)
            apply_local_includes(path, text, len, &a, &files);
        strbuf out, err;
        sb_init(&out);
        sb_init(&err);
        long n = rw_revert(text, len, path, &out, &err);
        if (n < 0) {
            /* "path:line: message" */
            const char *msg = sb_str(&err);
            size_t plen = strlen(path);
            const char *colon = strncmp(msg, path, plen) == 0 && msg[plen] == ':'
                                    ? strchr(msg + plen + 1, ':')
                                    : NULL;
            if (colon)
                fprintf(stderr, "%.*s: error:%s\n", (int)(colon - msg), msg, colon + 1);
            else
                fprintf(stderr, "%s: error: %s\n", path, msg);
            rc = 1;
        } else if (n > 0 && patch) {
            rw_unified_diff(rewrite_patch_path(path, &a), text, len, sb_str(&out), out.len, 3,
                            &diff);
        } else if (n > 0) {
            if (file_write_atomic(real, sb_str(&out), out.len) != 0) {
                report_file_error(path, "not reverted: cannot write it", errno);
                rc = 1;
            } else {
                fprintf(stderr, "%s: %ld cl1cc rewrite(s) reverted\n", path, n);
            }
        }
        sb_free(&out);
        sb_free(&err);
        free(text);
    }
    if (patch) {
        fwrite(sb_str(&diff), 1, diff.len, stdout);
        if (fflush(stdout) != 0)
            rc = 1;
    }
    sb_free(&diff);
    vec_free(&seen);
    arena_free(&a);
    vec_free(&files);
    return rc;
}
