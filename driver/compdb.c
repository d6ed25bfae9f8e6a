/*
 * compdb.c: compdb.h: the frontend's reader of compile_commands.json (its
 * "command" and "arguments" forms, split as a shell would), then the flags
 * that matter to cl1cc, with relative paths made absolute.
 */
#include "compdb.h"

#include "frontend.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int same_file(const char *arg, const char *dir, const char *absolute)
{
    char path[PATH_MAX], real[PATH_MAX];
    if (arg[0] == '/')
        snprintf(path, sizeof path, "%s", arg);
    else
        snprintf(path, sizeof path, "%s/%s", dir, arg);
    return strcmp(path, absolute) == 0 || (realpath(path, real) && strcmp(real, absolute) == 0);
}

static const char *absolute_in(const char *path, const char *dir, arena *a)
{
    return path[0] == '/' ? path : arena_printf(a, "%s/%s", dir, path);
}

/* the options dropped with the value after them, and alone */
static const char *const drop_with_value[] = {"-o", "--output-file", "-MF", "-MT",
                                              "--dependency-output",
                                              "--dependency-target-name", NULL};
static const char *const drop_alone[] = {"-c", "--compile", "-MD", "-MMD",
                                         "--generate-dependencies-with-compile",
                                         "--generate-nonsystem-dependencies-with-compile", NULL};
static const char *const path_value[] = {"-isystem", "-include", "-optf", "--options-file",
                                         "--include-path", "--system-include",
                                         "--pre-include", NULL};

static int in_list(const char *arg, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(arg, list[i]) == 0)
            return 1;
    return 0;
}

/* "--output-file=x" and the like */
static int attached_in_list(const char *arg, const char *const *list)
{
    for (size_t i = 0; list[i]; i++) {
        size_t n = strlen(list[i]);
        if (strncmp(arg, list[i], n) == 0 && arg[n] == '=')
            return 1;
    }
    return 0;
}

static void push_arg(cstr_vec *out, const char *arg, const char *dir, arena *a)
{
    if (strncmp(arg, "-I", 2) == 0 && arg[2] && arg[2] != '/')
        vec_push(out, arena_printf(a, "-I%s/%s", dir, arg + 2));
    else if (strcmp(arg, "-dc") == 0 || strcmp(arg, "--device-c") == 0)
        vec_push(out, "-rdc=true");
    else
        vec_push(out, arena_strdup(a, arg));
}

int compdb_flags(const char *build_dir, const char *file, arena *a, cstr_vec *out, strbuf *err)
{
    /* read with cJSON (frontend/compdb.c): cl1cc loads no libclang */
    str_vec words = {0};
    const char *dir = NULL;
    if (fe_compdb_command(build_dir, file, a, &words, &dir, err) != 0) {
        vec_free(&words);
        return -1;
    }
    char absolute[PATH_MAX];
    if (!realpath(file, absolute))
        snprintf(absolute, sizeof absolute, "%s", file);
    unsigned nargs = (unsigned)words.len + 1;
    const char **args = arena_alloc(a, (nargs + 1) * sizeof *args);
    args[0] = "";
    for (unsigned i = 1; i < nargs; i++)
        args[i] = words.items[i - 1];
    vec_free(&words);
    for (unsigned i = 1; i < nargs; i++) { /* 0 is the compiler */
        const char *arg = args[i];
        if (in_list(arg, drop_with_value)) {
            i++;
        } else if (in_list(arg, drop_alone) || attached_in_list(arg, drop_with_value)) {
            continue;
        } else if (in_list(arg, path_value) && i + 1 < nargs) {
            vec_push(out, arg);
            vec_push(out, absolute_in(args[++i], dir, a));
        } else if (arg[0] != '-' && same_file(arg, dir, absolute)) {
            continue; /* the input */
        } else {
            push_arg(out, arg, dir, a);
        }
    }
    return 0;
}

int compdb_common_flags(const char *build_dir, const char *const *files, size_t n_files,
                        char *const *explicit_flags, size_t n_explicit, arena *a,
                        cstr_vec *out, strbuf *err)
{
    int rc = 0;
    const char *first = NULL;
    for (size_t f = 0; f < n_files && rc == 0; f++) {
        const char *dot = strrchr(files[f], '.');
        if (!dot || strcmp(dot, ".cu") != 0)
            continue; /* a header has no compile command of its own */
        cstr_vec flags = {0};
        rc = compdb_flags(build_dir, files[f], a, &flags, err);
        if (rc == 0 && !first) {
            first = files[f];
            for (size_t i = 0; i < flags.len; i++)
                vec_push(out, flags.items[i]);
        } else if (rc == 0 && !cstr_vec_equal(&flags, out)) {
            sb_printf(err, "%s and %s compile with different flags in %s/compile_commands.json: "
                           "give them one at a time",
                      first, files[f], build_dir);
            rc = -1;
        }
        vec_free(&flags);
    }
    for (size_t i = 0; rc == 0 && i < n_explicit; i++)
        vec_push(out, explicit_flags[i]);
    return rc;
}
