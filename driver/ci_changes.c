/*
 * ci_changes.c: which CUDA files a change touched, for `cl1cc ci`: the
 * .cu files `git diff BASE...HEAD` names, and for a changed .cuh every
 * .cu of the repository that includes it.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "ci.h"
#include "core.h"
#include "proc.h"

int ci_git(const char *const *args, const char *cwd, strbuf *out, strbuf *err)
{
    const char *argv[16] = {"git"};
    size_t n = 1;
    for (; args[n - 1] && n < 15; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    proc_options po;
    memset(&po, 0, sizeof po);
    po.cwd = cwd;
    po.capture_stdout = po.capture_stderr = 1;
    po.stdin_path = "/dev/null";
    po.limits.wall_seconds = 120;
    proc_result r;
    int rc = proc_run(argv, &po, &r);
    if (rc != 0 || !r.exited || r.exit_code != 0) {
        const char *e = sb_str(&r.err);
        if (!*e)
            e = r.spawn_failed ? "cannot run git" : "failed";
        sb_printf(err, "git %s: %.*s", args[0], (int)strcspn(e, "\n"), e);
        rc = -1;
    } else {
        sb_append(out, sb_str(&r.out), r.out.len);
    }
    proc_result_free(&r);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

void ci_push_unique(cstr_vec *v, const char *s, arena *a)
{
    for (size_t i = 0; i < v->len; i++)
        if (strcmp(v->items[i], s) == 0)
            return;
    vec_push(v, arena_strdup(a, s));
}

/* the .cu files of the work tree that #include a header of this name */
static void includers(const char *top, const char *header, arena *a, cstr_vec *out)
{
    const char *base = strrchr(header, '/');
    base = base ? base + 1 : header;
    strbuf list, err, pattern;
    sb_init(&list);
    sb_init(&err);
    sb_init(&pattern);
    const char *args[] = {"ls-files", "-z", "--", "*.cu", NULL};
    if (ci_git(args, top, &list, &err) != 0) {
        log_warn("ci: %s", sb_str(&err));
        goto done;
    }
    sb_puts(&pattern, "^[ \t]*#[ \t]*include[ \t]*[<\"]([^\">]*/)?");
    for (const char *p = base; *p; p++) {
        if (strchr(".[]()*+?{}|^$\\", *p))
            sb_putc(&pattern, '\\');
        sb_putc(&pattern, *p);
    }
    sb_puts(&pattern, "[\">]");
    regex_t re;
    if (regcomp(&re, sb_str(&pattern), REG_EXTENDED | REG_NOSUB | REG_NEWLINE) != 0)
        goto done;
    for (const char *f = list.data; f && f < list.data + list.len; f += strlen(f) + 1) {
        const char *path = arena_printf(a, "%s/%s", top, f);
        char *text;
        if (file_read_all(path, 64u << 20, &text, NULL) != 0)
            continue;
        if (regexec(&re, text, 0, NULL, 0) == 0)
            ci_push_unique(out, path, a);
        free(text);
    }
    regfree(&re);
done:
    sb_free(&list);
    sb_free(&err);
    sb_free(&pattern);
}

int ci_changed_files(const char *base_opt, const char *top, arena *a, const char **base_out,
                         cstr_vec *out, strbuf *err)
{
    const char *base = base_opt;
    if (!base) {
        strbuf ignored, e;
        sb_init(&ignored);
        sb_init(&e);
        const char *verify[] = {"rev-parse", "--verify", "--quiet", "origin/main^{commit}", NULL};
        base = ci_git(verify, top, &ignored, &e) == 0 ? "origin/main" : "HEAD~1";
        sb_free(&ignored);
        sb_free(&e);
    }
    *base_out = base;
    strbuf names;
    sb_init(&names);
    const char *range = arena_printf(a, "%s...HEAD", base);
    const char *diff[] = {"diff", "--name-only", "-z", "--diff-filter=d", range, "--", NULL};
    if (ci_git(diff, top, &names, err) != 0) {
        sb_free(&names);
        return -1;
    }
    for (const char *f = names.data; f && f < names.data + names.len; f += strlen(f) + 1) {
        const char *path = arena_printf(a, "%s/%s", top, f);
        if (!file_exists(path))
            continue;
        if (ends_with(f, ".cu"))
            ci_push_unique(out, path, a);
        else if (ends_with(f, ".cuh"))
            includers(top, f, a, out);
    }
    sb_free(&names);
    return 0;
}

