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
#include "driver.h"
#include "rewrite.h"

static void report_file_error(const char *path, const char *what, int errnum)
{
    fprintf(stderr, "%s: error: %s: %s\n", path, what, strerror(errnum));
}

/* ---- the commands --------------------------------------------------------------- */

int cmd_rewrite(int argc, char **argv)
{
    int mode = -1, nvcc_from = argc;
    const char *arch = NULL;
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
    /* sources among the nvcc arguments are files too: pre-commit appends
     * the file names after the hook's own arguments */
    for (size_t i = 0; i < cl.inputs.len; i++)
        if (cl.inputs.items[i].lang == NVCC_LANG_CU)
            vec_push(&files, cl.inputs.items[i].path);
    int rc = 2;
    arena a;
    arena_init(&a);
    cstr_vec archs = {0};
    if (mode < 0 || !files.len) {
        if (mode < 0)
            log_error("rewrite: say --in-place, --patch or --check");
        else
            log_error("rewrite: no files");
        driver_usage("rewrite", stderr);
    } else if (apply_archs(arch, &cl, NULL, &a, &archs, &err) != 0) {
        log_error("rewrite: %s", sb_str(&err));
    } else {
        rewrite_request rq;
        rq.files = files.items;
        rq.n_files = files.len;
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
        } else if (mode == REWRITE_CHECK && rc == 0 && res.applied.len) {
            fprintf(stderr, "cl1cc: %zu kernel(s) in %zu file(s) can be rewritten with verified "
                            "faster variants: run cl1cc rewrite --in-place\n",
                    res.applied.len, res.files_changed);
            rc = 3;
        }
        rewrite_result_free(&res);
    }
    vec_free(&archs);
    arena_free(&a);
    nvcc_cmdline_free(&cl);
    sb_free(&err);
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
